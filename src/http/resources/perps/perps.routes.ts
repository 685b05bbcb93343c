// Perpetual futures: the agent's positions and account, competition-level position lists and summary, and the admin open/close control.
import { closePosition, openPosition } from '../../../domain/perps/engine.js';
import {
  agentPerpsAccount, agentPerpsPositions, competitionAgentPerpsPositions, competitionPerpsPositions, perpsSummary,
} from '../../../domain/perps/views.js';
import { pagination } from '../../../domain/data/paging.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { competitionAgentParams, competitionParams, invalidRequest } from '../competitions/request.js';
import { allPositionsQuery, openPositionBody, perpsQuery, positionParams } from './request.js';
import { apiPerpsAccount, apiPosition, apiPositionWithAgent } from './serialize.js';
import { iso } from '../shared/time.js';
import { uuidParams } from '../shared/request.js';
import { perpsControlResponses } from './response.js';
import { allPositionsResponses, competitionAgentPositionsResponses, perpsAccountResponses, perpsPositionsResponses, perpsSummaryResponses } from './response.js';

const agent = { generation: 'current', tag: 'perps', auth: 'key' } as const;
const admin = { generation: 'current', tag: 'admin', auth: 'admin' } as const;

/** Perps routes. */
export const PERPS_ROUTES: RouteDef[] = [
  route({
    ...agent, id: 'agent.perps.positions', agentOnly: true, method: 'GET', path: '/api/agent/perps/positions', summary: "The agent's perps positions (open and closed)",
    schemas: { responses: perpsPositionsResponses, query: perpsQuery },
    handler: async ({ world, principal, query }) => {
      const r = await agentPerpsPositions(world.deps, principal, query.competitionId);
      return { body: { success: true, agentId: r.agentId, competitionId: r.competitionId, positions: r.positions.map(apiPosition) } };
    },
  }),
  route({
    ...agent, id: 'agent.perps.account', agentOnly: true, method: 'GET', path: '/api/agent/perps/account', summary: "The agent's perps account summary",
    schemas: { responses: perpsAccountResponses, query: perpsQuery },
    handler: async ({ world, principal, query }) => {
      const a = await agentPerpsAccount(world.deps, principal, query.competitionId);
      return { body: { success: true, agentId: a.agentId, competitionId: a.competitionId, account: apiPerpsAccount(a) } };
    },
  }),
  route({
    ...agent, id: 'competitions.agents.perps.positions', method: 'GET', path: '/api/competitions/{competitionId}/agents/{agentId}/perps/positions',
    summary: "An agent's perps positions in a competition", invalid: invalidRequest, schemas: { responses: competitionAgentPositionsResponses, params: competitionAgentParams },
    handler: async ({ world, params }) => {
      const positions = await competitionAgentPerpsPositions(world.deps, params.competitionId!, params.agentId!);
      return { body: { success: true, competitionId: params.competitionId, agentId: params.agentId, positions: positions.map(apiPosition) } };
    },
  }),
  route({
    ...agent, id: 'competitions.perps.positions', method: 'GET', path: '/api/competitions/{competitionId}/perps/all-positions',
    summary: 'Perps positions of a competition (status Open, Closed, Liquidated or all)', invalid: invalidRequest,
    schemas: { responses: allPositionsResponses, params: competitionParams, query: allPositionsQuery },
    handler: async ({ world, params, query }) => {
      const r = await competitionPerpsPositions(world.deps, { competitionId: params.competitionId!, status: query.status, limit: query.limit, offset: query.offset });
      return {
        body: { success: true, positions: r.positions.map((x) => apiPositionWithAgent(x.view, x.agent)), pagination: pagination(r.total, query.limit, query.offset) },
      };
    },
  }),
  route({
    ...agent, id: 'competitions.perps.summary', method: 'GET', path: '/api/competitions/{competitionId}/perps/summary',
    summary: 'Perps totals of a competition (older era)', invalid: invalidRequest, schemas: { responses: perpsSummaryResponses, params: competitionParams },
    handler: async ({ world, params }) => {
      const r = await perpsSummary(world.deps, params.competitionId!);
      return { body: { success: true, competitionId: r.competitionId, summary: r.summary, timestamp: iso(r.at) } };
    },
  }),
  route({
    ...admin, id: 'admin.perps.open', method: 'POST', path: '/api/admin/competitions/{competitionId}/perps/positions',
    summary: 'Open a perps position for an agent (compsim only)', schemas: { responses: perpsControlResponses, params: uuidParams('competitionId'), body: openPositionBody },
    handler: async ({ world, params, body }) => ({ body: { success: true, position: apiPosition(await openPosition(world.deps, params.competitionId!, body)) } }),
  }),
  route({
    ...admin, id: 'admin.perps.close', method: 'POST', path: '/api/admin/competitions/{competitionId}/perps/positions/{positionId}/close',
    summary: 'Close a perps position at the mark (compsim only)', schemas: { responses: perpsControlResponses, params: positionParams },
    handler: async ({ world, params }) => ({ body: { success: true, position: apiPosition(await closePosition(world.deps, params.competitionId!, params.positionId!)) } }),
  }),
];
