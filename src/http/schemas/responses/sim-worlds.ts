// Response schemas of the worlds API and the cheat codes.
import { arrayOf, component, dateTime, errors, integer, nullable, number, ok, okOnly, shape, string, type Responses } from './common.js';
import { Competition, SpecificChain, StartedCompetition } from './entities.js';

const WorldInfo = component('WorldInfo', shape({
  id: string, basePath: string, url: string, seed: { type: ['number', 'string'] }, now: dateTime, idleTtlSeconds: nullable(integer),
}));

const SimBalance = component('SimBalance', shape({ tokenAddress: string, amount: number, symbol: string, specificChain: SpecificChain }));

/** Jobs run per kind by the due-jobs pass after a lifecycle cheat code. */
const ran = { type: 'object', additionalProperties: integer };

export const worldCreateResponses: Responses = {
  201: ok({ id: string, adminKey: string, basePath: string, url: string, seed: { type: ['number', 'string'] }, now: dateTime, idleTtlSeconds: nullable(integer) }),
  ...errors(401, 404, 429),
};
export const worldListResponses: Responses = { 200: ok({ worlds: arrayOf(WorldInfo) }), ...errors(401, 404) };
export const worldDeleteResponses: Responses = { 200: okOnly, ...errors(400, 401, 404) };
export const setBalancesResponses: Responses = {
  200: ok({ agentId: string, competitionId: string, balances: arrayOf(SimBalance) }), ...errors(400, 404),
};
export const simStartResponses: Responses = { 200: ok({ competition: StartedCompetition, ran }), ...errors(400, 404) };
export const simEndResponses: Responses = {
  200: ok({ competition: Competition, leaderboard: arrayOf(shape({ agentId: string, value: number, pnl: number })), ran }), ...errors(400, 404),
};
