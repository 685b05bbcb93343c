// Admin participation rules: register, add (sandbox reset + snapshot), remove (disqualify), reactivate.
import type { ReadTx, WriteTx } from '../../ports/store.js';
import { resetBalancesTx } from '../trading/balances.js';
import { requireCompetition } from './create.js';
import { versionRule } from '../versions.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Competition, CompetitionAgent, PortfolioSnapshot } from '../model.js';
import { takeSnapshotsTx } from '../trading/portfolio.js';
import type { Tables } from '../tables.js';
import { capList, SNAPSHOT_LIST_LIMIT } from '../data/limits.js';
import { pairKey } from '../data/keys.js';

const regId = (competitionId: string, agentId: string) => `${competitionId}:${agentId}`;

/**
 * Registers an agent as active (idempotent for an existing record). Enforces the participant limit
 * and one agent per owner (409s). Returns the competition with its updated counter.
 * `sameOwnerCode` picks the wording of the one-agent-per-owner 409: admin routes and the agent
 * join endpoint phrase the same rule differently upstream.
 */
export function registerAgentTx(
  deps: Deps, tx: WriteTx<Tables>, comp: Competition, agentId: string,
  sameOwnerCode: 'ONE_AGENT_PER_USER' | 'JOIN_ONE_AGENT_PER_USER' = 'ONE_AGENT_PER_USER',
): Competition {
  if (tx.get('competitionAgents', regId(comp.id, agentId))) return comp;
  if (comp.maxParticipants !== null && comp.registeredParticipants >= comp.maxParticipants) {
    throw new DomainError('PARTICIPANT_LIMIT', { max: comp.maxParticipants });
  }
  const agent = tx.get('agents', agentId);
  if (!agent) throw new DomainError('AGENT_NOT_FOUND');
  // The owner's other agents (the owner index), not every registration: a start with N agents stays O(N).
  for (const other of tx.find('agents', 'owner', agent.ownerId)) {
    if (tx.get('competitionAgents', regId(comp.id, other.id))) throw new DomainError(sameOwnerCode);
  }
  const now = deps.clock.now();
  tx.insert('competitionAgents', {
    id: regId(comp.id, agentId), competitionId: comp.id, agentId, status: 'active', deactivationReason: null,
    deactivatedAt: null, createdAt: now, updatedAt: now,
  });
  return tx.put('competitions', { ...comp, registeredParticipants: comp.registeredParticipants + 1, updatedAt: now });
}

function requireAgent(tx: ReadTx<Tables>, id: string): Agent {
  const agent = tx.get('agents', id);
  if (!agent) throw new DomainError('AGENT_NOT_FOUND');
  return agent;
}

/**
 * `POST /api/admin/competitions/{cid}/agents/{aid}` with upstream's check order (reference
 * fidelity-2 §1.2). In sandbox mode, whatever the status (pending included), the agent's balances
 * in this competition are reset first (paper trading: the competition's starting list; other
 * types: none), and after the registration a snapshot is taken at the current time (skipped past
 * the end date or without balance rows, as any snapshot).
 */
export async function addAgentToCompetition(deps: Deps, competitionId: string, agentId: string): Promise<{ agent: Agent; competition: Competition }> {
  return deps.store.transact((tx) => {
    let comp = requireCompetition(tx, competitionId);
    const agent = requireAgent(tx, agentId);
    if (!(tx.get('users', agent.ownerId))) throw new DomainError('AGENT_OWNER_NOT_FOUND');
    const needsWallet = comp.type === 'perpetual_futures' || comp.type === 'spot_live_trading';
    if (needsWallet && !agent.walletAddress && versionRule(deps, 'adminAddWalletCheck')) throw new DomainError('WALLET_REQUIRED');
    if (tx.get('competitionAgents', regId(comp.id, agentId))) throw new DomainError('ALREADY_PARTICIPATING');
    if (comp.status === 'ended') throw new DomainError('ADD_TO_ENDED');
    if (comp.status === 'active' && !comp.sandboxMode) throw new DomainError('ADD_TO_ACTIVE');
    const status = comp.status;
    if (comp.sandboxMode) {
      if (comp.type === 'trading') {
        const list = versionRule(deps, 'sandboxAddBalances') === 'default' ? deps.config.defaultInitialBalances : comp.initialBalances;
        resetBalancesTx(deps, tx, { ...comp, initialBalances: list }, agentId);
      }
      else for (const b of tx.find('balances', 'agentCompetition', pairKey(agentId, comp.id))) tx.delete('balances', b.id);
    }
    comp = registerAgentTx(deps, tx, comp, agentId);
    if (comp.sandboxMode) takeSnapshotsTx(deps, tx, comp, [agentId], deps.clock.now());
    return { agent, competition: { ...comp, status } };
  });
}

function setRegistration(
  deps: Deps, tx: WriteTx<Tables>, comp: Competition, reg: CompetitionAgent, active: boolean, reason: string | null,
): void {
  const now = deps.clock.now();
  const wasActive = reg.status === 'active';
  tx.put('competitionAgents', {
    ...reg, status: active ? 'active' : 'disqualified', deactivationReason: active ? null : reason,
    deactivatedAt: active ? null : now, updatedAt: now,
  });
  const delta = (active ? 1 : 0) - (wasActive ? 1 : 0);
  if (delta !== 0) tx.put('competitions', { ...comp, registeredParticipants: Math.max(0, comp.registeredParticipants + delta), updatedAt: now });
}

/** Admin removal: the registration becomes `disqualified` with reason `Admin removal: <reason>`. */
export async function removeAgentFromCompetition(deps: Deps, competitionId: string, agentId: string, reason: string): Promise<{ agent: Agent; competition: Competition }> {
  return deps.store.transact((tx) => {
    const comp = requireCompetition(tx, competitionId);
    const agent = requireAgent(tx, agentId);
    const reg = tx.get('competitionAgents', regId(comp.id, agentId));
    if (!reg) throw new DomainError('NOT_PARTICIPATING');
    setRegistration(deps, tx, comp, reg, false, `Admin removal: ${reason}`);
    return { agent, competition: comp };
  });
}

/** Admin reactivation of a registration (not in ended competitions). */
export async function reactivateAgentInCompetition(deps: Deps, competitionId: string, agentId: string): Promise<{ agent: Agent; competition: Competition }> {
  return deps.store.transact((tx) => {
    const comp = requireCompetition(tx, competitionId);
    const agent = requireAgent(tx, agentId);
    if (comp.status === 'ended') throw new DomainError('REACTIVATE_IN_ENDED');
    const reg = tx.get('competitionAgents', regId(comp.id, agentId));
    if (!reg) throw new DomainError('NOT_IN_COMPETITION');
    setRegistration(deps, tx, comp, reg, true, null);
    return { agent, competition: comp };
  });
}

/**
 * `GET /api/admin/competition/{cid}/snapshots[?agentId=]`: newest first per agent, agents in
 * registration order; more than SNAPSHOT_LIST_LIMIT rows -> 400 LIST_TOO_LARGE.
 */
export async function competitionSnapshots(deps: Deps, competitionId: string, agentId?: string): Promise<PortfolioSnapshot[]> {
  return deps.store.read((tx) => {
    requireCompetition(tx, competitionId);
    const regs = tx.find('competitionAgents', 'competition', competitionId);
    let ids = regs.map((r) => r.agentId);
    if (agentId !== undefined) {
      requireAgent(tx, agentId);
      if (!ids.includes(agentId)) throw new DomainError('NOT_PARTICIPATING');
      ids = [agentId];
    }
    const keys = ids.map((id) => `${id}:${competitionId}`);
    capList(keys.reduce((n, key) => n + tx.count('snapshots', 'agentCompetition', key), 0), SNAPSHOT_LIST_LIMIT, 'snapshots', agentId === undefined
      ? "Ask for one agent's with ?agentId=, or for a thinned series with GET /api/competitions/{competitionId}/timeline?bucket="
      : 'Ask for a thinned series with GET /api/competitions/{competitionId}/timeline?bucket=');
    const out: PortfolioSnapshot[] = [];
    for (const key of keys) out.push(...tx.find('snapshots', 'agentCompetition', key).reverse());
    return out;
  });
}
