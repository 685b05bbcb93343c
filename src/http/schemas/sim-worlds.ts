// Schemas of the worlds API (/api/sim/worlds) and the cheat codes (/api/sim/balances, /api/sim/competitions/{id}/start|end).
import type { JSONSchema } from '../route.js';
import { obj, specificChain, uuidParams } from './common.js';
import { resetBody } from './sim.js';

/** Longest idle TTL a world may be given (30 days). */
export const MAX_IDLE_TTL_SECONDS = 30 * 24 * 3600;

/** `POST /api/sim/worlds`: everything optional; `options` is the list `POST /api/sim/reset` takes. */
export const createWorldBody = obj({
  seed: { type: ['number', 'string'] },
  startTime: { type: ['number', 'string'] },
  options: (resetBody.properties as Record<string, JSONSchema>).options!,
  fixture: { type: 'object' },
  idleTtlSeconds: { type: 'integer', minimum: 1, maximum: MAX_IDLE_TTL_SECONDS },
});

/** `{id}` of a world. */
export const worldParams = obj({ id: { type: 'string', minLength: 1 } }, ['id']);

/** `POST /api/sim/balances`: amounts are what the agent holds afterwards (never negative). */
export const setBalancesBody = obj({
  agentId: { type: 'string', minLength: 1 },
  competitionId: { type: 'string', minLength: 1 },
  balances: {
    type: 'array', minItems: 1, maxItems: 1000,
    items: obj({ token: { type: 'string', minLength: 1 }, specificChain, amount: { type: 'number', minimum: 0 } }, ['token', 'amount']),
  },
}, ['agentId', 'competitionId', 'balances']);

/** `{competitionId}` of the lifecycle cheat codes. */
export const competitionParams = uuidParams('competitionId');
