// Schemas of the legacy (team) endpoints: loose where upstream answered bad input with its own messages (the domain gives them).
import { obj, str, uuidParams } from '../shared/request.js';

/** Registration body: any types, so missing or falsy fields get upstream's one message from the domain. */
export const registerTeamBody = obj({ teamName: {}, email: {}, contactPerson: {}, walletAddress: {}, metadata: {} });

/** `{teamId}` path parameter (a non-uuid is a 400, never upstream's 500). */
export const teamParams = uuidParams('teamId');

/** Deactivation body: the reason is checked by the domain (`Reason for deactivation is required`). */
export const deactivateTeamBody = obj({ reason: {} });

/** Profile update: only these two fields apply; others are ignored, as upstream. */
export const profileBody = obj({ contactPerson: str, metadata: {} });

/** `?competitionId=` of the legacy leaderboard and the performance report (unknown ids are 404s). */
export const legacyCompetitionQuery = obj({ competitionId: str });

/** `GET /api/price/token-info` query (the token's absence is the domain's 400). */
export const tokenInfoQuery = obj({ token: str, chain: str, specificChain: str });
