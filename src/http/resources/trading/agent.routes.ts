// The calling agent's own data: balances and trade history per competition.
import { agentBalances, agentTrades } from '../../../domain/trading/holdings.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { competitionQuery } from './request.js';
import { apiBalance, apiTrade } from './serialize.js';
import { agentTradesResponses, balancesResponses } from './response.js';

/** Own-agent routes. */
export const AGENT_ROUTES: RouteDef[] = [
  route({
    id: 'agent.balances', method: 'GET', path: '/api/agent/balances', auth: 'key', agentOnly: true, generation: 'current', tag: 'agent',
    summary: "The agent's balances in a competition", schemas: { responses: balancesResponses, query: competitionQuery },
    handler: async ({ world, principal, query }) => {
      const r = await agentBalances(world.deps, principal, query.competitionId);
      return { body: { success: true, agentId: r.agentId, ...(r.competitionId !== null ? { competitionId: r.competitionId } : {}), balances: r.balances.map(apiBalance) } };
    },
  }),
  route({
    id: 'agent.trades', method: 'GET', path: '/api/agent/trades', auth: 'key', agentOnly: true, generation: 'current', tag: 'agent',
    summary: "The agent's trades in a competition, newest first", schemas: { responses: agentTradesResponses, query: competitionQuery },
    handler: async ({ world, principal, query }) => {
      const r = await agentTrades(world.deps, principal, query.competitionId);
      return { body: { success: true, agentId: r.agentId, trades: r.trades.map(apiTrade) } };
    },
  }),
];
