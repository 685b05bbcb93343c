// Competition trade lists: every trade of a competition, or one agent's, newest first, paged.
import { requireCompetition } from './create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Competition, Trade } from '../model.js';

/** Paging of the trade lists (schema defaults applied). */
export interface TradePage { limit: number; offset: number }

/** Newest first; trades of the same instant keep the newer write first. */
function newestFirst(trades: readonly Trade[]): Trade[] {
  return trades.map((t, i) => ({ t, i })).sort((a, b) => b.t.timestamp - a.t.timestamp || b.i - a.i).map((x) => x.t);
}

/**
 * One page of {@link newestFirst}. Trades are written at the current virtual time, which never moves
 * back, so a list in time order is the rule: newest first is then the list backwards, and a page is
 * read off its end without sorting every trade of the competition for each page.
 */
function newestFirstPage(trades: readonly Trade[], offset: number, limit: number): Trade[] {
  for (let i = 1; i < trades.length; i++) if (trades[i - 1]!.timestamp > trades[i]!.timestamp) return newestFirst(trades).slice(offset, offset + limit);
  const page: Trade[] = [];
  for (let i = trades.length - 1 - offset; i >= 0 && page.length < limit; i--) page.push(trades[i]!);
  return page;
}

/** `GET /api/competitions/{competitionId}/trades`: trades with their agents; no registration check (as upstream). */
export async function competitionTrades(
  deps: Deps, input: TradePage & { competitionId: string },
): Promise<{ competition: Competition; trades: { trade: Trade; agent: Agent | undefined }[]; total: number }> {
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, input.competitionId);
    const all = tx.find('trades', 'competition', competition.id);
    const trades: { trade: Trade; agent: Agent | undefined }[] = [];
    for (const trade of newestFirstPage(all, input.offset, input.limit)) trades.push({ trade, agent: tx.get('agents', trade.agentId) });
    return { competition, trades, total: all.length };
  });
}

/** `GET /api/competitions/{competitionId}/agents/{agentId}/trades`: unknown competition, then unknown agent -> 404. */
export async function agentCompetitionTrades(
  deps: Deps, input: TradePage & { competitionId: string; agentId: string },
): Promise<{ trades: Trade[]; total: number }> {
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, input.competitionId);
    if (!(tx.get('agents', input.agentId))) throw new DomainError('AGENT_NOT_FOUND');
    const all = tx.find('trades', 'agentCompetition', `${input.agentId}:${competition.id}`);
    return { trades: newestFirstPage(all, input.offset, input.limit), total: all.length };
  });
}
