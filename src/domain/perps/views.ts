// Perps reads: the agent's positions and account, a competition's positions per agent and in total, the spec era's summary and the detail stats.
import type { ReadTx } from '../../ports/store.js';
import { requireCompetition } from '../competitions/create.js';
import { activeCompetitionFor, routeCompetitionId } from '../competitions/route-competition.js';
import { versionRule } from '../versions.js';
import type { Deps } from '../deps.js';
import { DomainError, type ErrorCode } from '../errors.js';
import type { Agent, Competition, PerpsPosition, Principal } from '../model.js';
import { accountOf, agentPositions, positionView, valuationAt, type PerpsAccount, type PositionView } from './engine.js';
import { activeAgentIds, latestSnapshot } from '../trading/portfolio.js';
import type { Tables } from '../tables.js';
import { callerAgentId } from '../trading/trade.js';

/** Newest first by opening time (equal times: later stored first). */
function newestOpened(rows: readonly PerpsPosition[]): PerpsPosition[] {
  return [...rows].reverse().sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * The perps competition an agent route means, by the version's rule: `competitionId` given,
 * implicit or required. Unknown -> 404, not perps -> 400 (`notPerps`), the caller not active in
 * it -> 403. October 2025 (`active`) read the active competition: none -> 404 `No active
 * competition found`, and its own 403 text.
 */
function agentPerpsCompetition(
  deps: Deps, tx: ReadTx<Tables>, principal: Principal, agentId: string, competitionId: string | undefined, usage: string, notPerps: ErrorCode,
): Competition {
  const mode = versionRule(deps, 'competitionIdPerps');
  if (mode === 'active') {
    const comp = activeCompetitionFor(tx, principal);
    if (!comp) throw new DomainError('PERPS_NO_ACTIVE');
    if (comp.type !== 'perpetual_futures') throw new DomainError(notPerps);
    if (tx.get('competitionAgents', `${comp.id}:${agentId}`)?.status !== 'active') throw new DomainError('PERPS_NOT_REGISTERED_ACTIVE');
    return comp;
  }
  const id = routeCompetitionId(tx, principal, competitionId, mode, usage);
  const comp = tx.get('competitions', id);
  if (!comp) throw new DomainError('COMPETITION_NOT_FOUND');
  if (comp.type !== 'perpetual_futures') throw new DomainError(notPerps);
  if ((tx.get('competitionAgents', `${comp.id}:${agentId}`))?.status !== 'active') throw new DomainError('PERPS_NOT_REGISTERED');
  return comp;
}

/** `GET /api/agent/perps/positions`: every position of the caller (open and closed), newest first. */
export async function agentPerpsPositions(deps: Deps, principal: Principal, competitionId?: string): Promise<{ agentId: string; competitionId: string; positions: PositionView[] }> {
  const agentId = callerAgentId(principal);
  return deps.store.read((tx) => {
    const comp = agentPerpsCompetition(deps, tx, principal, agentId, competitionId, 'GET /api/agent/perps/positions?competitionId=xxx', 'PERPS_ONLY_POSITIONS');
    const at = valuationAt(deps, comp);
    return { agentId, competitionId: comp.id, positions: newestOpened(agentPositions(tx, comp.id, agentId)).map((p) => positionView(deps, p, at)) };
  });
}

/** `GET /api/agent/perps/account`: the caller's account summary, computed at the valuation instant. */
export async function agentPerpsAccount(deps: Deps, principal: Principal, competitionId?: string): Promise<PerpsAccount & { synced: boolean }> {
  const agentId = callerAgentId(principal);
  return deps.store.read((tx) => {
    const comp = agentPerpsCompetition(deps, tx, principal, agentId, competitionId, 'GET /api/agent/perps/account?competitionId=xxx', 'PERPS_ONLY_ACCOUNT');
    const account = accountOf(deps, comp, agentId, agentPositions(tx, comp.id, agentId), valuationAt(deps, comp));
    // Upstream reads a stored summary written by its sync; before the first one (an agent added
    // to a running sandbox competition, until the next snapshot tick) it answers a zero account.
    return { ...account, synced: latestSnapshot(tx, comp.id, agentId) !== undefined };
  });
}

/**
 * `GET /api/competitions/{id}/agents/{agentId}/perps/positions`: competition (404), perps (400),
 * agent (404), a registration in any status (404), then its positions newest first.
 */
export async function competitionAgentPerpsPositions(deps: Deps, competitionId: string, agentId: string): Promise<PositionView[]> {
  return deps.store.read((tx) => {
    const comp = requireCompetition(tx, competitionId);
    if (comp.type !== 'perpetual_futures') throw new DomainError('PERPS_ONLY_COMPETITION');
    if (!(tx.get('agents', agentId))) throw new DomainError('AGENT_NOT_FOUND');
    if (!(tx.get('competitionAgents', `${comp.id}:${agentId}`))) throw new DomainError('PERPS_AGENT_NOT_PARTICIPATING');
    const at = valuationAt(deps, comp);
    return newestOpened(agentPositions(tx, comp.id, agentId)).map((p) => positionView(deps, p, at));
  });
}

/** Query of the all-positions list (schema defaults applied). */
export interface AllPositionsInput { competitionId: string; status: string; limit: number; offset: number }

/**
 * `GET /api/competitions/{id}/perps/all-positions`: `Open` (default) newest opened first, `Closed`
 * or `Liquidated` most recently closed first, `all` most recently updated first; each with its agent.
 * No type check (another type simply has no positions), as upstream.
 */
export async function competitionPerpsPositions(deps: Deps, q: AllPositionsInput): Promise<{ positions: { view: PositionView; agent: Agent | undefined }[]; total: number }> {
  return deps.store.read((tx) => {
    const comp = requireCompetition(tx, q.competitionId);
    const at = valuationAt(deps, comp);
    const rows = [...(tx.find('perpsPositions', 'competition', comp.id))].reverse();
    let list: PerpsPosition[];
    if (q.status === 'all') list = rows.sort((a, b) => b.updatedAt - a.updatedAt);
    else if (q.status === 'Open') list = rows.filter((p) => p.status === 'Open').sort((a, b) => b.createdAt - a.createdAt);
    else list = rows.filter((p) => p.status === q.status).sort((a, b) => (b.closedAt ?? 0) - (a.closedAt ?? 0));
    const positions = [];
    for (const p of list.slice(q.offset, q.offset + q.limit)) positions.push({ view: positionView(deps, p, at), agent: tx.get('agents', p.agentId) });
    return { positions, total: list.length };
  });
}

/** Aggregates of a perps competition over its active agents' accounts. */
export interface PerpsTotals { totalAgents: number; totalPositions: number; totalVolume: number; averageEquity: number }

/** Totals over the active agents: their live accounts' volume and mean equity; positions counted over all rows. */
export function perpsTotals(deps: Deps, tx: ReadTx<Tables>, comp: Competition): PerpsTotals {
  const at = valuationAt(deps, comp);
  const agents = activeAgentIds(tx, comp.id);
  let volume = 0;
  let equity = 0;
  for (const agentId of agents) {
    const acc = accountOf(deps, comp, agentId, agentPositions(tx, comp.id, agentId), at);
    volume += acc.totalVolume;
    equity += acc.totalEquity;
  }
  return {
    totalAgents: agents.length, totalPositions: tx.count('perpsPositions', 'competition', comp.id),
    totalVolume: volume, averageEquity: agents.length > 0 ? equity / agents.length : 0,
  };
}

/** `GET /api/competitions/{id}/perps/summary` (spec era, removed upstream 2025-10-07). */
export async function perpsSummary(deps: Deps, competitionId: string): Promise<{ competitionId: string; summary: PerpsTotals; at: number }> {
  return deps.store.read((tx) => {
    const comp = requireCompetition(tx, competitionId);
    if (comp.type !== 'perpetual_futures') throw new DomainError('PERPS_ONLY_ADMIN');
    return { competitionId: comp.id, summary: perpsTotals(deps, tx, comp), at: deps.clock.now() };
  });
}
