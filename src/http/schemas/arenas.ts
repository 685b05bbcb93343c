// Schemas of the admin arena endpoints.
import { nonEmpty, obj, pagingQuery, str, strList } from './common.js';

export const arenaParams = obj({ id: nonEmpty }, ['id']);
export const createArenaBody = obj({
  id: { type: 'string', minLength: 1, maxLength: 100 }, name: nonEmpty, createdBy: str, category: nonEmpty, skill: nonEmpty,
  venues: strList, chains: strList,
}, ['id', 'name', 'category', 'skill']);
export const updateArenaBody = obj({ name: nonEmpty, category: nonEmpty, skill: nonEmpty, venues: strList, chains: strList });
export const listArenasQuery = pagingQuery(10, '', { name: str });
