// Schemas of the legacy (team) endpoints: loose where upstream answered bad input with its own messages (the domain gives them).
import { handlerChecked } from '../../route.js';
import { email, nonEmpty, obj, str, uuidParams } from '../shared/request.js';

/** Registration body: checked by the domain, so missing or falsy fields get upstream's one message. */
export const registerTeamBody = obj({
  teamName: handlerChecked(nonEmpty), email: handlerChecked(email), contactPerson: handlerChecked(nonEmpty),
  walletAddress: handlerChecked({ type: 'string', pattern: '^(0x[0-9a-fA-F]{40})?$', description: 'Default (absent or empty): one is generated' }),
  metadata: { description: 'Any JSON value' },
}, ['teamName', 'email', 'contactPerson']);

/** `{teamId}` path parameter (a non-uuid is a 400, never upstream's 500). */
export const teamParams = uuidParams('teamId');

/** Deactivation body: the reason is checked by the domain (`Reason for deactivation is required`). */
export const deactivateTeamBody = obj({ reason: handlerChecked(nonEmpty) }, ['reason']);

/** Profile update: only these two fields apply; others are ignored, as upstream. */
export const profileBody = obj({ contactPerson: str, metadata: { description: 'Any JSON value' } });

/** `?competitionId=` of the legacy leaderboard (absent: the active competition; unknown ids are 404s). */
export const legacyCompetitionQuery = obj({ competitionId: str });

/** `?competitionId=` of the performance report: required (the domain's 400 names it); unknown ids are 404s. */
export const performanceQuery = obj({ competitionId: handlerChecked(nonEmpty, str) }, ['competitionId']);

/** `GET /api/price/token-info` query: the token is required (the domain's `Token address is required`). */
export const tokenInfoQuery = obj({ token: handlerChecked({ ...nonEmpty, description: 'Token address' }, str), chain: str, specificChain: str }, ['token']);
