// Response schemas of perpetual futures: positions, accounts, summaries, admin open/close.
import { PerpsAccount, PerpsPosition, PerpsPositionWithAgent } from '../shared/entities.js';
import { arrayOf, dateTime, errors, integer, number, ok, Pagination, shape, string, type Responses } from '../shared/response.js';

export const perpsControlResponses: Responses = { 200: ok({ position: PerpsPosition }), ...errors(400, 403, 404) };

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
