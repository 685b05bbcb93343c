// Request schemas of arenas: admin create/update/list and the public reads.
import { ARENA_SORT_FIELDS } from '../../../domain/competitions/arenas.js';
import { handlerChecked } from '../../route.js';
import { limit, nonEmpty, obj, offset, pagingQuery, sortParam, str, strList } from '../shared/request.js';

/** `GET /api/arenas`: the spec's default limit 20. */
export const publicArenasQuery = obj({ name: str, sort: sortParam(ARENA_SORT_FIELDS, '', true), limit: limit(20), offset });
/** `{id}` of `GET /api/arenas/{id}`. */
export const publicArenaParams = obj({ id: nonEmpty }, ['id']);

export const arenaParams = obj({ id: nonEmpty }, ['id']);
export const createArenaBody = obj({
  // The domain checks the form (upstream's kebab-case message).
  id: handlerChecked({ type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z0-9-]+$', description: 'Lower-case letters, digits and dashes' }, { type: 'string', minLength: 1, maxLength: 100 }),
  name: nonEmpty, createdBy: str, category: nonEmpty, skill: nonEmpty,
  venues: strList, chains: strList,
}, ['id', 'name', 'category', 'skill']);
export const updateArenaBody = obj({ name: nonEmpty, category: nonEmpty, skill: nonEmpty, venues: strList, chains: strList });
export const listArenasQuery = pagingQuery(10, ARENA_SORT_FIELDS, '', { name: str });
