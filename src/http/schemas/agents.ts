// Schemas and 400 message formats of the own-profile, public agent, public arena, global leaderboard and reward-claim endpoints.
import type { JSONSchema, RouteDef } from '../route.js';
import { bool, nonEmpty, obj, str, uuid, uuidParams } from './common.js';

const limit = (dflt: number): JSONSchema => ({ type: 'integer', minimum: 1, maximum: 100, default: dflt });
const offset: JSONSchema = { type: 'integer', minimum: 0, default: 0 };
const sort: JSONSchema = { type: 'string', default: '', description: 'Comma list of up to 3 fields, `-` for descending' };

/**
 * `PUT /api/agent/profile`: documented here, checked in the domain (upstream's strict schema and
 * its messages: unknown keys, description format and length, URL format).
 */
export const profileBody = obj({
  description: { description: 'New description (string, trimmed, at least 1 character)' },
  imageUrl: { description: 'New image URL (any URL the WHATWG parser accepts)' },
});

/** `GET /api/agents`. */
export const agentsQuery = obj({ filter: { type: 'string', maxLength: 100 }, sort, limit: limit(10), offset });

/** `{agentId}` of the public agent routes. */
export const agentParams = uuidParams('agentId');

/** `GET /api/agents/{agentId}/competitions`: `claimed` arrives as the string `true`/`false`. */
export const agentCompetitionsQuery = obj({
  status: { type: 'string', enum: ['pending', 'active', 'ending', 'ended'] }, claimed: bool, sort, limit: limit(10), offset,
});

/** `GET /api/leaderboard`. */
export const globalLeaderboardQuery = obj({
  type: { type: 'string', enum: ['trading', 'perpetual_futures', 'spot_live_trading', 'sports_prediction'], default: 'trading' },
  arenaId: str, limit: limit(50), offset,
});

/** `GET /api/arenas`: the spec's default limit 20. */
export const publicArenasQuery = obj({ name: str, sort, limit: limit(20), offset });
/** `{id}` of `GET /api/arenas/{id}`. */
export const publicArenaParams = obj({ id: nonEmpty }, ['id']);

/** `{competitionId}` of `POST /api/admin/competitions/{competitionId}/rewards/claim` (compsim only). */
export const rewardClaimParams = uuidParams('competitionId');
/** Body of the reward claim: the agent, and the flag to set (default true). */
export const rewardClaimBody = obj({ agentId: uuid, claimed: { type: 'boolean', default: true } }, ['agentId']);

/** Agent detail: upstream's `Invalid Agent ID` for a malformed id. */
export const invalidAgentId: NonNullable<RouteDef['invalid']> = (where, reason) =>
  (reason === 'invalid UUID' ? 'Invalid Agent ID' : `Invalid request: ${where} (${reason})`);

/**
 * Agent competitions: upstream's three 400 families, each naming the parameter: `Invalid UUID`,
 * `Invalid filter page params: <status|claimed> (...)`, `Invalid pagination parameters: <param> (...)`.
 */
export const invalidAgentCompetitions: NonNullable<RouteDef['invalid']> = (where, reason) => {
  if (reason === 'invalid UUID') return 'Invalid UUID';
  if (where === 'status' || where === 'claimed') return `Invalid filter page params: ${where} (${reason})`;
  return `Invalid pagination parameters: ${where} (${reason})`;
};

/** Global leaderboard: upstream's `Invalid request format`, naming the parameter. */
export const invalidFormat: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid request format: ${where} (${reason})`;
