// Request schemas of arenas: admin create/update/list and the public reads.
import type { JSONSchema } from '../../route.js';
import { limit, nonEmpty, obj, offset, pagingQuery, str, strList } from '../shared/request.js';

const sort: JSONSchema = { type: 'string', default: '', description: 'Comma list of up to 3 fields, `-` for descending' };

/** `GET /api/arenas`: the spec's default limit 20. */
export const publicArenasQuery = obj({ name: str, sort, limit: limit(20), offset });
/** `{id}` of `GET /api/arenas/{id}`. */
export const publicArenaParams = obj({ id: nonEmpty }, ['id']);

export const arenaParams = obj({ id: nonEmpty }, ['id']);
export const createArenaBody = obj({
  id: { type: 'string', minLength: 1, maxLength: 100 }, name: nonEmpty, createdBy: str, category: nonEmpty, skill: nonEmpty,
  venues: strList, chains: strList,
}, ['id', 'name', 'category', 'skill']);
export const updateArenaBody = obj({ name: nonEmpty, category: nonEmpty, skill: nonEmpty, venues: strList, chains: strList });
export const listArenasQuery = pagingQuery(10, '', { name: str });
