// Legacy (team) authentication rules: the deactivated-team 403 and the admin check of the team era's messages.
import type { ReadTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Principal } from '../model.js';
import type { Tables } from '../tables.js';

/** Any agent (any status) owning `key`. */
function agentByKey(deps: Deps, tx: ReadTx<Tables>, key: string): Agent | undefined {
  const hash = deps.secrets.hash(key);
  return (tx.find('agents', 'apiKeyHash', hash)).find((r) => deps.secrets.equal(r.apiKeyHash, hash));
}

/** The deactivation error of a team: 403, upstream's message, `inactive: true` (reference legacy §1.2). */
export function teamDeactivatedError(agent: Pick<Agent, 'deactivationReason'>): DomainError {
  return new DomainError('TEAM_DEACTIVATED', { reason: agent.deactivationReason ?? '' }, { inactive: true });
}

/**
 * Throws the deactivation 403 when `key` belongs to a deactivated team (a legacy-generation agent
 * with status `inactive`). Current agents' deactivated keys stay plain 401s.
 */
export function rejectDeactivatedTeam(deps: Deps, tx: ReadTx<Tables>, key: string): void {
  const agent = agentByKey(deps, tx, key);
  if (agent && agent.generation === 'legacy' && agent.status === 'inactive') throw teamDeactivatedError(agent);
}

/**
 * Admin authentication on the legacy-only admin prefixes (`/api/admin/teams`, `/api/admin/reports`):
 * no key -> 401 `Authentication required...`, unknown key -> 401 `Invalid API key`, a deactivated
 * team -> its 403, any other valid key -> 403 `Admin access required`.
 */
export function legacyAdminPrincipal(deps: Deps, tx: ReadTx<Tables>, key: string | null): Principal {
  if (key === null) throw new DomainError('LEGACY_KEY_MISSING');
  const hash = deps.secrets.hash(key);
  const admin = (tx.find('admins', 'apiKeyHash', hash)).find((r) => deps.secrets.equal(r.apiKeyHash, hash));
  if (admin) {
    if (admin.status !== 'active') throw new DomainError('ADMIN_INACTIVE');
    return { kind: 'admin', adminId: admin.id };
  }
  const agent = agentByKey(deps, tx, key);
  if (agent && agent.generation === 'legacy' && agent.status === 'inactive') throw teamDeactivatedError(agent);
  if (agent && agent.status === 'active') throw new DomainError('LEGACY_ADMIN_REQUIRED');
  throw new DomainError('LEGACY_KEY_INVALID');
}
