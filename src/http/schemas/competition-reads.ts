// Schemas and 400 message formats of the public competition reads (list, detail, participants, leaderboard, timeline, trades).
import type { JSONSchema, RouteDef } from '../route.js';
import { obj, str, uuidParams } from './common.js';

const limit = (dflt: number): JSONSchema => ({ type: 'integer', minimum: 1, maximum: 100, default: dflt });
const offset: JSONSchema = { type: 'integer', minimum: 0, default: 0 };

/** `{competitionId}` path of the competition reads. */
export const competitionParams = uuidParams('competitionId');
/** `{competitionId}/agents/{agentId}` path of the agent trade list. */
export const competitionAgentParams = uuidParams('competitionId', 'agentId');

/** `GET /api/competitions`: the spec's defaults (status `active`, sort `createdDate`). */
export const listCompetitionsQuery = obj({
  status: { type: 'string', enum: ['pending', 'active', 'ending', 'ended'], default: 'active' },
  sort: { type: 'string', default: 'createdDate' }, limit: limit(10), offset,
});

/** `GET /api/competitions/{competitionId}/agents`. */
export const participantsQuery = obj({
  filter: str, sort: { type: 'string', default: 'rank' }, limit: limit(50), offset,
  includeInactive: { type: 'boolean', default: false },
});

/** An empty `competitionId` means "none given", as upstream's `req.query.competitionId || active`. */
export const leaderboardQuery = obj({ competitionId: { type: 'string', anyOf: [{ format: 'uuid' }, { maxLength: 0 }] } });
/** `GET /api/competitions/{competitionId}/timeline`: bucket width in minutes. */
export const timelineQuery = obj({ bucket: { type: 'integer', minimum: 1, maximum: 1440, default: 30 } });
/** Both trade lists: the spec's default limit 50 (upstream's code uses 10). */
export const tradesQuery = obj({ limit: limit(50), offset });

/** A malformed id anywhere is upstream's bare `Invalid UUID`; anything else names the parameter. */
export const invalidRequest: NonNullable<RouteDef['invalid']> = (where, reason) =>
  (reason === 'invalid UUID' ? 'Invalid UUID' : `Invalid request: ${where} (${reason})`);

/** The participants list keeps upstream's `Invalid request format` and adds the parameter. */
export const invalidFormat: NonNullable<RouteDef['invalid']> = (where, reason) =>
  (reason === 'invalid UUID' ? 'Invalid UUID' : `Invalid request format: ${where} (${reason})`);
