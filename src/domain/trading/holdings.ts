// The calling agent's balances (priced at the virtual clock) and trade history in one competition.
import type { ReadTx } from '../../ports/store.js';
import type { BlockchainType } from '../../ports/prices.js';
import { activeCompetitionFor, routeCompetitionId } from '../competitions/route-competition.js';
import { versionRule, type CompetitionIdMode } from '../versions.js';
import type { Deps } from '../deps.js';
import { DomainError, type ErrorCode } from '../errors.js';
import type { Balance, Competition, Principal, Trade } from '../model.js';
import { capList, TRADE_LIST_LIMIT } from '../data/limits.js';
import { findPrice } from './prices.js';
import type { Tables } from '../tables.js';
import { callerAgentId } from './trade.js';

/** A balance row with its current price where one is found (upstream's enhanced balance). */
export type PricedBalance = Balance & { chain: BlockchainType; price?: number; value?: number };

/**
 * The competition of an own-data route: by the version's rule, given, implicit or required; a
 * perps competition is refused with `perpsError`. In `active` mode (October 2025) the active
 * competition, or undefined when none is active (the caller then reads across competitions).
 */
function competitionFor(
  tx: ReadTx<Tables>, principal: Principal, competitionId: string | undefined, mode: CompetitionIdMode, usage: string, perpsError: ErrorCode,
): Competition | undefined {
  if (mode === 'active') {
    const active = activeCompetitionFor(tx, principal);
    if (active?.type === 'perpetual_futures') throw new DomainError(perpsError);
    return active;
  }
  const id = routeCompetitionId(tx, principal, competitionId, mode, usage);
  const comp = tx.get('competitions', id.toLowerCase());
  if (!comp) throw new DomainError('COMPETITION_NOT_FOUND');
  if (comp.type === 'perpetual_futures') throw new DomainError(perpsError);
  return comp;
}

/**
 * The competition whose balances the October-2025 service showed without one active: balances
 * were one set per agent, replaced at every start or sandbox add, so the newest set stands
 * (the competition of the agent's most recently created balance row).
 */
function latestBalanceCompetition(tx: ReadTx<Tables>, agentId: string): string | undefined {
  let best: Balance | undefined;
  for (const b of tx.find('balances', 'agent', agentId)) if (!best || b.createdAt >= best.createdAt) best = b;
  return best?.competitionId;
}

/**
 * `GET /api/agent/balances`: every row of the agent in the competition (zero rows included,
 * storage order). A priced row gets `chain`, `price`, `value` and the price report's symbol and
 * chain; an unpriced one keeps its stored symbol. No registration check (unregistered -> []).
 */
export async function agentBalances(deps: Deps, principal: Principal, competitionId?: string): Promise<{ agentId: string; competitionId: string | null; balances: PricedBalance[] }> {
  const agentId = callerAgentId(principal);
  return deps.store.read((tx) => {
    const mode = versionRule(deps, 'competitionIdBalances');
    const comp = competitionFor(tx, principal, competitionId, mode, 'GET /api/agent/balances?competitionId=xxx', 'BALANCES_PERPS');
    // October 2025 kept one balance set per agent, whatever competition is active now.
    const cid = mode === 'active' ? latestBalanceCompetition(tx, agentId) : comp!.id;
    const now = deps.clock.now();
    const rows = cid === undefined ? [] : tx.find('balances', 'agentCompetition', `${agentId}:${cid}`);
    const balances = rows.map((b): PricedBalance => {
      const chain: BlockchainType = b.specificChain === 'svm' ? 'svm' : 'evm';
      const p = findPrice(deps.prices, deps.config.evmChains, b.tokenAddress, now, { chain, specificChain: b.specificChain });
      if (!p) return { ...b, chain };
      return { ...b, symbol: p.symbol, specificChain: p.specificChain, chain, price: p.price, value: b.amount * p.price };
    });
    // The October-2025 answer names no competition.
    return { agentId, competitionId: mode === 'active' ? null : cid!, balances };
  });
}

/**
 * `GET /api/agent/trades`: all of the agent's trades in the competition, newest first, unpaginated;
 * more than TRADE_LIST_LIMIT -> 400 LIST_TOO_LARGE pointing at the paged list.
 */
export async function agentTrades(deps: Deps, principal: Principal, competitionId?: string): Promise<{ agentId: string; competitionId: string | null; trades: Trade[] }> {
  const agentId = callerAgentId(principal);
  return deps.store.read((tx) => {
    const mode = versionRule(deps, 'competitionIdTrades');
    const comp = competitionFor(tx, principal, competitionId, mode, 'GET /api/agent/trades?competitionId=xxx', 'AGENT_TRADES_PERPS');
    if (mode === 'active') {
      // October 2025: every trade of the agent, across competitions.
      capList(tx.count('trades', 'agent', agentId), TRADE_LIST_LIMIT, 'trades', 'Page through them per competition with GET /api/competitions/{competitionId}/agents/{agentId}/trades?limit=100&offset=0');
      return { agentId, competitionId: null, trades: newestFirst(tx.find('trades', 'agent', agentId)) };
    }
    const key = `${agentId}:${comp!.id}`;
    capList(tx.count('trades', 'agentCompetition', key), TRADE_LIST_LIMIT, 'trades',
      `Page through them with GET /api/competitions/${comp!.id}/agents/${agentId}/trades?limit=100&offset=0`);
    const trades = tx.find('trades', 'agentCompetition', key);
    return { agentId, competitionId: comp!.id, trades: newestFirst(trades) };
  });
}

/** Trades by timestamp descending; equal timestamps newest-stored first. */
export function newestFirst(trades: readonly Trade[]): Trade[] {
  return [...trades].reverse().sort((a, b) => b.timestamp - a.timestamp);
}
