// Response schemas of the verified-inference badge routes.
import { arrayOf, boolean, dateTime, errors, integer, nullable, ok, oneOfStrings, Pagination, shape, string, type Responses } from '../shared/response.js';

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
