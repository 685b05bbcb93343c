// Competition rewards an agent earned (ended competition, rewarded final rank) and their claimed flag (compsim's admin API).
import type { ReadTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Competition } from '../model.js';
import type { Tables } from '../tables.js';

/** A reward an agent earned in an ended competition. */
export interface EarnedReward { competitionId: string; agentId: string; rank: number; reward: number; claimed: boolean }

/**
 * The reward `agent` earned in `comp`, or null: the competition has ended, the agent has a row in
 * its final leaderboard, the competition's reward table pays that rank more than 0, and the agent
 * is not marked rewards-ineligible. `claimed` is false until an admin sets it.
 */
export function earnedReward(tx: ReadTx<Tables>, comp: Competition, agent: Agent): EarnedReward | null {
  if (comp.status !== 'ended' || agent.isRewardsIneligible) return null;
  const row = tx.get('leaderboards', `${comp.id}:${agent.id}`);
  if (!row) return null;
  const reward = comp.rewards.find((r) => r.rank === row.rank)?.reward ?? 0;
  if (!(reward > 0)) return null;
  const claim = tx.get('rewardClaims', `${comp.id}:${agent.id}`);
  return { competitionId: comp.id, agentId: agent.id, rank: row.rank, reward, claimed: claim?.claimed ?? false };
}

/** Every reward the agent earned, in registration order. */
export function agentRewards(tx: ReadTx<Tables>, agent: Agent): EarnedReward[] {
  const out: EarnedReward[] = [];
  for (const reg of tx.find('competitionAgents', 'agent', agent.id)) {
    const comp = tx.get('competitions', reg.competitionId);
    const r = comp ? earnedReward(tx, comp, agent) : null;
    if (r) out.push(r);
  }
  return out;
}

/** Input of {@link setRewardClaim}. */
export interface RewardClaimInput { competitionId: string; agentId: string; claimed: boolean }

/**
 * `POST /api/admin/competitions/{competitionId}/rewards/claim` (compsim only): marks the agent's
 * reward in the competition claimed (or unclaimed again). Unknown competition or agent -> 404; a
 * competition that has not ended -> 400; an agent without a reward there -> 400.
 */
export async function setRewardClaim(deps: Deps, input: RewardClaimInput): Promise<EarnedReward> {
  return deps.store.transact((tx) => {
    const comp = tx.get('competitions', input.competitionId);
    if (!comp) throw new DomainError('COMPETITION_NOT_FOUND');
    const agent = tx.get('agents', input.agentId);
    if (!agent) throw new DomainError('AGENT_NOT_FOUND');
    if (comp.status !== 'ended') throw new DomainError('REWARD_NOT_ENDED', { status: comp.status });
    const reward = earnedReward(tx, comp, agent);
    if (!reward) throw new DomainError('NO_REWARD');
    const id = `${comp.id}:${agent.id}`;
    tx.put('rewardClaims', { id, competitionId: comp.id, agentId: agent.id, claimed: input.claimed, updatedAt: deps.clock.now() });
    return { ...reward, claimed: input.claimed };
  });
}
