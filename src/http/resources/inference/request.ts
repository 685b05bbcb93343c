// Request schemas and 400 message families of the verified-inference badge routes.
import type { RouteDef } from '../../route.js';
import { limit, nonEmpty, obj, offset, uuid, uuidParams } from '../shared/request.js';

export const invalidQuery: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid query parameters: ${where} (${reason})`;
export const invalidCompetitionId: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid competition ID: ${where} (${reason})`;

/** `POST .../signatures`: uuid, non-empty strings, 65 bytes of hex with an optional `0x`. */
export const signatureBody = obj({
  competitionId: uuid, requestPrompt: nonEmpty, responseModel: nonEmpty, responseOutput: nonEmpty,
  signature: { type: 'string', pattern: '^(0x)?[a-fA-F0-9]{130}$' },
}, ['competitionId', 'requestPrompt', 'responseModel', 'responseOutput', 'signature']);

/** `?competitionId=` of the badge. */
export const badgeQuery = obj({ competitionId: uuid }, ['competitionId']);
/** `?competitionId=&limit=&offset=&status=` of the submissions list. */
export const submissionsQuery = obj({
  competitionId: uuid, limit: limit(50), offset, status: { type: 'string', enum: ['verified', 'invalid', 'pending'] },
}, ['competitionId']);
/** `{competitionId}` of the public stats. */
export const competitionIdParams = uuidParams('competitionId');
