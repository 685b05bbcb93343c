// Response schemas of arenas: admin create/update/list/delete and the public reads.
import { Arena } from '../shared/entities.js';
import { arrayOf, errors, ok, okMessage, Pagination, type Responses } from '../shared/response.js';

export const createArenaResponses: Responses = { 201: ok({ arena: Arena }), ...errors(400, 409) };
export const listArenasResponses: Responses = { 200: ok({ arenas: arrayOf(Arena), pagination: Pagination }), ...errors(400) };
export const arenaResponses: Responses = { 200: ok({ arena: Arena }), ...errors(400, 404) };
export const deleteArenaResponses: Responses = { 200: okMessage, ...errors(400, 404, 409) };
export const arenasListResponses: Responses = { 200: ok({ arenas: arrayOf(Arena), pagination: Pagination }), ...errors(400) };
export const arenaGetResponses: Responses = { 200: ok({ arena: Arena }), ...errors(400, 404) };
