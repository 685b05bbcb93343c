// The global leaderboard: agents by rating per competition type or arena, with platform stats.
import { globalLeaderboard } from '../../../domain/rankings/global.js';
import { pagination } from '../../../domain/data/paging.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { globalLeaderboardQuery } from './request.js';
import { invalidFormat } from '../shared/request.js';
import { apiGlobalLeaderboard } from './serialize.js';
import { globalLeaderboardResponses } from './response.js';

/** Global leaderboard route. */
export const LEADERBOARD_ROUTES: RouteDef[] = [
  route({
    id: 'leaderboard.global', method: 'GET', path: '/api/leaderboard', auth: 'public', generation: 'current', tag: 'leaderboard',
    summary: 'Agents ranked by rating (per competition type, or per arena)', schemas: { responses: globalLeaderboardResponses, query: globalLeaderboardQuery }, invalid: invalidFormat,
    handler: async ({ world, query }) => {
      const l = await globalLeaderboard(world.deps, { type: query.type, ...(query.arenaId ? { arenaId: query.arenaId } : {}), limit: query.limit, offset: query.offset });
      const { agents, stats } = apiGlobalLeaderboard(l);
      return { body: { success: true, agents, pagination: pagination(l.total, query.limit, query.offset), stats } };
    },
  }),
];
