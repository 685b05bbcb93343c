// Which competition an agent route means, by the world's API version: given, implicit, required or "the active one".
import type { ReadTx } from '../../ports/store.js';
import { pairKey } from '../data/keys.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Competition, Principal } from '../model.js';
import type { Tables } from '../tables.js';
import type { CompetitionIdMode } from '../versions.js';
import { activeCompetitions, implicitCompetitionId } from './create.js';

/** Throws 403 `No active competition` unless some competition is active (the October-2025 middleware of price and trade routes). */
export async function requireActiveCompetition(deps: Deps): Promise<void> {
  const any = await deps.store.read((tx) => tx.count('competitions', 'status', 'active') > 0);
  if (!any) throw new DomainError('NO_ACTIVE_COMPETITION');
}

/**
 * "The active competition" of the October-2025 routes: upstream read one row with status
 * `active` (no order); compsim prefers the one the agent is active in, so a world with several
 * active competitions still answers the agent's own. Undefined when none is active.
 */
export function activeCompetitionFor(tx: ReadTx<Tables>, principal: Principal): Competition | undefined {
  const active = activeCompetitions(tx);
  if (principal.kind === 'agent') {
    for (const c of active) if (tx.get('competitionAgents', pairKey(c.id, principal.agentId))?.status === 'active') return c;
  }
  return active[0];
}

/**
 * The `competitionId` an agent route works on under `mode` (a row of the version rules):
 * `optional` -> given, else the implicit one; `required` -> given, else 400 with `usage`;
 * `active` -> the active competition whatever was given (none -> 403 `No active competition`).
 */
export function routeCompetitionId(tx: ReadTx<Tables>, principal: Principal, given: string | undefined, mode: CompetitionIdMode, usage: string): string {
  switch (mode) {
    case 'optional':
      return given ?? implicitCompetitionId(tx, principal, usage);
    case 'required':
      if (given === undefined || given === '') throw new DomainError('COMPETITION_ID_REQUIRED', { usage });
      return given;
    default: {
      const comp = activeCompetitionFor(tx, principal);
      if (!comp) throw new DomainError('NO_ACTIVE_COMPETITION');
      return comp.id;
    }
  }
}
