// Admin reward claims (compsim only): mark an agent's earned reward of an ended competition claimed or unclaimed.
import { setRewardClaim } from '../../../domain/competitions/rewards.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { rewardClaimBody, rewardClaimParams } from './request.js';
import { apiReward } from './serialize.js';
import { rewardClaimResponses } from './response.js';

/** Admin reward routes. */
export const ADMIN_REWARD_ROUTES: RouteDef[] = [
  route({
    id: 'admin.rewards.claim', method: 'POST', path: '/api/admin/competitions/{competitionId}/rewards/claim', auth: 'admin',
    generation: 'current', tag: 'admin', summary: "Set the claimed flag of an agent's reward (compsim only)",
    schemas: { responses: rewardClaimResponses, params: rewardClaimParams, body: rewardClaimBody },
    handler: async ({ world, params, body }) => {
      const reward = await setRewardClaim(world.deps, { competitionId: params.competitionId!, agentId: body.agentId, claimed: body.claimed });
      return { body: { success: true, reward: apiReward(reward) } };
    },
  }),
];
