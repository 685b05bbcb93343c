// Which competition a team means: the legacy generation's implicit "ACTIVE competition" and the competition its account shows.
import type { ReadTx } from '../../ports/store.js';
import { activeCompetitions } from '../competitions/create.js';
import type { Competition } from '../model.js';
import type { Tables } from '../tables.js';

/** Earliest start first; competitions never started sort last; ties keep storage order (stable sort). */
function byStart(a: Competition, b: Competition): number {
  return (a.startDate ?? Number.MAX_SAFE_INTEGER) - (b.startDate ?? Number.MAX_SAFE_INTEGER);
}

/** True when the agent's registration in the competition is active (the legacy "member of" test). */
export function isMember(tx: ReadTx<Tables>, competitionId: string, agentId: string): boolean {
  return (tx.get('competitionAgents', `${competitionId}:${agentId}`))?.status === 'active';
}

/**
 * "The ACTIVE competition" of the legacy generation, which had at most one. compsim may hold
 * several, so among the active paper-trading competitions it takes the earliest-started one the
 * team is actively registered in, else the earliest-started one (null when none is active).
 * `agentId` null (an admin) means no preference.
 */
export function legacyActiveCompetition(tx: ReadTx<Tables>, agentId: string | null): Competition | null {
  const active = (activeCompetitions(tx)).filter((c) => c.type === 'trading').sort(byStart);
  if (agentId !== null) {
    for (const c of active) if (isMember(tx, c.id, agentId)) return c;
  }
  return active[0] ?? null;
}

/**
 * The competition whose balances a team's account shows (legacy balances were per team and
 * outlived the competition): the legacy active competition when the team is registered there,
 * else the most recently started competition it is registered in, else null.
 */
export function accountCompetition(tx: ReadTx<Tables>, agentId: string): Competition | null {
  const active = legacyActiveCompetition(tx, agentId);
  if (active && (tx.get('competitionAgents', `${active.id}:${agentId}`))) return active;
  const mine: Competition[] = [];
  for (const reg of tx.find('competitionAgents', 'agent', agentId)) {
    const c = tx.get('competitions', reg.competitionId);
    if (c && c.startDate !== null) mine.push(c);
  }
  return mine.sort(byStart).at(-1) ?? null;
}

/** Upper-case status of the team era: PENDING, ACTIVE, COMPLETED (`ending` is never observable). */
export function legacyStatusOf(status: Competition['status']): 'PENDING' | 'ACTIVE' | 'COMPLETED' {
  if (status === 'pending') return 'PENDING';
  return status === 'ended' ? 'COMPLETED' : 'ACTIVE';
}

/**
 * True when the world is driven by a team-era client: it holds at least one team (an agent of the
 * legacy generation, registered through `POST /api/admin/teams/register`) and no agent of the
 * current generation. With this, a create body of the team era's bare form (`{name, description}`)
 * is recognised as legacy (reference fidelity-2 §10.1), where the body alone cannot tell.
 */
export function teamEraWorld(tx: ReadTx<Tables>): boolean {
  let teams = 0;
  for (const a of tx.all('agents')) {
    if (a.generation !== 'legacy') return false;
    teams += 1;
  }
  return teams > 0;
}
