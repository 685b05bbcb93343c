// Public arena reads: the arena list (name filter, sort, paging) and one arena.
import { ARENA_SORT_FIELDS, getArena, listArenas } from '../../../domain/competitions/arenas.js';
import { pagination } from '../../../domain/data/paging.js';
import { parseListSort } from '../../../domain/agents/public.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { publicArenaParams, publicArenasQuery } from './request.js';
import { apiArena } from './serialize.js';
import { arenaGetResponses, arenasListResponses } from './response.js';

const base = { auth: 'public', generation: 'current', tag: 'arenas' } as const;

/** Public arena routes. */
export const PUBLIC_ARENA_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'arenas.list', method: 'GET', path: '/api/arenas', summary: 'List arenas (name substring filter)',
    schemas: { responses: arenasListResponses, query: publicArenasQuery },
    handler: async ({ world, query }) => {
      const sort = parseListSort(query.sort, ARENA_SORT_FIELDS, 'Invalid request');
      const { arenas, total } = await listArenas(world.deps, { limit: query.limit, offset: query.offset, sort, ...(query.name ? { name: query.name } : {}) });
      return { body: { success: true, arenas: arenas.map(apiArena), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  route({
    ...base, id: 'arenas.get', method: 'GET', path: '/api/arenas/{id}', summary: 'An arena',
    schemas: { responses: arenaGetResponses, params: publicArenaParams },
    handler: async ({ world, params }) => ({ body: { success: true, arena: apiArena(await getArena(world.deps, params.id!)) } }),
  }),
];
