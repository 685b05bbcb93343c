// Competition trade lists: every trade of a competition, or one agent's, newest first, paged.
import { requireCompetition } from './create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Competition, Trade } from '../model.js';
import type { ReadTx } from '../../ports/store.js';
import type { Tables } from '../tables.js';

/** Paging of the trade lists (schema defaults applied). */
export interface TradePage { limit: number; offset: number }

/**
 * One page of an index's trades, newest first (trades of one instant: the newer write first).
 * Trades are written at the current virtual time, which never moves back, so insertion order is
 * time order: the page is read off the end of the index backwards, without reading (or sorting)
 * the competition's other trades.
 */
function newestFirstPage(tx: ReadTx<Tables>, index: string, key: string, offset: number, limit: number): { page: Trade[]; total: number } {
  const total = tx.count('trades', index, key);
  const end = total - offset;
  if (end <= 0) return { page: [], total };
  return { page: tx.slice('trades', index, key, Math.max(0, end - limit), end).reverse(), total };
}

/** `GET /api/competitions/{competitionId}/trades`: trades with their agents; no registration check (as upstream). */
export async function competitionTrades(
  deps: Deps, input: TradePage & { competitionId: string },
): Promise<{ competition: Competition; trades: { trade: Trade; agent: Agent | undefined }[]; total: number }> {
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, input.competitionId);
    const { page, total } = newestFirstPage(tx, 'competition', competition.id, input.offset, input.limit);
    const trades: { trade: Trade; agent: Agent | undefined }[] = [];
    for (const trade of page) trades.push({ trade, agent: tx.get('agents', trade.agentId) });
    return { competition, trades, total };
  });
}

/** `GET /api/competitions/{competitionId}/agents/{agentId}/trades`: unknown competition, then unknown agent -> 404. */
export async function agentCompetitionTrades(
  deps: Deps, input: TradePage & { competitionId: string; agentId: string },
): Promise<{ trades: Trade[]; total: number }> {
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, input.competitionId);
    if (!(tx.get('agents', input.agentId))) throw new DomainError('AGENT_NOT_FOUND');
    const { page, total } = newestFirstPage(tx, 'agentCompetition', `${input.agentId}:${competition.id}`, input.offset, input.limit);
    return { trades: page, total };
  });
}
