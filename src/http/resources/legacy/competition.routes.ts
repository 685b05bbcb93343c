// Legacy /api/competition/* (singular) for teams, GET /api/price/token-info and the root GET /health.
import { getPrice } from '../../../domain/trading/prices.js';
import { legacyLeaderboard, legacyRules, legacyStatus, legacyUpcoming } from '../../../domain/legacy/views.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { legacyCompetitionQuery, tokenInfoQuery } from './request.js';
import { apiLegacyCompetition, apiLegacyLeaderboard, apiLegacyStatus } from './serialize.js';
import { iso } from '../shared/time.js';
import { legacyLeaderboardResponses, legacyRulesResponses, legacyStatusResponses, legacyUpcomingResponses, rootHealthResponses, tokenInfoResponses } from './response.js';

const base = { generation: 'legacy', tag: 'competition', auth: 'key' } as const;

/** Competition, token-info and root health routes of the legacy generation. */
export const LEGACY_COMPETITION_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'competition.leaderboard', method: 'GET', path: '/api/competition/leaderboard', summary: 'Leaderboard (teamId/teamName, inactiveTeams)',
    schemas: { responses: legacyLeaderboardResponses, query: legacyCompetitionQuery },
    handler: async ({ world, principal, query }) => ({
      body: { success: true, ...apiLegacyLeaderboard(await legacyLeaderboard(world.deps, principal, query.competitionId)) },
    }),
  }),
  route({
    ...base, id: 'competition.status', method: 'GET', path: '/api/competition/status', summary: 'The active competition and participation',
    schemas: { responses: legacyStatusResponses },
    handler: async ({ world, principal }) => ({ body: apiLegacyStatus(await legacyStatus(world.deps, principal)) }),
  }),
  route({
    ...base, id: 'competition.rules', method: 'GET', path: '/api/competition/rules', summary: 'Rules of the active competition (no tradingConstraints)',
    schemas: { responses: legacyRulesResponses },
    handler: async ({ world, principal }) => ({ body: { success: true, rules: await legacyRules(world.deps, principal) } }),
  }),
  route({
    ...base, id: 'competition.upcoming', method: 'GET', path: '/api/competition/upcoming', summary: 'Pending competitions',
    schemas: { responses: legacyUpcomingResponses },
    handler: async ({ world }) => ({ body: { success: true, competitions: (await legacyUpcoming(world.deps)).map(apiLegacyCompetition) } }),
  }),
  route({
    id: 'price.tokenInfo', method: 'GET', path: '/api/price/token-info', auth: 'key', generation: 'legacy', tag: 'price',
    summary: 'Price and chain of a token', schemas: { responses: tokenInfoResponses, query: tokenInfoQuery },
    handler: async ({ world, query }) => {
      const a = getPrice(world.deps, query);
      return { body: { success: a.found, price: a.price, token: a.token, chain: a.chain, specificChain: a.specificChain } };
    },
  }),
  route({
    id: 'health.root', method: 'GET', path: '/health', auth: 'public', generation: 'legacy', tag: 'health',
    summary: 'Legacy root health (no uptime)',
    schemas: { responses: rootHealthResponses },
    handler: async ({ world }) => ({ body: { status: 'ok', timestamp: iso(world.deps.clock.now()), version: '1.0.0' } }),
  }),
];
