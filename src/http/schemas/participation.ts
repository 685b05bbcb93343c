// Schema of the admin vote endpoint (join/leave reuse the competition path schemas).
import { obj, uuid } from './common.js';

/** Admin vote body: exactly one of userId / agentId (checked in the domain), and the agent voted for. */
export const castVoteBody = obj({ userId: uuid, agentId: uuid, votedAgentId: uuid }, ['votedAgentId']);
