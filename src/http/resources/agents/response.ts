// Response schemas of agents: admin setup, users and agents, own profile, public agent reads, wallet verification, the global leaderboard.
import { Admin, AdminAgent, AgentCompetition, apiKey, CompetitionType, OwnAgent, ProfileOwner, PublicAgent, PublicAgentDetail, User } from '../shared/entities.js';
import { any, arrayOf, dateTime, errors, integer, nullable, number, ok, okMessage, Pagination, shape, string, type Responses } from '../shared/response.js';

const nString = nullable(string);

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

const wallet = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', examples: ['0xa11ce000000000000000000000000000000000a1'] };

/** 404: the agent's owner is missing (a loaded world document may lack it). */
export const profileResponses: Responses = { 200: ok({ agent: OwnAgent, owner: ProfileOwner }), ...errors(401, 404) };
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
