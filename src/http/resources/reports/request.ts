// Request schemas of the admin reads: the user and agent search.
import { SEARCH_AGENT_KEYS, SEARCH_STATUSES, SEARCH_USER_KEYS } from '../../../domain/agents/admin-reads.js';
import { handlerChecked } from '../../route.js';
import { AT_LEAST_ONE } from '../shared/request.js';

const status = { type: 'string', enum: [...SEARCH_STATUSES] } as const;
const filter = (prefix: string, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [`${prefix}.${k}`, k === 'status' ? status : { type: 'string' }]));
const filters = { ...filter('user', SEARCH_USER_KEYS), ...filter('agent', SEARCH_AGENT_KEYS) };

/**
 * `GET /api/admin/search`: `user.<field>` and `agent.<field>` filters (`user[field]` is read the
 * same), at least one of them, and `join`. Checked by the domain, with upstream's messages: unlike
 * other routes, an unknown parameter is refused.
 */
export const searchQuery = handlerChecked({
  type: 'object',
  description: 'At least one user.* or agent.* filter; `user[field]` is read as `user.field`; unknown parameters are refused.',
  properties: {
    ...filters,
    join: { type: 'string', pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])?$', description: 'true (or empty): keep only agents owned by a user found; false: no effect' },
  },
  additionalProperties: false,
  [AT_LEAST_ONE]: Object.keys(filters),
}, { type: 'object' });
