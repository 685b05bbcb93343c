// Agent ratings: OpenSkill Plackett-Luce updates in final-rank order at every competition end, per type and per arena.
import type * as OpenSkill from 'openskill';
import type { ReadTx, WriteTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import type { AgentRating, Competition, CompetitionType } from '../model.js';
import type { Tables } from '../tables.js';

/** A rating before or after an update. */
export interface Skill { mu: number; sigma: number }

/** The rating library, as {@link loadOpenSkill} hands it to whatever rates a field. */
export type RatingLibrary = Pick<typeof OpenSkill, 'rate'>;

/**
 * openskill, imported on first use (Node keeps the module once loaded): its ramda dependency is
 * hundreds of ES modules, about 200 ms of start-up, and only rating a finished field needs it. A
 * transaction body cannot wait, so whatever ends a competition loads it first and passes it in;
 * `compsim serve` loads it after start-up so that no request waits for it. A module import yields
 * the same functions whenever it happens, so the timing changes no result.
 */
export function loadOpenSkill(): Promise<RatingLibrary> {
  return import('openskill');
}

/** The rating of an agent that has never been rated (openskill's `rating()` defaults: mu 25, sigma 25/3). */
export const INITIAL_SKILL: Readonly<Skill> = Object.freeze({ mu: 25, sigma: 25 / 3 });

/**
 * The leaderboard score of a rating (upstream's "ordinal", ELO-like scaling): upstream's own
 * `ordinal(skill, { alpha: 24, target: 1500 })` = alpha x (mu - z sigma + target / alpha) with z = 3,
 * evaluated in that order of operations (1500 / 24 = 62.5 exactly), so the doubles match
 * upstream's bit for bit; a fresh rating scores exactly 1500.
 */
export function ratingScore(skill: Skill): number {
  return 24 * ((skill.mu - 3 * skill.sigma) + 62.5);
}

/**
 * Fields up to this size are rated by openskill's `rate` itself (the numbers upstream stores, to
 * the last bit); larger ones by {@link linearPlackettLuce}. openskill evaluates the update in
 * O(n²) (every agent sums over everyone ranked above it): 20 s for one 10,000-agent field.
 */
export const OPENSKILL_FIELD_LIMIT = 256;

/**
 * One Plackett-Luce update (openskill's `rate` with its defaults: beta 25/6, epsilon 0.0001, no
 * tau). `priors` are one-agent teams in finishing order, winner first; ranks are strict. The
 * library is pure arithmetic (no clock, no randomness), so the domain calls it directly.
 */
export function plackettLuce(priors: readonly Skill[], { rate }: RatingLibrary): Skill[] {
  if (priors.length === 0) return [];
  if (priors.length > OPENSKILL_FIELD_LIMIT) return linearPlackettLuce(priors);
  return rate(priors.map((p) => [{ mu: p.mu, sigma: p.sigma }])).map((team) => ({ mu: team[0]!.mu, sigma: team[0]!.sigma }));
}

const BETA_SQ = (INITIAL_SKILL.sigma / 2) ** 2;
const EPSILON = 0.0001;

/**
 * The same update as openskill's Plackett-Luce model for one-agent teams in strict order, in O(n):
 * with c = sqrt(sum(sigma^2 + beta^2)), e_i = exp(mu_i / c) and S_q = e_q + ... + e_n, agent i's
 * sums over q <= i of e_i / S_q and (e_i / S_q)^2 are e_i P1_i and e_i^2 P2_i with the prefix sums
 * P1_i = sum 1/S_q and P2_i = sum 1/S_q^2. Equal to openskill's results up to floating-point
 * rounding (the sums are taken in another order; relative differences around 1e-13).
 */
export function linearPlackettLuce(priors: readonly Skill[]): Skill[] {
  const n = priors.length;
  let total = 0;
  for (const p of priors) total += p.sigma * p.sigma + BETA_SQ;
  const c = Math.sqrt(total);
  const e = priors.map((p) => Math.exp(p.mu / c));
  const suffix = new Float64Array(n);
  let s = 0;
  for (let q = n - 1; q >= 0; q--) suffix[q] = s += e[q]!;
  const out: Skill[] = [];
  let p1 = 0;
  let p2 = 0;
  for (let i = 0; i < n; i++) {
    const inv = 1 / suffix[i]!;
    p1 += inv;
    p2 += inv * inv;
    const { mu, sigma } = priors[i]!;
    const sigmaSq = sigma * sigma;
    const ei = e[i]!;
    const omega = 1 - ei * p1;
    const delta = ei * p1 - ei * ei * p2;
    out.push({
      mu: mu + omega * (sigmaSq / c),
      sigma: sigma * Math.sqrt(Math.max(1 - (sigma / c) * delta * (sigmaSq / (c * c)), EPSILON)),
    });
  }
  return out;
}

/** Index key of a ranking: `type:<type>` (global) or `arena:<arenaId>`. */
export function boardKey(scope: { type: CompetitionType } | { arenaId: string }): string {
  return 'arenaId' in scope ? `arena:${scope.arenaId}` : `type:${scope.type}`;
}

function ratingId(agentId: string, type: CompetitionType, arenaId: string | null): string {
  return arenaId === null ? `type:${type}:${agentId}` : `arena:${arenaId}:${agentId}`;
}

/** Ratings of one ranking, best first (ties keep storage order). */
export function boardRatings(tx: ReadTx<Tables>, key: string): AgentRating[] {
  return (tx.find('ratings', 'board', key)).sort((a, b) => b.ordinal - a.ordinal);
}

/** Every global (per-type) rating, best first across all types (ties keep storage order). */
export function globalRatings(tx: ReadTx<Tables>): AgentRating[] {
  return (tx.all('ratings')).filter((r) => r.arenaId === null).sort((a, b) => b.ordinal - a.ordinal);
}

function updateBoard(tx: WriteTx<Tables>, comp: Competition, agentIds: readonly string[], arenaId: string | null, now: number, lib: RatingLibrary): void {
  const current: (AgentRating | undefined)[] = [];
  for (const agentId of agentIds) current.push(tx.get('ratings', ratingId(agentId, comp.type, arenaId)));
  const posterior = plackettLuce(current.map((r) => (r ? { mu: r.mu, sigma: r.sigma } : INITIAL_SKILL)), lib);
  for (const [i, agentId] of agentIds.entries()) {
    const before = current[i];
    const { mu, sigma } = posterior[i]!;
    tx.put('ratings', {
      id: ratingId(agentId, comp.type, arenaId), agentId, type: comp.type, arenaId, mu, sigma, ordinal: ratingScore({ mu, sigma }),
      competitions: (before?.competitions ?? 0) + 1, lastCompetitionId: comp.id, createdAt: before?.createdAt ?? now, updatedAt: now,
    });
  }
}

/**
 * Rates a competition that is ending, inside its end transaction (after the frozen leaderboard is
 * written): the agents of the final leaderboard, in rank order, get one Plackett-Luce update of
 * their rating for the competition's type (global ranking) and one of their rating in its arena.
 * Agents absent from the final leaderboard (withdrawn, disqualified, no snapshot) are not rated.
 */
export function updateRatingsTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition, lib: RatingLibrary): void {
  const rows = (tx.find('leaderboards', 'competition', comp.id)).sort((a, b) => a.rank - b.rank);
  if (rows.length === 0) return;
  const agentIds = rows.map((r) => r.agentId);
  const now = deps.clock.now();
  updateBoard(tx, comp, agentIds, null, now, lib);
  updateBoard(tx, comp, agentIds, comp.arenaId, now, lib);
}
