// Caps on lists the API answers whole (no paging upstream): one answer's rows and timeline points.
import { DomainError } from './errors.js';

/** Most rows one unpaged list answer holds (snapshots, own trades, a team's trades). */
export const LIST_LIMIT = 10_000;

/** Most points one agent's series holds in a timeline answer. */
export const TIMELINE_AGENT_LIMIT = 1_000;

/** Most points a whole timeline answer holds, over all agents. */
export const TIMELINE_TOTAL_LIMIT = 20_000;

/**
 * Refuses an unpaged list of `count` rows above {@link LIST_LIMIT} (400), before any row is built,
 * so one request cannot hold the server or answer megabytes; `hint` says how to ask for less.
 */
export function capList(count: number, what: string, hint: string): void {
  if (count > LIST_LIMIT) throw new DomainError('LIST_TOO_LARGE', { what, count, limit: LIST_LIMIT, hint });
}
