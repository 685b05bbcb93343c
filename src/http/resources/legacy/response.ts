// Response components and schemas of the legacy (team) generation: upper-case statuses, teamId/teamName, the team era's trades, quotes and portfolio.
import type { JSONSchema } from '../../route.js';
import { apiKey, SpecificChain } from '../shared/entities.js';
import { CurrentPerformanceReport } from '../reports/response.js';
import { any, arrayOf, boolean, component, dateTime, errors, integer, nullable, number, ok, okMessage, oneOfStrings, shape, string, type Responses } from '../shared/response.js';

const nString = nullable(string);
const chain = oneOfStrings('evm', 'svm');

/** The fields of a competition as the team era showed it (the legacy start answer adds `teamIds`). */
export const legacyCompetitionFields: Record<string, JSONSchema> = {
  id: string, name: string, description: nString, startDate: nullable(dateTime), endDate: nullable(dateTime),
  status: oneOfStrings('PENDING', 'ACTIVE', 'COMPLETED'), allowCrossChainTrading: boolean, createdAt: dateTime, updatedAt: dateTime,
};

export const LegacyCompetition = component('LegacyCompetition', shape(legacyCompetitionFields));

export const LegacyTrade = component('LegacyTrade', shape({
  id: string, timestamp: dateTime, fromToken: string, toToken: string, fromAmount: number, toAmount: number, price: number,
  success: { type: 'boolean', const: true }, teamId: string, competitionId: string, reason: string, fromChain: string, toChain: string,
  fromSpecificChain: string, toSpecificChain: string,
}, { optional: { error: { type: 'null', description: 'History lists only' } } }));

/** The legacy quote: no `success`, no `tradeAmountUsd`, no symbols. */
export const LegacyQuote = component('LegacyQuote', shape({
  fromToken: string, toToken: string, fromAmount: number, toAmount: number, exchangeRate: number, slippage: number,
  prices: shape({ fromToken: number, toToken: number }), chains: shape({ fromChain: chain, toChain: chain }),
}));

const TeamStatus = component('TeamStatus', shape({ id: string, name: string, active: boolean }, {
  optional: { deactivationReason: nString, deactivationDate: nullable(dateTime) },
}));

const registeredTeam = shape({
  id: string, name: string, email: nString, contactPerson: nString, walletAddress: string, apiKey, createdAt: dateTime,
}, { optional: { metadata: any } });

/** `team` of the account profile; an admin key shows the admin as a team (no metadata). */
const TeamProfile = component('TeamProfile', shape({
  id: string, name: string, email: nString, contactPerson: nString, createdAt: dateTime, updatedAt: dateTime,
}, { optional: { metadata: any } }));

const listedTeam = shape({
  id: string, name: string, email: nString, contactPerson: nString, active: boolean, deactivationReason: nString,
  createdAt: dateTime, updatedAt: dateTime,
}, { optional: { deactivationDate: dateTime } });

const rankedTeam = { rank: integer, teamId: string, teamName: string, portfolioValue: number };

export const registerTeamResponses: Responses = { 201: ok({ team: registeredTeam }), ...errors(400, 409) };
export const listTeamsResponses: Responses = { 200: ok({ teams: arrayOf(listedTeam) }) };
export const teamKeyResponses: Responses = { 200: ok({ team: shape({ id: string, name: string, apiKey }) }), ...errors(400, 403, 404) };
export const deleteTeamResponses: Responses = { 200: okMessage, ...errors(400, 403, 404) };
/** "Already (in)active" is a 400 that carries the team. */
export const teamStatusResponses: Responses = { 200: ok({ team: TeamStatus }), ...errors(400, 403, 404) };
/** A legacy competition gets the team era's report, any other the current one. */
export const performanceResponses: Responses = {
  200: { anyOf: [ok({ competition: LegacyCompetition, leaderboard: arrayOf(shape(rankedTeam)) }), ok(CurrentPerformanceReport)] }, ...errors(400, 404),
};

export const accountProfileResponses: Responses = { 200: ok({ team: TeamProfile }) };
export const accountProfileUpdateResponses: Responses = { 200: ok({ team: TeamProfile }), ...errors(400) };
export const accountBalancesResponses: Responses = {
  200: ok({ teamId: string, balances: arrayOf(shape({ token: string, amount: number, chain, specificChain: SpecificChain })) }),
};
export const accountPortfolioResponses: Responses = {
  200: ok({
    teamId: string, totalValue: number,
    tokens: arrayOf(shape({ token: string, amount: number, price: number, value: number, chain }, { optional: { specificChain: SpecificChain } })),
    source: oneOfStrings('snapshot', 'live-calculation'),
  }, { optional: { snapshotTime: dateTime } }),
};
export const accountTradesResponses: Responses = { 200: ok({ teamId: string, trades: arrayOf(LegacyTrade) }), ...errors(400) };
export const accountResetKeyResponses: Responses = { 200: ok({ apiKey }), ...errors(401) };

export const legacyLeaderboardResponses: Responses = {
  200: ok({
    competition: LegacyCompetition,
    leaderboard: arrayOf(shape({ ...rankedTeam, active: { type: 'boolean', const: true }, deactivationReason: { type: 'null' } })),
    inactiveTeams: arrayOf(shape({ teamId: string, teamName: string, portfolioValue: number, active: { type: 'boolean', const: false }, deactivationReason: nString })),
    hasInactiveTeams: boolean,
  }),
  ...errors(400, 403, 404),
};
export const legacyStatusResponses: Responses = {
  200: ok({
    active: boolean,
    competition: {
      anyOf: [{ type: 'null' }, LegacyCompetition, shape({ id: string, name: string, status: oneOfStrings('PENDING', 'ACTIVE', 'COMPLETED'), startDate: nullable(dateTime) })],
    },
  }, { optional: { participating: boolean, message: string } }),
};
export const legacyRulesResponses: Responses = {
  200: ok({
    rules: shape({
      tradingRules: arrayOf(string), rateLimits: arrayOf(string),
      availableChains: shape({ svm: { type: 'boolean', const: true }, evm: arrayOf(SpecificChain) }),
      slippageFormula: string, portfolioSnapshots: shape({ interval: string }),
    }),
  }),
  ...errors(400, 403),
};
export const legacyUpcomingResponses: Responses = { 200: ok({ competitions: arrayOf(LegacyCompetition) }) };
export const tokenInfoResponses: Responses = {
  200: shape({ success: boolean, price: nullable(number), token: string, chain, specificChain: nullable(SpecificChain) }),
  ...errors(400),
};
export const rootHealthResponses: Responses = { 200: shape({ status: { type: 'string', const: 'ok' }, timestamp: dateTime, version: string }) };
