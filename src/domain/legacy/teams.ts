// Teams (legacy generation): registration, admin reads, key, deletion and (de)activation. A team is an agent with generation 'legacy' owned by a user made from its contact.
import type { ReadTx, WriteTx } from '../../ports/store.js';
import { createAgentTx, WALLET_RE } from '../agents/manage.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, User } from '../model.js';
import { ZERO_ADDRESS } from '../trading/prices.js';
import type { Tables } from '../tables.js';

/** A team: its agent row and the owner user made from its contact (name = contact person). */
export interface TeamView { agent: Agent; owner: User | undefined }

/** Body of the two registration endpoints, as sent (checks below give upstream's messages). */
export interface RegisterTeamInput { teamName?: unknown; email?: unknown; contactPerson?: unknown; walletAddress?: unknown; metadata?: unknown }

/** Result of a registration: the team, its plaintext key and the wallet as sent (or generated). */
export interface RegisteredTeam { team: TeamView; apiKey: string; walletAddress: string }

// ajv-formats' "email" pattern, so the check matches the schema messages' notion of an email.
const EMAIL_RE = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new DomainError('TEAM_FIELD_TYPE', { field });
  return value;
}

function walletTaken(tx: ReadTx<Tables>, wallet: string): boolean {
  const w = wallet.toLowerCase();
  // The legacy admin row held the zero address, so it was never free while an admin existed.
  if (w === ZERO_ADDRESS && (tx.count('admins')) > 0) return true;
  return (tx.count('users', 'wallet', w)) > 0 || (tx.count('agents', 'wallet', w)) > 0;
}

/**
 * `POST /api/public/teams/register` and `POST /api/admin/teams/register` (reference legacy §2.1):
 * missing fields -> 400, bad email -> 400, email taken (case-insensitive) -> 409, bad wallet ->
 * 400, wallet taken -> 409. An absent wallet is generated (`0x` + 40 hex from the seeded ids,
 * never one in use). Creates the owner user and the team's agent in one transaction; the team is
 * active at once (it authenticates before any competition, as upstream's warm cache allowed).
 */
export async function registerTeam(deps: Deps, input: RegisterTeamInput): Promise<RegisteredTeam> {
  if (!input.teamName || !input.email || !input.contactPerson) throw new DomainError('TEAM_REGISTER_MISSING');
  const name = requireString(input.teamName, 'teamName');
  const email = requireString(input.email, 'email');
  const contactPerson = requireString(input.contactPerson, 'contactPerson');
  const given = input.walletAddress === undefined || input.walletAddress === null || input.walletAddress === ''
    ? undefined : requireString(input.walletAddress, 'walletAddress');
  if (!EMAIL_RE.test(email)) throw new DomainError('TEAM_BAD_EMAIL');
  return deps.store.transact((tx) => {
    if ((tx.count('users', 'email', email.toLowerCase())) > 0) throw new DomainError('TEAM_EMAIL_EXISTS', { email });
    let wallet = given;
    if (wallet !== undefined) {
      if (!WALLET_RE.test(wallet)) throw new DomainError('BAD_WALLET');
      if (walletTaken(tx, wallet)) throw new DomainError('TEAM_WALLET_EXISTS');
    } else {
      do wallet = deps.ids.wallet(); while (walletTaken(tx, wallet));
    }
    const now = deps.clock.now();
    const owner = tx.insert('users', {
      id: deps.ids.uuid(), walletAddress: wallet.toLowerCase(), embeddedWalletAddress: null, privyId: null, name: contactPerson,
      email, isSubscribed: false, imageUrl: null, metadata: null, status: 'active', createdAt: now, updatedAt: now, lastLoginAt: null,
    });
    const made = createAgentTx(deps, tx, owner, {
      name, email, walletAddress: wallet, ...(input.metadata !== undefined && input.metadata !== null ? { metadata: input.metadata } : {}),
    });
    const agent = tx.put('agents', { ...made.agent, generation: 'legacy' });
    return { team: { agent, owner }, apiKey: made.apiKey, walletAddress: wallet };
  });
}

/** The team behind an agent row (owner looked up). */
export function teamView(tx: ReadTx<Tables>, agent: Agent): TeamView {
  return { agent, owner: tx.get('users', agent.ownerId) };
}

/** A team by id inside a transaction: admins' ids -> `adminCode` 403, others -> 404 `Team not found`. */
function requireTeam(tx: ReadTx<Tables>, id: string, adminCode?: 'TEAM_KEY_ADMIN' | 'TEAM_DELETE_ADMIN' | 'TEAM_DEACTIVATE_ADMIN'): Agent {
  const agent = tx.get('agents', id);
  if (agent && agent.generation === 'legacy') return agent;
  if (adminCode && (tx.get('admins', id))) throw new DomainError(adminCode);
  throw new DomainError('TEAM_NOT_FOUND');
}

/** `GET /api/admin/teams`: every team (legacy-generation agent), storage order; admins are not teams here. */
export async function listTeams(deps: Deps): Promise<TeamView[]> {
  return deps.store.read((tx) => {
    const out: TeamView[] = [];
    for (const a of tx.all('agents')) if (a.generation === 'legacy') out.push(teamView(tx, a));
    return out;
  });
}

/** `GET /api/admin/teams/{teamId}/key`: the decrypted key. */
export async function teamApiKey(deps: Deps, id: string): Promise<{ agent: Agent; apiKey: string }> {
  const agent = await deps.store.read((tx) => requireTeam(tx, id, 'TEAM_KEY_ADMIN'));
  return { agent, apiKey: deps.secrets.decrypt(agent.apiKeyEnc) };
}

function deleteSnapshotsAndTrades(tx: WriteTx<Tables>, agentId: string, competitionIds: readonly string[]): void {
  for (const cid of competitionIds) {
    for (const s of tx.find('snapshots', 'agentCompetition', `${agentId}:${cid}`)) tx.delete('snapshots', s.id);
  }
  for (const t of tx.find('trades', 'agent', agentId)) tx.delete('trades', t.id);
}

/**
 * `DELETE /api/admin/teams/{teamId}`: cascades to balances, trades, snapshots and competition
 * memberships (participant counters adjusted), and removes the contact user when it owns nothing else.
 */
export async function deleteTeam(deps: Deps, id: string): Promise<void> {
  await deps.store.transact((tx) => {
    const agent = requireTeam(tx, id, 'TEAM_DELETE_ADMIN');
    const regs = tx.find('competitionAgents', 'agent', id);
    deleteSnapshotsAndTrades(tx, id, regs.map((r) => r.competitionId));
    for (const reg of regs) {
      const comp = tx.get('competitions', reg.competitionId);
      if (comp && reg.status === 'active') tx.put('competitions', { ...comp, registeredParticipants: Math.max(0, comp.registeredParticipants - 1) });
      tx.delete('competitionAgents', reg.id);
    }
    for (const b of tx.find('balances', 'agent', id)) tx.delete('balances', b.id);
    tx.delete('agents', id);
    if ((tx.count('agents', 'owner', agent.ownerId)) === 0) tx.delete('users', agent.ownerId);
  });
}

/** Outcome of a (de)activation: the team after the call, and whether it changed. */
export interface TeamStatusChange { agent: Agent; changed: boolean }

/** Sets a team's global status inside `tx` (deactivation records reason and date; activation clears them). */
export function setTeamActiveTx(deps: Deps, tx: WriteTx<Tables>, agent: Agent, active: boolean, reason: string | null): Agent {
  const now = deps.clock.now();
  return tx.put('agents', active
    ? { ...agent, status: 'active', deactivationReason: null, deactivationDate: null, updatedAt: now }
    : { ...agent, status: 'inactive', deactivationReason: reason, deactivationDate: now, updatedAt: now });
}

/** `POST /api/admin/teams/{teamId}/deactivate`: reason required (400, checked first), 404, admin 403, already inactive -> unchanged. */
export async function deactivateTeam(deps: Deps, id: string, reason: unknown): Promise<TeamStatusChange> {
  if (!reason) throw new DomainError('TEAM_REASON_REQUIRED');
  const why = requireString(reason, 'reason');
  return deps.store.transact((tx) => {
    const agent = requireTeam(tx, id, 'TEAM_DEACTIVATE_ADMIN');
    if (agent.status !== 'active') return { agent, changed: false };
    return { agent: setTeamActiveTx(deps, tx, agent, false, why), changed: true };
  });
}

/** `POST /api/admin/teams/{teamId}/reactivate`: 404, already active -> unchanged. */
export async function reactivateTeam(deps: Deps, id: string): Promise<TeamStatusChange> {
  return deps.store.transact((tx) => {
    const agent = requireTeam(tx, id);
    if (agent.status === 'active') return { agent, changed: false };
    return { agent: setTeamActiveTx(deps, tx, agent, true, null), changed: true };
  });
}
