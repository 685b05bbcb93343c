// Authentication rules: Bearer parsing, agent-key and admin-key lookup by hash, constant-time check.
import type { ReadTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { legacyAdminPrincipal, rejectDeactivatedTeam } from '../legacy/auth.js';
import type { Admin, Agent, Principal } from '../model.js';
import type { Tables } from '../tables.js';
import { versionRule } from '../versions.js';

/** Upstream accepts exactly `Bearer <key>` (capital B, one space); anything else is "no key". */
export function parseBearer(header: string | undefined): string | null {
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return null;
  const key = header.slice('Bearer '.length);
  return key === '' ? null : key;
}

function byHash<K extends 'agents' | 'admins'>(deps: Deps, tx: ReadTx<Tables>, table: K, key: string): Tables[K] | undefined {
  const hash = deps.secrets.hash(key);
  const rows = tx.find(table, 'apiKeyHash', hash);
  return rows.find((r) => deps.secrets.equal(r.apiKeyHash, hash));
}

/** The agent owning `key`, if it is usable (only active agents authenticate). */
export function findAgentByKey(deps: Deps, tx: ReadTx<Tables>, key: string): Agent | undefined {
  const agent = byHash(deps, tx, 'agents', key);
  return agent && agent.status === 'active' ? agent : undefined;
}

/**
 * Principals of usable keys are kept per world and table (agents, admins) with the table's version
 * they were read at: every keyed request asks, and the answer depends on that table alone (versions
 * are never reused, so an equal version means the same rows, after a restore too). Only keys that
 * authenticate are kept.
 */
const KEYS_KEPT = 100_000;

/** The principal of a usable key of `table` (an active agent or admin), if any; frozen, shared by the requests presenting the key. */
function principalByKey(deps: Deps, tx: ReadTx<Tables>, table: 'agents' | 'admins', key: string): Principal | undefined {
  const version = tx.version(table);
  const kept = deps.caches.principals[table];
  const hit = kept.get(key);
  if (hit !== undefined && hit.version === version) return hit.principal;
  let principal: Principal;
  if (table === 'agents') {
    const agent = findAgentByKey(deps, tx, key);
    if (!agent) return undefined;
    principal = Object.freeze({ kind: 'agent', agentId: agent.id, ownerId: agent.ownerId, generation: agent.generation });
  } else {
    const admin = findAdminByKey(deps, tx, key);
    if (!admin || admin.status !== 'active') return undefined;
    principal = Object.freeze({ kind: 'admin', adminId: admin.id });
  }
  if (kept.size >= KEYS_KEPT) kept.clear();
  kept.set(key, { version, principal });
  return principal;
}

/** The admin owning `key` (any status; callers decide what an inactive admin may do). */
export function findAdminByKey(deps: Deps, tx: ReadTx<Tables>, key: string): Admin | undefined {
  return byHash(deps, tx, 'admins', key);
}

/** The principal of a request no key was looked at for (public routes, requests refused before routing). */
export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });

/**
 * Resolves the principal for an auth mode; throws the upstream 401/403 errors. `legacy` selects the
 * team generation's messages (legacy-only path prefixes). A deactivated team's key gets its 403 on
 * every keyed route.
 */
export async function authenticate(
  deps: Deps, mode: 'public' | 'optional' | 'key' | 'admin', header: string | undefined, legacy = false,
): Promise<Principal> {
  if (mode === 'public') return { kind: 'anonymous' };
  const key = parseBearer(header);
  return deps.store.read((tx) => {
    if (mode === 'admin') {
      if (legacy) return legacyAdminPrincipal(deps, tx, key);
      if (key === null) throw new DomainError('ADMIN_KEY_MISSING');
      const principal = principalByKey(deps, tx, 'admins', key);
      if (principal) return principal;
      // Only a refusal reads the row again, to say why.
      throw new DomainError((findAdminByKey(deps, tx, key)) ? 'ADMIN_INACTIVE' : 'ADMIN_KEY_INVALID');
    }
    if (key === null) {
      if (mode === 'optional') return { kind: 'anonymous' };
      throw new DomainError(legacy ? 'LEGACY_KEY_MISSING' : versionRule(deps, 'agentKeyMissing'));
    }
    const agent = principalByKey(deps, tx, 'agents', key);
    if (agent) return agent;
    const admin = principalByKey(deps, tx, 'admins', key);
    if (admin) return admin;
    rejectDeactivatedTeam(deps, tx, key);
    if (mode === 'optional') return { kind: 'anonymous' };
    throw new DomainError(legacy ? 'LEGACY_KEY_INVALID' : 'AGENT_KEY_INVALID');
  });
}
