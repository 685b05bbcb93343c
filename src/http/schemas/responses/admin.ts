// Response schemas of the admin routes: setup, users and agents, competitions and participation, arenas, rewards, perps control, spot-live swaps and scripts.
import {
  arrayOf, dateTime, errors, nullable, number, ok, okMessage, Pagination, shape, string, type Responses,
} from './common.js';
import {
  Admin, AdminAgent, Arena, Competition, CompetitionStatus, PerpsPosition, PortfolioSnapshot, Reward, ScriptAction, StartedCompetition,
  Trade, User, apiKey,
} from './entities.js';
import { LegacyCompetition, legacyCompetitionFields } from './legacy.js';

const nString = nullable(string);
const shortAgent = { id: string, name: string, handle: string };
const shortCompetition = { id: string, name: string };

export const setupResponses: Responses = { 201: ok({ message: string, admin: Admin }), ...errors(400, 403) };
/** A failing first agent does not undo the user: 201 with `agentError`. */
export const createUserResponses: Responses = {
  201: ok({ user: User }, { optional: { agent: AdminAgent, agentError: string } }), ...errors(400, 409),
};
export const createAgentResponses: Responses = { 201: ok({ agent: AdminAgent }), ...errors(400, 404, 409) };
export const listAgentsResponses: Responses = { 200: ok({ agents: arrayOf(AdminAgent), pagination: Pagination }), ...errors(400) };
export const agentResponses: Responses = { 200: ok({ agent: AdminAgent }), ...errors(400, 404) };
export const updateAgentResponses: Responses = { 200: ok({ agent: AdminAgent }), ...errors(400, 404, 409) };
export const deleteAgentResponses: Responses = { 200: okMessage, ...errors(400, 404) };
export const agentKeyResponses: Responses = { 200: ok({ agent: shape({ id: string, name: string, apiKey }) }), ...errors(400, 404) };
/** "Already inactive" is a 400 that carries the short agent. */
export const deactivateAgentResponses: Responses = {
  200: ok({ agent: shape({ id: string, name: string, status: string, deactivationReason: nString, deactivationDate: nullable(dateTime) }) }),
  ...errors(400, 404),
};
export const reactivateAgentResponses: Responses = { 200: ok({ agent: shape({ id: string, name: string, status: string }) }), ...errors(400, 404) };

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

export const createArenaResponses: Responses = { 201: ok({ arena: Arena }), ...errors(400, 409) };
export const listArenasResponses: Responses = { 200: ok({ arenas: arrayOf(Arena), pagination: Pagination }), ...errors(400) };
export const arenaResponses: Responses = { 200: ok({ arena: Arena }), ...errors(400, 404) };
export const deleteArenaResponses: Responses = { 200: okMessage, ...errors(400, 404, 409) };

export const rewardClaimResponses: Responses = { 200: ok({ reward: Reward }), ...errors(400, 404) };
export const perpsControlResponses: Responses = { 200: ok({ position: PerpsPosition }), ...errors(400, 403, 404) };
export const swapResponses: Responses = { 200: ok({ trade: Trade }), ...errors(400, 403, 404, 409) };
export const scriptResponses: Responses = { 200: ok({ actions: arrayOf(ScriptAction) }), ...errors(400, 404) };
