// Agent self-service participation: join and leave a competition (upstream's check order).
import type { ReadTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Competition, Principal } from '../model.js';
import { registerAgentTx } from './admin-participants.js';
import type { Tables } from '../tables.js';
import { boardKey, boardRatings } from '../rankings/rating.js';
import { versionRule } from '../versions.js';

/** Input of {@link joinCompetition} and {@link leaveCompetition}: the caller and the path ids. */
export interface ParticipationInput { principal: Principal; competitionId: string; agentId: string }

const regId = (competitionId: string, agentId: string) => `${competitionId}:${agentId}`;
const isoAt = (ms: number) => new Date(ms).toISOString();

/**
 * Checks shared by join and leave (upstream checks 2-5): an agent key is required (an admin key
 * carries no agent identity, hence 401), it must be the path's agent, then the agent and the
 * competition must exist (404s naming the id).
 */
function resolveCaller(tx: ReadTx<Tables>, input: ParticipationInput): { agent: Agent; comp: Competition } {
  const { principal, competitionId, agentId } = input;
  if (principal.kind !== 'agent') throw new DomainError('AUTH_REQUIRED');
  if (principal.agentId !== agentId) throw new DomainError('AGENT_KEY_MISMATCH');
  const agent = tx.get('agents', agentId);
  if (!agent) throw new DomainError('JOIN_AGENT_NOT_FOUND', { id: agentId });
  const comp = tx.get('competitions', competitionId);
  if (!comp) throw new DomainError('COMPETITION_ID_NOT_FOUND', { id: competitionId });
  return { agent, comp };
}

/**
 * The agent's global rank among the agents rated in competitions of `type` (DENSE_RANK by score,
 * equal scores share a rank), or null when it has no rating of that type.
 */
function globalRank(tx: ReadTx<Tables>, type: Competition['type'], agentId: string): number | null {
  const board = boardRatings(tx, boardKey({ type }));
  let rank = 0;
  let last: number | null = null;
  for (const r of board) {
    if (r.ordinal !== last) { rank += 1; last = r.ordinal; }
    if (r.agentId === agentId) return rank;
  }
  return null;
}

/**
 * Participation rules (upstream check 11, reference fidelity-2 §7.2): blocklisted agents are
 * refused; a VIP skips every remaining rule; with `allowlistOnly` an agent must be on the
 * allowlist (an empty list is a misconfiguration: upstream's text, with 400 where upstream
 * answers 500), and an allowlisted agent skips the rank rule; `minRecallRank` needs a global rank
 * of the competition's type at least that good. `minimumStake` is not simulated (compsim keeps
 * no stakes), so it always passes.
 */
function checkParticipationRules(tx: ReadTx<Tables>, comp: Competition, agentId: string): void {
  if (comp.blocklist?.includes(agentId)) throw new DomainError('JOIN_NOT_PERMITTED');
  if (comp.vips?.includes(agentId)) return;
  const allowed = (comp.allowlist ?? []).includes(agentId);
  if (comp.allowlistOnly) {
    if ((comp.allowlist ?? []).length === 0) throw new DomainError('ALLOWLIST_MISCONFIGURED');
    if (!allowed) throw new DomainError('NOT_ON_ALLOWLIST');
  }
  if (allowed || comp.minRecallRank === null) return;
  const rank = globalRank(tx, comp.type, agentId);
  if (rank === null) throw new DomainError('RANK_NOT_ESTABLISHED', { min: comp.minRecallRank });
  if (rank > comp.minRecallRank) throw new DomainError('RANK_TOO_LOW', { min: comp.minRecallRank, rank });
}

/**
 * `POST /api/competitions/{competitionId}/agents/{agentId}`: the calling agent registers itself in
 * a pending competition. Checks run in upstream's order (see reference §3.3); the join window wins
 * over the status check. Balances are not touched (they are created at start).
 *
 * Upstream quirk kept: an agent whose registration is `withdrawn` or `disqualified` passes the
 * "already active" check, but the insert does nothing, so the call answers 200 and the agent stays
 * as it was (there is no way back in).
 */
export async function joinCompetition(deps: Deps, input: ParticipationInput): Promise<void> {
  await deps.store.transact((tx) => {
    const { agent, comp } = resolveCaller(tx, input);
    const now = deps.clock.now();
    if (comp.joinStartDate !== null && now < comp.joinStartDate) throw new DomainError('JOIN_NOT_OPEN', { at: isoAt(comp.joinStartDate) });
    if (comp.joinEndDate !== null && now > comp.joinEndDate) throw new DomainError('JOIN_CLOSED', { at: isoAt(comp.joinEndDate) });
    if (agent.status === 'deleted' || agent.status === 'suspended') throw new DomainError('AGENT_NOT_ELIGIBLE');
    if ((comp.type === 'perpetual_futures' || comp.type === 'spot_live_trading') && !agent.walletAddress && versionRule(deps, 'joinWalletCheck')) {
      throw new DomainError('WALLET_REQUIRED');
    }
    if (comp.status !== 'pending') throw new DomainError('JOIN_NOT_PENDING');
    const reg = tx.get('competitionAgents', regId(comp.id, agent.id));
    if (reg?.status === 'active') throw new DomainError('ALREADY_REGISTERED');
    if (versionRule(deps, 'joinParticipationRules')) checkParticipationRules(tx, comp, agent.id);
    registerAgentTx(deps, tx, comp, agent.id, 'JOIN_ONE_AGENT_PER_USER');
  });
}

/**
 * `DELETE /api/competitions/{competitionId}/agents/{agentId}`: the calling agent withdraws. In a
 * pending or active competition the registration becomes `withdrawn` (reason names the
 * competition; the counter drops if it was active); an `ending` competition is left unchanged
 * (200); an ended one is refused. Balances, trades and snapshots are kept.
 */
export async function leaveCompetition(deps: Deps, input: ParticipationInput): Promise<void> {
  await deps.store.transact((tx) => {
    const { agent, comp } = resolveCaller(tx, input);
    const reg = tx.get('competitionAgents', regId(comp.id, agent.id));
    if (!reg) throw new DomainError('LEAVE_NOT_IN_COMPETITION');
    if (comp.status === 'ended') throw new DomainError('LEAVE_ENDED');
    if (comp.status === 'ending') return;
    // Upstream changes the row only when the status actually changes (a disqualified agent that
    // leaves becomes withdrawn, as upstream's status update does).
    if (reg.status === 'withdrawn') return;
    const now = deps.clock.now();
    const reason = comp.status === 'pending'
      ? `Withdrew from competition ${comp.name} before it started`
      : `Withdrew from competition ${comp.name}`;
    tx.put('competitionAgents', { ...reg, status: 'withdrawn', deactivationReason: reason, deactivatedAt: now, updatedAt: now });
    if (reg.status === 'active') {
      tx.put('competitions', { ...comp, registeredParticipants: Math.max(0, comp.registeredParticipants - 1), updatedAt: now });
    }
  });
}
