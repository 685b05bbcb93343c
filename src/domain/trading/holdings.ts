// The calling agent's balances (priced at the virtual clock) and trade history in one competition.
import type { ReadTx } from '../../ports/store.js';
import type { BlockchainType } from '../../ports/prices.js';
import { implicitCompetitionId } from '../competitions/create.js';
import type { Deps } from '../deps.js';
import { DomainError, type ErrorCode } from '../errors.js';
import type { Balance, Competition, Principal, Trade } from '../model.js';
import { capList, TRADE_LIST_LIMIT } from '../data/limits.js';
import { findPrice } from './prices.js';
import type { Tables } from '../tables.js';
import { callerAgentId } from './trade.js';

/** A balance row with its current price where one is found (upstream's enhanced balance). */
export type PricedBalance = Balance & { chain: BlockchainType; price?: number; value?: number };

function competitionFor(
  tx: ReadTx<Tables>, principal: Principal, competitionId: string | undefined, usage: string, perpsError: ErrorCode,
): Competition {
  const id = competitionId ?? (implicitCompetitionId(tx, principal, usage));
  const comp = tx.get('competitions', id.toLowerCase());
  if (!comp) throw new DomainError('COMPETITION_NOT_FOUND');
  if (comp.type === 'perpetual_futures') throw new DomainError(perpsError);
  return comp;
}

/**
 * `GET /api/agent/balances`: every row of the agent in the competition (zero rows included,
 * storage order). A priced row gets `chain`, `price`, `value` and the price report's symbol and
 * chain; an unpriced one keeps its stored symbol. No registration check (unregistered -> []).
 */
export async function agentBalances(deps: Deps, principal: Principal, competitionId?: string): Promise<{ agentId: string; competitionId: string; balances: PricedBalance[] }> {
  const agentId = callerAgentId(principal);
  return deps.store.read((tx) => {
    const comp = competitionFor(tx, principal, competitionId, 'GET /api/agent/balances?competitionId=xxx', 'BALANCES_PERPS');
    const now = deps.clock.now();
    const rows = tx.find('balances', 'agentCompetition', `${agentId}:${comp.id}`);
    const balances = rows.map((b): PricedBalance => {
      const chain: BlockchainType = b.specificChain === 'svm' ? 'svm' : 'evm';
      const p = findPrice(deps.prices, deps.config.evmChains, b.tokenAddress, now, { chain, specificChain: b.specificChain });
      if (!p) return { ...b, chain };
      return { ...b, symbol: p.symbol, specificChain: p.specificChain, chain, price: p.price, value: b.amount * p.price };
    });
    return { agentId, competitionId: comp.id, balances };
  });
}

/**
 * `GET /api/agent/trades`: all of the agent's trades in the competition, newest first, unpaginated;
 * more than TRADE_LIST_LIMIT -> 400 LIST_TOO_LARGE pointing at the paged list.
 */
export async function agentTrades(deps: Deps, principal: Principal, competitionId?: string): Promise<{ agentId: string; competitionId: string; trades: Trade[] }> {
  const agentId = callerAgentId(principal);
  return deps.store.read((tx) => {
    const comp = competitionFor(tx, principal, competitionId, 'GET /api/agent/trades?competitionId=xxx', 'AGENT_TRADES_PERPS');
    const key = `${agentId}:${comp.id}`;
    capList(tx.count('trades', 'agentCompetition', key), TRADE_LIST_LIMIT, 'trades',
      `Page through them with GET /api/competitions/${comp.id}/agents/${agentId}/trades?limit=100&offset=0`);
    const trades = tx.find('trades', 'agentCompetition', key);
    return { agentId, competitionId: comp.id, trades: newestFirst(trades) };
  });
}

/** Trades by timestamp descending; equal timestamps newest-stored first. */
export function newestFirst(trades: readonly Trade[]): Trade[] {
  return [...trades].reverse().sort((a, b) => b.timestamp - a.timestamp);
}
