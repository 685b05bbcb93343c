// Competition lifecycle: start (register, reset balances, initial snapshot), end (final snapshot, frozen leaderboard), periodic snapshots.
import type { WriteTx } from '../../ports/store.js';
import { resetBalancesTx } from '../trading/balances.js';
import { createCompetitionTx, requireCompetition, type CompetitionInput } from './create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Competition, LeaderboardEntry, TradingConstraints } from '../model.js';
import { registerAgentTx } from './admin-participants.js';
import { freezeBadgesTx } from '../inference/badge.js';
import { perpsSnapshotsTx } from '../perps/engine.js';
import { activeAgentIds, agentSnapshots, takeSnapshotsTx } from '../trading/portfolio.js';
import { loadOpenSkill, updateRatingsTx, type RatingLibrary } from '../rankings/rating.js';
import { finalMetricRows, isMetricRanked } from '../rankings/risk-metrics.js';
import type { Tables } from '../tables.js';
import { versionRule } from '../versions.js';

/** Snapshots of any competition type: perps accounts are valued by the perps engine (equity), the rest by balances. */
const snapshotTx: typeof takeSnapshotsTx = (deps, tx, comp, agentIds, at, force) =>
  (comp.type === 'perpetual_futures' ? perpsSnapshotsTx : takeSnapshotsTx)(deps, tx, comp, agentIds, at, force);

/** Input of {@link startCompetition}: an existing competition, or create fields for create-and-start. */
export interface StartInput {
  competitionId?: string;
  agentIds?: string[];
  tradingConstraints?: Partial<TradingConstraints>;
  create?: CompetitionInput;
}

/** Result of a start: the competition and the final participant list. */
export interface StartResult { competition: Competition; agentIds: string[] }

/** Starts a pending competition inside `tx` (also used by the scheduler's auto-start). */
export function startCompetitionTx(
  deps: Deps, tx: WriteTx<Tables>, competitionId: string, agentIds: readonly string[] = [],
  tradingConstraints?: Partial<TradingConstraints>,
): StartResult {
  let comp = requireCompetition(tx, competitionId);
  if (comp.status !== 'pending') throw new DomainError('START_NOT_PENDING', { status: comp.status });
  const invalid: string[] = [];
  for (const id of agentIds) {
    const agent = tx.get('agents', id);
    if (!agent || agent.status !== 'active') invalid.push(id);
  }
  if (invalid.length > 0) throw new DomainError('START_INVALID_AGENTS', { ids: invalid.join(', ') });
  const registered = activeAgentIds(tx, comp.id);
  const participants = [...new Set([...agentIds, ...registered])];
  if (participants.length === 0) throw new DomainError('START_NO_AGENTS');
  if (comp.type === 'perpetual_futures' && versionRule(deps, 'perpsStartWalletCheck')) {
    // Upstream refuses a perps start naming every participant without a wallet (not spot-live).
    const walletless = participants.map((id) => tx.get('agents', id)).filter((a): a is NonNullable<typeof a> => a !== undefined && !a.walletAddress);
    if (walletless.length > 0) throw new DomainError('PERPS_START_NO_WALLET', { agents: walletless.map((a) => `${a.name} (${a.id})`).join(', ') });
  }
  for (const id of participants) comp = registerAgentTx(deps, tx, comp, id);
  const active = activeAgentIds(tx, comp.id);
  // Spot-live wallets start from the competition's starting list too (the simulated wallet holdings).
  if (comp.type === 'trading' || comp.type === 'spot_live_trading') for (const id of active) resetBalancesTx(deps, tx, comp, id);
  if (tradingConstraints) {
    const defined = Object.fromEntries(Object.entries(tradingConstraints).filter(([, v]) => v !== undefined));
    comp = { ...comp, tradingConstraints: { ...comp.tradingConstraints, ...defined } };
  }
  const now = deps.clock.now();
  snapshotTx(deps, tx, comp, active, now, true);
  comp = tx.put('competitions', { ...comp, status: 'active', startDate: now, lastSnapshotAt: now, updatedAt: now });
  return { competition: comp, agentIds: active };
}

/** `POST /api/admin/competition/start`: by id, or create-and-start. */
export function startCompetition(deps: Deps, input: StartInput): Promise<StartResult> {
  return deps.store.transact((tx) => {
    let id = input.competitionId;
    if (id === undefined) id = (createCompetitionTx(deps, tx, input.create ?? {})).id;
    return startCompetitionTx(deps, tx, id, input.agentIds ?? [], input.tradingConstraints);
  });
}

/** One row of the end-of-competition response. */
export interface EndLeaderboardRow { agentId: string; value: number; pnl: number }

/** Reads the persisted final leaderboard of an ended competition. */
function frozenLeaderboard(tx: WriteTx<Tables>, competitionId: string): EndLeaderboardRow[] {
  const rows = tx.find('leaderboards', 'competition', competitionId);
  return rows.sort((a, b) => a.rank - b.rank).map((r) => ({ agentId: r.agentId, value: r.score, pnl: r.pnl }));
}

/** What ending a competition answers: the ended row and its final leaderboard. */
export interface EndResult { competition: Competition; leaderboard: EndLeaderboardRow[] }

/** Ends an active competition inside `tx` (`lib`: the rating library, loaded before the transaction): final forced snapshot, ended, frozen leaderboard, ratings. Idempotent on ended. */
export function endCompetitionTx(deps: Deps, tx: WriteTx<Tables>, competitionId: string, lib: RatingLibrary): EndResult {
  let comp = requireCompetition(tx, competitionId);
  if (comp.status === 'ended') return { competition: comp, leaderboard: frozenLeaderboard(tx, comp.id) };
  if (comp.status !== 'active' && comp.status !== 'ending') throw new DomainError('END_NOT_ACTIVE', { status: comp.status });
  const now = deps.clock.now();
  comp = { ...comp, status: 'ending', endDate: now, updatedAt: now };
  const active = activeAgentIds(tx, comp.id);
  snapshotTx(deps, tx, comp, active, now, true);
  freezeBadgesTx(deps, tx, comp);
  const rows: Omit<LeaderboardEntry, 'id' | 'rank' | 'totalAgents'>[] = [];
  for (const agentId of active) {
    const snaps = agentSnapshots(tx, comp.id, agentId);
    if (snaps.length === 0) continue;
    const newest = snaps[0]!.totalValue;
    const oldest = snaps[snaps.length - 1]!.totalValue;
    rows.push({ competitionId: comp.id, agentId, score: newest, pnl: newest - oldest, startingValue: oldest, createdAt: now });
  }
  rows.sort((a, b) => b.score - a.score);
  // Perps rank by Calmar ratio, spot-live by simple return; the stored score is that metric (upstream).
  if (isMetricRanked(comp)) rows.splice(0, rows.length, ...(finalMetricRows(tx, comp, rows)));
  for (const [i, r] of rows.entries()) {
    tx.insert('leaderboards', { ...r, id: `${comp.id}:${r.agentId}`, rank: i + 1, totalAgents: active.length });
  }
  updateRatingsTx(deps, tx, comp, lib);
  comp = tx.put('competitions', { ...comp, status: 'ended', lastSnapshotAt: now });
  return { competition: comp, leaderboard: rows.map((r) => ({ agentId: r.agentId, value: r.score, pnl: r.pnl })) };
}

/** `POST /api/admin/competition/end`. */
export async function endCompetition(deps: Deps, competitionId: string): Promise<EndResult> {
  const lib = await loadOpenSkill();
  return deps.store.transact((tx) => endCompetitionTx(deps, tx, competitionId, lib));
}

/** Periodic snapshot of every active participant (scheduler job); records when the job ran. */
export async function periodicSnapshot(deps: Deps, competitionId: string): Promise<void> {
  await deps.store.transact((tx) => {
    const comp = requireCompetition(tx, competitionId);
    if (comp.status !== 'active') return;
    const now = deps.clock.now();
    snapshotTx(deps, tx, comp, activeAgentIds(tx, comp.id), now);
    tx.put('competitions', { ...comp, lastSnapshotAt: now });
  });
}
