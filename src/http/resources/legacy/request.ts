// Schemas of the legacy (team) endpoints: loose where upstream answered bad input with its own messages (the domain gives them).
import { handlerChecked } from '../../route.js';
import { nonEmpty, obj, str, uuidParams } from '../shared/request.js';

/** Registration body: checked by the domain, so missing or falsy fields get upstream's one message. */
export const registerTeamBody = obj({
  teamName: handlerChecked(nonEmpty), email: handlerChecked({ type: 'string', format: 'email' }), contactPerson: handlerChecked(nonEmpty),
  walletAddress: handlerChecked({ type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', description: 'Default: one is generated' }),
  metadata: { description: 'Any JSON value' },
}, ['teamName', 'email', 'contactPerson']);

/** `{teamId}` path parameter (a non-uuid is a 400, never upstream's 500). */
export const teamParams = uuidParams('teamId');

/** Deactivation body: the reason is checked by the domain (`Reason for deactivation is required`). */
export const deactivateTeamBody = obj({ reason: handlerChecked(nonEmpty) }, ['reason']);

/** Profile update: only these two fields apply; others are ignored, as upstream. */
export const profileBody = obj({ contactPerson: str, metadata: { description: 'Any JSON value' } });

/** `?competitionId=` of the legacy leaderboard and the performance report (unknown ids are 404s). */
export const legacyCompetitionQuery = obj({ competitionId: str });

/** `GET /api/price/token-info` query (the token's absence is the domain's 400). */
export const tokenInfoQuery = obj({ token: str, chain: str, specificChain: str });
