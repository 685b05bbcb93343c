// Agent join/leave of competitions and the admin vote endpoint.
import { joinCompetition, leaveCompetition } from '../../../domain/competitions/join-leave.js';
import { castVote } from '../../../domain/competitions/votes.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { uuidParams } from '../shared/request.js';
import { competitionAgentParams, invalidRequest } from './request.js';
import { castVoteBody } from './request.js';
import { iso } from '../shared/time.js';
import { joinResponses, leaveResponses, votesCastResponses } from './response.js';

const base = { generation: 'current', tag: 'competitions' } as const;
// Malformed path ids get upstream's bare `Invalid UUID`, like every other /api/competitions/{id} route.
// An agent joins or leaves itself only: an admin key passes the key check, then gets 401 `Authentication required`.
const joinLeave = { ...base, invalid: invalidRequest, auth: 'key', agentOnly: true } as const;

/** Participation routes. */
export const PARTICIPATION_ROUTES: RouteDef[] = [
  route({
    ...joinLeave, id: 'competitions.agents.join', method: 'POST', path: '/api/competitions/{competitionId}/agents/{agentId}',
    summary: 'Join a pending competition (the calling agent only)',
    schemas: { params: competitionAgentParams, responses: joinResponses },
    handler: async ({ world, principal, params }) => {
      await joinCompetition(world.deps, { principal, competitionId: params.competitionId!, agentId: params.agentId! });
      return { body: { success: true, message: 'Successfully joined competition' } };
    },
  }),
  route({
    ...joinLeave, id: 'competitions.agents.leave', method: 'DELETE', path: '/api/competitions/{competitionId}/agents/{agentId}',
    summary: 'Leave a competition (the calling agent only)',
    schemas: { params: competitionAgentParams, responses: leaveResponses },
    handler: async ({ world, principal, params }) => {
      await leaveCompetition(world.deps, { principal, competitionId: params.competitionId!, agentId: params.agentId! });
      return { body: { success: true, message: 'Successfully left competition' } };
    },
  }),
  route({
    ...base, tag: 'admin', id: 'admin.competitions.votes.cast', method: 'POST', path: '/api/admin/competitions/{competitionId}/votes', auth: 'admin',
    summary: "Cast a user's vote (or an agent owner's) for an agent", schemas: { responses: votesCastResponses, params: uuidParams('competitionId'), body: castVoteBody },
    handler: async ({ world, params, body }) => {
      const v = await castVote(world.deps, {
        competitionId: params.competitionId!, votedAgentId: body.votedAgentId, userId: body.userId, agentId: body.agentId,
      });
      return {
        status: 201,
        body: {
          success: true, message: 'Vote cast successfully',
          vote: { id: v.id, userId: v.userId, agentId: v.agentId, competitionId: v.competitionId, createdAt: iso(v.createdAt) },
        },
      };
    },
  }),
];
