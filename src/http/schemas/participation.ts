// Schemas of agent join/leave and the admin vote endpoint.
import { obj, uuid, uuidParams } from './common.js';

/** `{competitionId}` and `{agentId}` path params (non-uuids -> 400 naming the parameter). */
export const competitionAgentParams = uuidParams('competitionId', 'agentId');

/** Admin vote body: exactly one of userId / agentId (checked in the domain), and the agent voted for. */
export const castVoteBody = obj({ userId: uuid, agentId: uuid, votedAgentId: uuid }, ['votedAgentId']);
