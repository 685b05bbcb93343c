// Admin arena CRUD routes.
import { ARENA_SORT_FIELDS, createArena, deleteArena, getArena, listArenas, updateArena } from '../../../domain/competitions/arenas.js';
import { pagination, parseSort } from '../../../domain/data/paging.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { apiArena } from './serialize.js';
import { arenaParams, createArenaBody, listArenasQuery, updateArenaBody } from './request.js';
import { arenaResponses, createArenaResponses, deleteArenaResponses, listArenasResponses } from './response.js';

const base = { generation: 'current', tag: 'admin', auth: 'admin' } as const;

/** Admin arena routes. */
export const ADMIN_ARENA_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'admin.arenas.create', method: 'POST', path: '/api/admin/arenas', summary: 'Create an arena',
    schemas: { responses: createArenaResponses, body: createArenaBody },
    handler: async ({ world, body }) => ({ status: 201, body: { success: true, arena: apiArena(await createArena(world.deps, body)) } }),
  }),
  route({
    ...base, id: 'admin.arenas.list', method: 'GET', path: '/api/admin/arenas', summary: 'List arenas',
    schemas: { responses: listArenasResponses, query: listArenasQuery },
    handler: async ({ world, query }) => {
      const { arenas, total } = await listArenas(world.deps, {
        limit: query.limit, offset: query.offset, sort: parseSort(query.sort, ARENA_SORT_FIELDS), ...(query.name ? { name: query.name } : {}),
      });
      return { body: { success: true, arenas: arenas.map(apiArena), pagination: pagination(total, query.limit, query.offset) } };
    },
  }),
  route({
    ...base, id: 'admin.arenas.get', method: 'GET', path: '/api/admin/arenas/{id}', summary: 'Get an arena',
    schemas: { responses: arenaResponses, params: arenaParams },
    handler: async ({ world, params }) => ({ body: { success: true, arena: apiArena(await getArena(world.deps, params.id!)) } }),
  }),
  route({
    ...base, id: 'admin.arenas.update', method: 'PUT', path: '/api/admin/arenas/{id}', summary: 'Update an arena',
    schemas: { responses: arenaResponses, params: arenaParams, body: updateArenaBody },
    handler: async ({ world, params, body }) => ({ body: { success: true, arena: apiArena(await updateArena(world.deps, params.id!, body)) } }),
  }),
  route({
    ...base, id: 'admin.arenas.delete', method: 'DELETE', path: '/api/admin/arenas/{id}', summary: 'Delete an arena',
    schemas: { responses: deleteArenaResponses, params: arenaParams },
    handler: async ({ world, params }) => {
      await deleteArena(world.deps, params.id!);
      return { body: { success: true, message: `Arena ${params.id} deleted successfully` } };
    },
  }),
];
