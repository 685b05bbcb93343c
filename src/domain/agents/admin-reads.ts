// Admin reads of users and agents: the full user list and the user/agent search (upstream's parsing, filters and join).
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, User } from '../model.js';

/** `GET /api/admin/users`: every user in storage order (no paging, no filters; admins are not users). */
export async function listUsers(deps: Deps): Promise<User[]> {
  return deps.store.read((tx) => tx.all('users'));
}

/** Values of a search's `status` filters. */
export const SEARCH_STATUSES = ['active', 'inactive', 'suspended', 'deleted'] as const;
/** Fields of a search's user filter (`user.<field>`). */
export const SEARCH_USER_KEYS = ['email', 'name', 'walletAddress', 'status'] as const;
/** Fields of a search's agent filter (`agent.<field>`). */
export const SEARCH_AGENT_KEYS = ['name', 'handle', 'ownerId', 'walletAddress', 'status'] as const;
const STATUSES = SEARCH_STATUSES;
const USER_KEYS = SEARCH_USER_KEYS;
const AGENT_KEYS = SEARCH_AGENT_KEYS;

type UserFilter = Partial<Record<(typeof USER_KEYS)[number], string>>;
type AgentFilter = Partial<Record<(typeof AGENT_KEYS)[number], string>>;

/** A parsed search query. */
export interface SearchQuery { user?: UserFilter; agent?: AgentFilter; join: boolean }

const invalid = (reason: string) => new DomainError('SEARCH_INVALID', { reason });

/**
 * Upstream's query reading (`qs` with dots): `user.email=x` and `user[email]=x` both nest; a
 * repeated key is refused like any non-string value. The result is checked against the strict
 * schema `{user?, agent?, join}`: unknown keys at either level, a bad `status` or `join` -> 400.
 */
export function parseSearchQuery(flat: Record<string, unknown>): SearchQuery {
  const nested: Record<string, unknown> = {};
  for (const [raw, value] of Object.entries(flat)) {
    const m = /^([^.[\]]+)(?:\.([^.[\]]+)|\[([^[\]]*)\])?$/.exec(raw);
    const top = m ? m[1]! : raw;
    const sub = m ? (m[2] ?? m[3]) : undefined;
    if (sub === undefined) {
      nested[top] = value;
      continue;
    }
    const obj = nested[top];
    if (obj !== undefined && (typeof obj !== 'object' || obj === null)) nested[top] = { [sub]: value };
    else nested[top] = { ...(obj as Record<string, unknown> | undefined), [sub]: value };
  }
  if (!nested.user && !nested.agent) throw new DomainError('SEARCH_NO_FILTER');
  const unknown = Object.keys(nested).filter((k) => k !== 'user' && k !== 'agent' && k !== 'join');
  if (unknown.length > 0) throw invalid(`unrecognized key(s) in query: ${unknown.map((k) => `'${k}'`).join(', ')}`);
  const out: SearchQuery = { join: parseJoin(nested.join) };
  if (nested.user !== undefined) out.user = filterOf('user', nested.user, USER_KEYS);
  if (nested.agent !== undefined) out.agent = filterOf('agent', nested.agent, AGENT_KEYS);
  return out;
}

function parseJoin(v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'string') throw invalid('join: expected a single value');
  if (v === '' || v.toLowerCase() === 'true') return true;
  if (v.toLowerCase() === 'false') return false;
  throw invalid(`join: expected true or false, received '${v}'`);
}

function filterOf<K extends string>(name: string, v: unknown, keys: readonly K[]): Partial<Record<K, string>> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(`${name}: expected object, received ${Array.isArray(v) ? 'array' : typeof v}`);
  const out: Partial<Record<K, string>> = {};
  for (const [k, val] of Object.entries(v)) {
    if (!(keys as readonly string[]).includes(k)) throw invalid(`${name}: unrecognized key '${k}'`);
    if (typeof val !== 'string') throw invalid(`${name}.${k}: expected string, received ${Array.isArray(val) ? 'array' : typeof val}`);
    if (k === 'status' && !(STATUSES as readonly string[]).includes(val)) {
      throw invalid(`${name}.status: invalid enum value. Expected ${STATUSES.map((s) => `'${s}'`).join(' | ')}, received '${val}'`);
    }
    out[k as K] = val;
  }
  return out;
}

const like = (field: string | null, needle: string) => field !== null && field.toLowerCase().includes(needle.toLowerCase());

function userMatches(u: User, f: UserFilter): boolean {
  if (f.email && !like(u.email, f.email)) return false;
  if (f.name && !like(u.name, f.name)) return false;
  if (f.walletAddress && !like(u.walletAddress, f.walletAddress.toLowerCase())) return false;
  if (f.status && u.status !== f.status) return false;
  return true;
}

function agentMatches(a: Agent, f: AgentFilter): boolean {
  if (f.name && !like(a.name, f.name)) return false;
  if (f.handle && a.handle !== f.handle) return false;
  if (f.ownerId && a.ownerId !== f.ownerId) return false;
  if (f.walletAddress && !like(a.walletAddress, f.walletAddress.toLowerCase())) return false;
  if (f.status && a.status !== f.status) return false;
  return true;
}

/**
 * `GET /api/admin/search`: users matching the `user` filter and agents matching the `agent`
 * filter (conditions ANDed; substring matches ignore case, `handle`, `ownerId` and `status` are
 * exact; an empty value adds no condition), storage order, no paging. With `join`, the agents are
 * cut down to those owned by one of the users found (so `join` without a user filter finds no agents).
 */
export async function searchUsersAndAgents(deps: Deps, q: SearchQuery): Promise<{ users: User[]; agents: Agent[] }> {
  return deps.store.read((tx) => {
    const users = q.user ? tx.all('users').filter((u) => userMatches(u, q.user!)) : [];
    let agents = q.agent ? tx.all('agents').filter((a) => agentMatches(a, q.agent!)) : [];
    if (q.join) {
      const owners = new Set(users.map((u) => u.id));
      agents = agents.filter((a) => owners.has(a.ownerId));
    }
    return { users, agents };
  });
}
