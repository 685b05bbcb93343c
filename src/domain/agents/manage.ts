// Agent use cases: creation (handles, wallets, duplicates), admin reads, updates, deletion, (de)activation, keys.
import type { WriteTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { versionRule } from '../versions.js';
import type { Agent, User } from '../model.js';
import { sortRows, type SortSpec } from '../data/paging.js';
import type { Tables } from '../tables.js';

/** `0x` followed by 40 hex characters. */
export const WALLET_RE = /^0x[0-9a-fA-F]{40}$/;
const HANDLE_MAX = 15;

/** Fields an admin may give a new agent. */
export interface AgentInput {
  name: string; handle?: string; email?: string; walletAddress?: string; description?: string;
  imageUrl?: string; metadata?: unknown;
}

/** Upstream's handle derivation: lowercase, other characters to `_`, collapse, truncate to 15. */
export function handleFromName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/_+/g, '_').slice(0, HANDLE_MAX);
}

function uniqueHandle(deps: Deps, tx: WriteTx<Tables>, name: string): string {
  let base = handleFromName(name);
  while (base.length < 3) base += deps.ids.hex(1).charAt(0);
  let handle = base;
  // Derived handles never collide: append a counter (explicit handles get the 409 instead).
  for (let n = 2; (tx.count('agents', 'handle', handle)) > 0; n++) {
    const suffix = `_${n}`;
    handle = base.slice(0, HANDLE_MAX - suffix.length) + suffix;
  }
  return handle;
}

/** Creates an agent for `owner` inside `tx`; returns the row and its plaintext key. */
export function createAgentTx(deps: Deps, tx: WriteTx<Tables>, owner: User, input: AgentInput): { agent: Agent; apiKey: string } {
  const wallet = input.walletAddress;
  if (wallet !== undefined && !WALLET_RE.test(wallet)) throw new DomainError('BAD_WALLET');
  const siblings = tx.find('agents', 'owner', owner.id);
  if (siblings.some((a) => a.name === input.name)) throw new DomainError('AGENT_NAME_EXISTS', { name: input.name });
  let handle: string;
  if (input.handle !== undefined) {
    handle = input.handle;
    if ((tx.count('agents', 'handle', handle)) > 0) throw new DomainError('HANDLE_EXISTS', { handle });
  } else {
    handle = uniqueHandle(deps, tx, input.name);
  }
  if (wallet !== undefined && (tx.count('agents', 'wallet', wallet.toLowerCase())) > 0) {
    throw new DomainError('AGENT_WALLET_EXISTS', { wallet: wallet.toLowerCase() });
  }
  const now = deps.clock.now();
  const apiKey = deps.ids.apiKey();
  const agent: Agent = {
    id: deps.ids.uuid(), ownerId: owner.id, walletAddress: wallet?.toLowerCase() ?? null, name: input.name, handle,
    email: input.email ?? null, description: input.description ?? null, imageUrl: input.imageUrl ?? null,
    metadata: input.metadata ?? null, apiKeyHash: deps.secrets.hash(apiKey), apiKeyEnc: deps.secrets.encrypt(apiKey),
    status: 'active', deactivationReason: null, deactivationDate: null, isRewardsIneligible: false,
    rewardsIneligibilityReason: null, generation: 'current', createdAt: now, updatedAt: now,
  };
  tx.insert('agents', agent);
  return { agent, apiKey };
}

/**
 * `POST /api/admin/agents`: resolves the owner by id or wallet, then creates the agent. It joins
 * no competition (in sandbox mode too: only the admin add endpoint adds it).
 */
export async function createAgentForOwner(
  deps: Deps, owner: { id?: string; walletAddress?: string }, input: AgentInput,
): Promise<{ agent: Agent; apiKey: string }> {
  if ((owner.id === undefined) === (owner.walletAddress === undefined)) throw new DomainError(versionRule(deps, 'ownerRequiredError'));
  return deps.store.transact((tx) => {
    let user: User | undefined;
    if (owner.id !== undefined) {
      user = tx.get('users', owner.id);
      if (!user) throw new DomainError('USER_ID_NOT_FOUND', { id: owner.id });
    } else {
      const wallet = owner.walletAddress!;
      user = (tx.find('users', 'wallet', wallet.toLowerCase()))[0];
      if (!user) throw new DomainError('USER_WALLET_NOT_FOUND', { wallet });
    }
    return createAgentTx(deps, tx, user, input);
  });
}

/** An agent or the 404. */
export async function getAgent(deps: Deps, id: string): Promise<Agent> {
  const agent = await deps.store.read((tx) => tx.get('agents', id));
  if (!agent) throw new DomainError('AGENT_NOT_FOUND');
  return agent;
}

/** Fields of `GET /api/admin/agents` sorting. */
export const AGENT_SORT_FIELDS = ['id', 'ownerId', 'walletAddress', 'name', 'handle', 'description', 'imageUrl', 'status', 'createdAt', 'updatedAt'] as const;

/** `GET /api/admin/agents`: one page plus the total. */
export async function listAgents(deps: Deps, page: { limit: number; offset: number; sort: SortSpec }): Promise<{ agents: Agent[]; total: number }> {
  const all = await deps.store.read((tx) => tx.all('agents'));
  const sorted = sortRows(all, page.sort);
  return { agents: sorted.slice(page.offset, page.offset + page.limit), total: all.length };
}

/** Fields `PUT /api/admin/agents/{id}` may change. */
export interface AgentUpdate {
  name?: string; handle?: string; description?: string; imageUrl?: string; email?: string; metadata?: unknown;
  isRewardsIneligible?: boolean; rewardsIneligibilityReason?: string;
}

/** Updates the given fields; duplicate handle or same-owner name -> 409. */
export async function updateAgent(deps: Deps, id: string, u: AgentUpdate): Promise<Agent> {
  return deps.store.transact((tx) => {
    const agent = tx.get('agents', id);
    if (!agent) throw new DomainError('AGENT_NOT_FOUND');
    if (u.handle !== undefined && u.handle !== agent.handle && (tx.count('agents', 'handle', u.handle)) > 0) {
      throw new DomainError('HANDLE_EXISTS', { handle: u.handle });
    }
    if (u.name !== undefined && u.name !== agent.name) {
      const siblings = tx.find('agents', 'owner', agent.ownerId);
      if (siblings.some((a) => a.id !== id && a.name === u.name)) throw new DomainError('AGENT_NAME_EXISTS', { name: u.name });
    }
    const defined = Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined));
    return tx.put('agents', { ...agent, ...defined, updatedAt: deps.clock.now() });
  });
}

/** Deletes an agent with its registrations and balances. */
export async function deleteAgent(deps: Deps, id: string): Promise<void> {
  await deps.store.transact((tx) => {
    if (!(tx.delete('agents', id))) throw new DomainError('AGENT_NOT_FOUND');
    for (const reg of tx.find('competitionAgents', 'agent', id)) {
      if (reg.status === 'active') {
        const comp = tx.get('competitions', reg.competitionId);
        if (comp) tx.put('competitions', { ...comp, registeredParticipants: Math.max(0, comp.registeredParticipants - 1) });
      }
      tx.delete('competitionAgents', reg.id);
    }
    for (const b of tx.find('balances', 'agent', id)) tx.delete('balances', b.id);
  });
}

/** Sets an agent's global status; returns null when it already had that status. */
export async function setAgentStatus(deps: Deps, id: string, active: boolean, reason?: string): Promise<{ agent: Agent; changed: boolean }> {
  return deps.store.transact((tx) => {
    const agent = tx.get('agents', id);
    if (!agent) throw new DomainError('AGENT_NOT_FOUND');
    if ((agent.status === 'active') === active) return { agent, changed: false };
    const now = deps.clock.now();
    const next: Agent = active
      ? { ...agent, status: 'active', deactivationReason: null, deactivationDate: null, updatedAt: now }
      : { ...agent, status: 'inactive', deactivationReason: reason ?? null, deactivationDate: now, updatedAt: now };
    return { agent: tx.put('agents', next), changed: true };
  });
}

/** The decrypted current key of an agent. */
export async function getAgentApiKey(deps: Deps, id: string): Promise<{ agent: Agent; apiKey: string }> {
  const agent = await getAgent(deps, id);
  return { agent, apiKey: deps.secrets.decrypt(agent.apiKeyEnc) };
}
