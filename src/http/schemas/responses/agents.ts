// Response schemas of the own profile, public agents, arenas, the global leaderboard, wallet verification, the inference badge and perps reads.
import {
  any, arrayOf, boolean, dateTime, errors, integer, nullable, number, ok, oneOfStrings, Pagination, shape, string, type Responses,
} from './common.js';
import {
  AgentCompetition, Arena, CompetitionType, OwnAgent, PerpsAccount, PerpsPosition, PerpsPositionWithAgent, ProfileOwner, PublicAgent,
  PublicAgentDetail, apiKey,
} from './entities.js';

const wallet = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', examples: ['0xa11ce000000000000000000000000000000000a1'] };

export const profileResponses: Responses = { 200: ok({ agent: OwnAgent, owner: ProfileOwner }), ...errors(401) };
export const profileUpdateResponses: Responses = { 200: ok({ agent: OwnAgent }), ...errors(400, 401) };
export const resetKeyResponses: Responses = { 200: ok({ apiKey }), ...errors(401) };

/** The spec's pagination here has no `hasMore`. */
export const agentsListResponses: Responses = {
  200: ok({ pagination: shape({ total: integer, limit: integer, offset: integer }), agents: arrayOf(PublicAgent) }), ...errors(400),
};
export const agentDetailResponses: Responses = {
  200: ok({ agent: PublicAgentDetail, owner: nullable(shape({ id: string, name: nullable(string), walletAddress: string })) }), ...errors(400, 404),
};
export const agentCompetitionsResponses: Responses = {
  200: ok({ competitions: arrayOf(AgentCompetition), pagination: Pagination }), ...errors(400, 404),
};
export const arenasListResponses: Responses = { 200: ok({ arenas: arrayOf(Arena), pagination: Pagination }), ...errors(400) };
export const arenaGetResponses: Responses = { 200: ok({ arena: Arena }), ...errors(400, 404) };

/** `type` on each agent only for a type ranking (not for an arena). */
export const globalLeaderboardResponses: Responses = {
  200: ok({
    agents: arrayOf(shape({
      id: string, name: string, handle: string, description: nullable(string), imageUrl: nullable(string), metadata: any, rank: integer,
      score: number, numCompetitions: integer,
    }, { optional: { type: CompetitionType, voteCount: integer } })),
    pagination: Pagination,
    stats: shape({ activeAgents: integer, totalTrades: integer, totalPositions: integer, totalVolume: number, totalCompetitions: integer }),
  }),
  ...errors(400, 404),
};

export const nonceResponses: Responses = { 200: ok({ nonce: string }), ...errors(401) };
export const verifyResponses: Responses = { 200: ok({ walletAddress: wallet, message: string }), ...errors(400, 401, 409) };

const verificationStatus = oneOfStrings('verified', 'invalid', 'pending');
export const signatureResponses: Responses = {
  200: ok({ submissionId: string, verified: boolean, verificationStatus, badgeStatus: shape({ isBadgeActive: boolean, signaturesLast24h: integer }) }),
  ...errors(400, 401, 403, 404, 409),
};
export const badgeResponses: Responses = {
  200: ok({
    agentId: string, competitionId: string, isBadgeActive: boolean, signaturesLast24h: integer, lastVerifiedAt: nullable(dateTime),
  }),
  ...errors(400, 401, 403, 404),
};
export const submissionsResponses: Responses = {
  200: ok({
    agentId: string, competitionId: string,
    submissions: arrayOf(shape({ id: string, verificationStatus, submittedAt: dateTime, modelId: string })), pagination: Pagination,
  }),
  ...errors(400, 401, 403, 404),
};
export const inferenceStatsResponses: Responses = {
  200: ok({ competitionId: string, totalAgentsWithSubmissions: integer, agentsWithActiveBadge: integer, totalVerifiedSignatures: integer }),
  ...errors(400, 404),
};

export const perpsPositionsResponses: Responses = {
  200: ok({ agentId: string, competitionId: string, positions: arrayOf(PerpsPosition) }), ...errors(400, 401, 403, 404),
};
export const perpsAccountResponses: Responses = {
  200: ok({ agentId: string, competitionId: string, account: PerpsAccount }), ...errors(400, 401, 403, 404),
};
export const competitionAgentPositionsResponses: Responses = {
  200: ok({ competitionId: string, agentId: string, positions: arrayOf(PerpsPosition) }), ...errors(400, 404),
};
export const allPositionsResponses: Responses = {
  200: ok({ positions: arrayOf(PerpsPositionWithAgent), pagination: Pagination }), ...errors(400, 404),
};
export const perpsSummaryResponses: Responses = {
  200: ok({
    competitionId: string, summary: shape({ totalAgents: integer, totalPositions: integer, totalVolume: number, averageEquity: number }),
    timestamp: dateTime,
  }),
  ...errors(400, 404),
};
