// Caps on lists the API answers whole (no paging upstream): one answer's rows and timeline points.
import { DomainError } from '../errors.js';

/** Most trades one unpaged trade list holds (own trades, a team's trades). */
export const TRADE_LIST_LIMIT = 10_000;

/**
 * Most rows of the admin snapshots list: large, because compsim's own run reports and `compsim
 * replay` read a competition's snapshots through it (100 agents over a week of 5-minute snapshots
 * is 201,600 rows); the list needs an admin key.
 */
export const SNAPSHOT_LIST_LIMIT = 250_000;

/** Most points one agent's series holds in a timeline answer. */
export const TIMELINE_AGENT_LIMIT = 1_000;

/** Most points a whole timeline answer holds, over all agents. */
export const TIMELINE_TOTAL_LIMIT = 20_000;

/**
 * Refuses an unpaged list of `count` rows above `limit` (400), before any row is built, so one
 * request cannot hold the server or answer megabytes; `hint` says how to ask for less.
 */
export function capList(count: number, limit: number, what: string, hint: string): void {
  if (count > limit) throw new DomainError('LIST_TOO_LARGE', { what, count, limit, hint });
}
