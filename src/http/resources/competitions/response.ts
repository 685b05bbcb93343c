// Response schemas of the competition reads, join/leave and the admin vote (current generation).
import { LegacyCompetition, legacyCompetitionFields } from '../legacy/response.js';
import { Competition, CompetitionDetail, CompetitionRules, CompetitionStatus, CompetitionTrade, ListedCompetition, Participant, PortfolioSnapshot, Reward, StartedCompetition, TimelineSeries, Trade } from '../shared/entities.js';
import { arrayOf, boolean, component, dateTime, errors, integer, nullable, number, ok, okMessage, Pagination, shape, string, type Responses } from '../shared/response.js';

const shortAgent = { id: string, name: string, handle: string };
const shortCompetition = { id: string, name: string };

/** A legacy-style body (`teamIds`, `allowCrossChainTrading`) is answered with the legacy competition object. */
export const createCompetitionResponses: Responses = {
  201: ok({ competition: { anyOf: [Competition, LegacyCompetition] } }), ...errors(400, 404),
};
export const startCompetitionResponses: Responses = {
  200: ok({ competition: { anyOf: [StartedCompetition, shape({ ...legacyCompetitionFields, teamIds: arrayOf(string) })] } }),
  ...errors(400, 404, 409),
};
/** A competition marked legacy answers in the team era's shape. */
export const endCompetitionResponses: Responses = {
  200: {
    anyOf: [
      ok({ competition: Competition, leaderboard: arrayOf(shape({ agentId: string, value: number, pnl: number })) }),
      ok({ competition: LegacyCompetition, leaderboard: arrayOf(shape({ teamId: string, value: number })) }),
    ],
  },
  ...errors(400, 404),
};
export const updateCompetitionResponses: Responses = { 200: ok({ competition: Competition }), ...errors(400, 404) };
/** A competition marked legacy answers the team era's snapshots (`teamId`, `valuesByToken`, no `id`). */
const LegacySnapshot = shape({
  teamId: string, competitionId: string, timestamp: dateTime, totalValue: number,
  valuesByToken: { type: 'object', additionalProperties: shape({ amount: number, valueUsd: number }) },
});
export const snapshotsResponses: Responses = {
  200: { anyOf: [ok({ snapshots: arrayOf(PortfolioSnapshot) }), ok({ snapshots: arrayOf(LegacySnapshot) })] }, ...errors(400, 404),
};
export const addAgentResponses: Responses = {
  200: ok({
    message: string, agent: shape({ ...shortAgent, ownerId: string }), competition: shape({ ...shortCompetition, status: CompetitionStatus }),
  }),
  ...errors(400, 404, 409),
};
export const removeAgentResponses: Responses = {
  200: ok({ message: string, agent: shape(shortAgent), competition: shape(shortCompetition), reason: string }), ...errors(400, 404),
};
export const reactivateInCompetitionResponses: Responses = {
  200: ok({ message: string, agent: shape(shortAgent), competition: shape(shortCompetition) }), ...errors(400, 404),
};

export const rewardClaimResponses: Responses = { 200: ok({ reward: Reward }), ...errors(400, 404) };

const basicCompetition = { id: string, name: string, status: CompetitionStatus, externalUrl: nullable(string), imageUrl: nullable(string) };

const leaderboardRow = shape({
  rank: integer, agentId: string, agentName: string, agentHandle: string, portfolioValue: number, active: { type: 'boolean', const: true },
  deactivationReason: { type: 'null' }, calmarRatio: nullable(number), simpleReturn: nullable(number), maxDrawdown: nullable(number),
  hasRiskMetrics: boolean,
}, { description: 'The risk fields are filled for perps agents with at least two equity snapshots.' });
const inactiveRow = shape({
  agentId: string, agentName: string, agentHandle: string, portfolioValue: number, active: { type: 'boolean', const: false }, deactivationReason: nullable(string),
});

const CompetitionLeaderboard = component('CompetitionLeaderboard', ok({
  competition: Competition, leaderboard: arrayOf(leaderboardRow), inactiveAgents: arrayOf(inactiveRow), hasInactiveAgents: boolean,
}));

/** The four answers of the older era's status: none, admin, participant, anonymous or outsider. */
const CompetitionStatusAnswer = component('CompetitionStatusAnswer', ok({
  active: boolean,
  competition: {
    anyOf: [{ type: 'null' }, Competition, shape(basicCompetition, { optional: { startDate: nullable(dateTime) } })],
  },
}, { optional: { message: string, isAdmin: boolean, participating: boolean } }));

const rulesAnswer = ok({ competition: Competition, rules: CompetitionRules });

/** Trade list answers carry `total` beside the pagination. */
const tradesOf = (item: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ok({ trades: arrayOf(item), ...extra, total: integer, pagination: Pagination });

export const competitionsListResponses: Responses = { 200: ok({ competitions: arrayOf(ListedCompetition), pagination: Pagination }), ...errors(400) };
export const competitionsLeaderboardResponses: Responses = { 200: CompetitionLeaderboard, ...errors(400, 401, 403, 404) };
export const competitionsStatusResponses: Responses = { 200: CompetitionStatusAnswer };
export const competitionsUpcomingResponses: Responses = { 200: ok({ competitions: arrayOf(Competition) }) };
export const competitionsActiveRulesResponses: Responses = { 200: rulesAnswer, ...errors(401, 403, 404) };
export const competitionsGetResponses: Responses = { 200: ok({ competition: CompetitionDetail }), ...errors(400, 404) };
export const competitionsAgentsResponses: Responses = {
  200: ok({
    competitionId: string, registeredParticipants: integer, maxParticipants: nullable(integer), agents: arrayOf(Participant), pagination: Pagination,
  }),
  ...errors(400, 404),
};
export const competitionsRulesResponses: Responses = { 200: rulesAnswer, ...errors(400, 404) };
export const competitionsTimelineResponses: Responses = {
  200: ok({ competitionId: string, timeline: arrayOf(TimelineSeries) }), ...errors(400, 404),
};
export const competitionsTradesResponses: Responses = { 200: tradesOf(CompetitionTrade, { competition: Competition }), ...errors(400, 404) };
export const competitionsAgentTradesResponses: Responses = { 200: tradesOf(Trade), ...errors(400, 404) };
/** Join: 409 when the owner already has an agent in the competition. */
export const joinResponses: Responses = { 200: okMessage, ...errors(400, 401, 403, 404, 409) };
export const leaveResponses: Responses = { 200: okMessage, ...errors(400, 401, 403, 404) };
export const votesCastResponses: Responses = {
  201: ok({ message: string, vote: shape({ id: string, userId: string, agentId: string, competitionId: string, createdAt: dateTime }) }),
  ...errors(400, 404, 409),
};
