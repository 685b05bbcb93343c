// Public agent routes: the agent list, one agent with stats and trophies, and its competitions.
import { agentCompetitions } from '../../../domain/agents/competitions.js';
import { listPublicAgents, publicAgentDetail } from '../../../domain/agents/public.js';
import { versionRule } from '../../../domain/versions.js';
import type { RouteDef } from '../../route.js';
import { agentCompetitionsQuery, agentParams, agentsQuery, invalidAgentCompetitions, invalidAgentId } from './request.js';
import { apiAgentCompetition, apiPublicAgent, apiPublicAgentDetail } from './serialize.js';
import { agentCompetitionsResponses, agentDetailResponses, agentsListResponses } from './response.js';

const base = { auth: 'public', generation: 'current', tag: 'agents' } as const;

/** Public agent routes. */
export const AGENTS_ROUTES: RouteDef[] = [
  {
    ...base, id: 'agents.list', method: 'GET', path: '/api/agents', summary: 'List agents (filter by name prefix or wallet)',
    schemas: { responses: agentsListResponses, query: agentsQuery },
    handler: async ({ world, query }) => {
      const r = await listPublicAgents(world.deps, { filter: query.filter, sort: query.sort, limit: query.limit, offset: query.offset });
      // The spec's pagination object has no hasMore here.
      return { body: { success: true, pagination: { total: r.total, limit: query.limit, offset: query.offset }, agents: r.agents.map(apiPublicAgent) } };
    },
  },
  {
    ...base, id: 'agents.get', method: 'GET', path: '/api/agents/{agentId}', summary: 'An agent with stats, trophies, skills and its owner',
    schemas: { responses: agentDetailResponses, params: agentParams }, invalid: invalidAgentId,
    handler: async ({ world, params }) => ({ body: { success: true, ...apiPublicAgentDetail(await publicAgentDetail(world.deps, params.agentId!)) } }),
  },
  {
    ...base, id: 'agents.competitions', method: 'GET', path: '/api/agents/{agentId}/competitions', summary: "An agent's competitions with its results",
    schemas: { responses: agentCompetitionsResponses, params: agentParams, query: agentCompetitionsQuery }, invalid: invalidAgentCompetitions,
    handler: async ({ world, params, query }) => {
      const r = await agentCompetitions(world.deps, {
        agentId: params.agentId!, status: query.status, claimed: query.claimed, sort: query.sort, limit: query.limit, offset: query.offset,
      });
      return {
        body: {
          success: true, competitions: r.rows.map((row) => apiAgentCompetition(row, versionRule(world.deps, 'agentCompetitionCounters'))),
          pagination: { total: r.total, limit: query.limit, offset: query.offset, hasMore: query.offset + query.limit < r.total },
        },
      };
    },
  },
];
