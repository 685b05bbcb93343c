// Agent ratings: OpenSkill Plackett-Luce updates in final-rank order at every competition end, per type and per arena.
import { ordinal, rate, rating } from 'openskill';
import type { ReadTx, WriteTx } from '../ports/store.js';
import type { Deps } from './deps.js';
import type { AgentRating, Competition, CompetitionType } from './model.js';
import type { Tables } from './tables.js';

/** A rating before or after an update. */
export interface Skill { mu: number; sigma: number }

/** The rating of an agent that has never been rated (openskill's defaults: mu 25, sigma 25/3). */
export const INITIAL_SKILL: Readonly<Skill> = rating();

/**
 * The leaderboard score of a rating (upstream's "ordinal", ELO-like scaling):
 * 24 x (mu - 3 sigma) + 1500, so a fresh rating scores exactly 1500.
 */
export function ratingScore(skill: Skill): number {
  return ordinal(skill, { alpha: 24, target: 1500 });
}

/**
 * One Plackett-Luce update (openskill's `rate` with its defaults: beta 25/6, epsilon 0.0001, no
 * tau). `priors` are one-agent teams in finishing order, winner first; ranks are strict. The
 * library is pure arithmetic (no clock, no randomness), so the domain calls it directly.
 */
export function plackettLuce(priors: readonly Skill[]): Skill[] {
  if (priors.length === 0) return [];
  return rate(priors.map((p) => [{ mu: p.mu, sigma: p.sigma }])).map((team) => ({ mu: team[0]!.mu, sigma: team[0]!.sigma }));
}

/** Index key of a ranking: `type:<type>` (global) or `arena:<arenaId>`. */
export function boardKey(scope: { type: CompetitionType } | { arenaId: string }): string {
  return 'arenaId' in scope ? `arena:${scope.arenaId}` : `type:${scope.type}`;
}

function ratingId(agentId: string, type: CompetitionType, arenaId: string | null): string {
  return arenaId === null ? `type:${type}:${agentId}` : `arena:${arenaId}:${agentId}`;
}

/** Ratings of one ranking, best first (ties keep storage order). */
export async function boardRatings(tx: ReadTx<Tables>, key: string): Promise<AgentRating[]> {
  return (await tx.find('ratings', 'board', key)).sort((a, b) => b.ordinal - a.ordinal);
}

/** Every global (per-type) rating, best first across all types (ties keep storage order). */
export async function globalRatings(tx: ReadTx<Tables>): Promise<AgentRating[]> {
  return (await tx.all('ratings')).filter((r) => r.arenaId === null).sort((a, b) => b.ordinal - a.ordinal);
}

async function updateBoard(
  tx: WriteTx<Tables>, comp: Competition, agentIds: readonly string[], arenaId: string | null, now: number,
): Promise<void> {
  const current: (AgentRating | undefined)[] = [];
  for (const agentId of agentIds) current.push(await tx.get('ratings', ratingId(agentId, comp.type, arenaId)));
  const posterior = plackettLuce(current.map((r) => (r ? { mu: r.mu, sigma: r.sigma } : INITIAL_SKILL)));
  for (const [i, agentId] of agentIds.entries()) {
    const before = current[i];
    const { mu, sigma } = posterior[i]!;
    await tx.put('ratings', {
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
export async function updateRatingsTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition): Promise<void> {
  const rows = (await tx.find('leaderboards', 'competition', comp.id)).sort((a, b) => a.rank - b.rank);
  if (rows.length === 0) return;
  const agentIds = rows.map((r) => r.agentId);
  const now = deps.clock.now();
  await updateBoard(tx, comp, agentIds, null, now);
  await updateBoard(tx, comp, agentIds, comp.arenaId, now);
}
