// Every status a route can answer: its own `schemas.responses` plus the statuses the HTTP edge adds (auth, validation, body limits, rate limits, 500).
import type { JSONSchema, RouteDef } from './route.js';
import { COMPONENTS, ErrorResponse, type Responses } from './resources/shared/response.js';
// Side-effect imports: every component is registered before COMPONENTS is read.
import './resources/shared/entities.js';
import './resources/legacy/response.js';
import './resources/trading/response.js';
import './resources/competitions/response.js';
import './resources/agents/response.js';
import './resources/arenas/response.js';
import './resources/perps/response.js';
import './resources/inference/response.js';
import './resources/health/response.js';
import './resources/sim/response.js';

export { COMPONENTS, ErrorResponse, type Responses };

/** Why a status can happen, per status (OpenAPI response descriptions). */
export const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad request: validation failed (the message names the field), malformed JSON, a `__proto__` key anywhere in the body (`Invalid request body: a "__proto__" key is not allowed (at any depth)`), or a rule refused it',
  401: 'Authentication required, or the key is invalid (an admin key where an agent is needed)',
  403: 'Forbidden: not allowed for this caller (inactive admin, deactivated team, not a participant, ...)',
  404: 'Not found',
  409: 'Conflict with an existing entity',
  413: 'Request body too large (1 MB)',
  429: 'Rate limit exceeded (upstream limits when enabled, or an injected rateLimit fault); see Retry-After',
  500: 'Internal Server Error (always a compsim bug)',
};

/**
 * The statuses the edge adds to a route's own list: 401/403 for keyed and admin routes (403 also on
 * optional-auth routes, for a deactivated team's key), 400 for routes that validate input or take a
 * body, 413 for bodies, 429 outside `/api/sim/*`, and 500 everywhere.
 */
export function edgeStatuses(def: RouteDef): number[] {
  const out = new Set<number>();
  if (def.auth === 'key' || def.auth === 'admin') out.add(401).add(403);
  if (def.keys === 'server') out.add(401);
  if (def.auth === 'optional') out.add(403);
  const s = def.schemas ?? {};
  if (s.params || s.query || s.body) out.add(400);
  if (def.method !== 'GET') out.add(400).add(413);
  if (def.generation !== 'sim') out.add(429);
  out.add(500);
  return [...out];
}

/** Every documented answer of a route, by status (ascending): its own responses plus {@link edgeStatuses}, all errors as the envelope. */
export function documentedResponses(def: RouteDef): Map<number, JSONSchema> {
  const all = new Map<number, JSONSchema>();
  for (const [status, schema] of Object.entries(def.schemas?.responses ?? {})) all.set(Number(status), schema);
  for (const status of edgeStatuses(def)) if (!all.has(status)) all.set(status, ErrorResponse);
  return new Map([...all].sort((a, b) => a[0] - b[0]));
}
