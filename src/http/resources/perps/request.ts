// Request schemas of perpetual futures: agent and public position reads, admin open/close.
import { handlerChecked } from '../../route.js';
import { limit, nonEmpty, obj, offset, str, uuid } from '../shared/request.js';

/** `?competitionId=` of the agent perps routes: a competition's id (the domain answers anything else: unknown -> 404). */
export const perpsQuery = obj({ competitionId: handlerChecked(uuid, str) });
/** `?status=&limit=&offset=` of the all-positions list (upstream's generic paging: default limit 10). */
export const allPositionsQuery = obj({ status: { type: 'string', default: 'Open' }, limit: limit(10), offset });

/** Admin open body. */
export const openPositionBody = obj({
  agentId: uuid, asset: nonEmpty, side: { type: 'string', enum: ['long', 'short'] },
  sizeUsd: { type: 'number', exclusiveMinimum: 0 }, leverage: { type: 'number', minimum: 1, maximum: 50 },
}, ['agentId', 'asset', 'side', 'sizeUsd', 'leverage']);
/** `{competitionId}/perps/positions/{positionId}` of the admin close. */
export const positionParams = obj({ competitionId: uuid, positionId: nonEmpty }, ['competitionId', 'positionId']);
