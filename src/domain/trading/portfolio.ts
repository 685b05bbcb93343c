// Portfolio value (sum of amount x price) and portfolio snapshots of competition participants.
import { pairKey } from '../data/keys.js';
import type { ReadTx, WriteTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import type { Balance, Competition, PortfolioSnapshot } from '../model.js';
import { valuationPrice } from './prices.js';
import type { Tables } from '../tables.js';

/**
 * Value of a set of balances at `at`. With `strict`, a positive balance without a price makes the
 * whole value unknown (null), as the snapshotter prefers no snapshot to a wrong one; otherwise
 * unpriced tokens count 0 (live value).
 */
export function portfolioValue(deps: Deps, balances: readonly Balance[], at: number, strict = false): number | null {
  let total = 0;
  for (const b of balances) {
    if (b.amount === 0) continue;
    const p = valuationPrice(deps.prices, b.tokenAddress, b.specificChain, at);
    if (p === null) {
      if (strict) return null;
      continue;
    }
    total += b.amount * p;
  }
  return total;
}

/**
 * The team era's snapshot valuation (reference legacy §5.3): every priced balance by address with
 * its amount and USD value; an unpriced token is left out of both the list and the total (the
 * snapshot is still taken).
 */
function legacyValuation(deps: Deps, balances: readonly Balance[], at: number): Pick<PortfolioSnapshot, 'totalValue' | 'valuesByToken'> {
  const valuesByToken: Record<string, { amount: number; valueUsd: number }> = {};
  let totalValue = 0;
  for (const b of balances) {
    const p = valuationPrice(deps.prices, b.tokenAddress, b.specificChain, at);
    if (p === null) continue;
    const valueUsd = b.amount * p;
    valuesByToken[b.tokenAddress] = { amount: b.amount, valueUsd };
    totalValue += valueUsd;
  }
  return { totalValue, valuesByToken };
}

/** Ids of agents whose registration in `comp` is active, in registration order. */
export function activeAgentIds(tx: ReadTx<Tables>, competitionId: string): string[] {
  return (tx.find('competitionAgents', 'competition', competitionId)).filter((r) => r.status === 'active').map((r) => r.agentId);
}

/**
 * Takes one snapshot per given agent at `at` (one shared timestamp). Skips agents without balances,
 * with an unpriced positive balance, or (unless forced) when the competition's end date has passed.
 */
export function takeSnapshotsTx(
  deps: Deps, tx: WriteTx<Tables>, comp: Competition, agentIds: readonly string[], at: number, force = false,
): PortfolioSnapshot[] {
  if (!force && comp.endDate !== null && at > comp.endDate) return [];
  const out: PortfolioSnapshot[] = [];
  for (const agentId of agentIds) {
    const balances = tx.find('balances', 'agentCompetition', pairKey(agentId, comp.id));
    if (balances.length === 0) continue;
    if (comp.slippageModel === 'legacy') {
      out.push(tx.insert('snapshots', { id: tx.nextSeq('snapshots'), competitionId: comp.id, agentId, timestamp: at, ...legacyValuation(deps, balances, at) }));
      continue;
    }
    const value = portfolioValue(deps, balances, at, true);
    if (value === null) continue;
    out.push(tx.insert('snapshots', { id: tx.nextSeq('snapshots'), competitionId: comp.id, agentId, timestamp: at, totalValue: value }));
  }
  return out;
}

/**
 * The newest snapshot of an agent in a competition, read in O(1): the last one stored. Snapshot
 * rows are only ever inserted at the current virtual time, which never moves back (restore and
 * load replace rows and clock together), so storage order is time order and the last row is the
 * one with the latest timestamp (on a tie, the later write), which is what scanning them all with
 * `newestSnapshot` (leaderboard.ts) picks.
 */
export function latestSnapshot(tx: ReadTx<Tables>, competitionId: string, agentId: string): PortfolioSnapshot | undefined {
  return (tx.slice('snapshots', 'agentCompetition', pairKey(agentId, competitionId), -1))[0];
}

/**
 * The newest snapshot of each of `agentIds` in a competition (absent: none), as
 * {@link latestSnapshot} finds them, in far fewer store calls: an agent's newest snapshot is also
 * its last row in the competition's snapshot index (the same rows, the same insertion order), so
 * a walk back over the competition's newest rows (at most two rounds of `agentIds.length`) finds
 * everyone snapshotted in the last rounds at once; the rest are read one by one.
 */
export function latestSnapshots(tx: ReadTx<Tables>, competitionId: string, agentIds: readonly string[]): Map<string, PortfolioSnapshot> {
  const wanted = new Set(agentIds);
  const found = new Map<string, PortfolioSnapshot>();
  const step = Math.max(64, wanted.size);
  let end = tx.count('snapshots', 'competition', competitionId);
  const stop = Math.max(0, end - 2 * step);
  while (end > stop && found.size < wanted.size) {
    const start = Math.max(stop, end - step);
    const rows = tx.slice('snapshots', 'competition', competitionId, start, end);
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i]!;
      if (wanted.has(row.agentId) && !found.has(row.agentId)) found.set(row.agentId, row);
    }
    end = start;
  }
  if (found.size < wanted.size && end > 0) {
    for (const agentId of wanted) {
      if (found.has(agentId)) continue;
      const snap = latestSnapshot(tx, competitionId, agentId);
      if (snap) found.set(agentId, snap);
    }
  }
  return found;
}

/** Snapshots of one agent in one competition, newest first. */
export function agentSnapshots(tx: ReadTx<Tables>, competitionId: string, agentId: string): PortfolioSnapshot[] {
  return (tx.find('snapshots', 'agentCompetition', pairKey(agentId, competitionId))).reverse();
}
