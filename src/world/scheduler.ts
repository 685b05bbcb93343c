// Scheduler: virtual-time jobs (auto-start, scripted actions, periodic snapshots, badge refresh, auto-end) derived from stored state, run in due-time order.
import type { ManualClockLike } from '../ports/clock.js';
import type { Deps } from '../domain/deps.js';
import { DomainError } from '../domain/errors.js';
import { runDueScriptActions } from '../domain/competitions/script.js';
import { nextBadgeRefreshAt, refreshCompetitionBadges } from '../domain/inference/badge.js';
import { endCompetitionWithTeams } from '../domain/legacy/admin-lifecycle.js';
import { periodicSnapshot, startCompetitionTx } from '../domain/competitions/lifecycle.js';
import type { Competition } from '../domain/model.js';
import { activeAgentIds } from '../domain/trading/portfolio.js';
import type { Tables } from '../domain/tables.js';
import type { ReadTx } from '../ports/store.js';

/** Kinds of job, in the order they run when due at the same instant. */
export const JOB_ORDER = ['start', 'script', 'snapshot', 'badge', 'end'] as const;

/** One due job. */
export interface Job { kind: (typeof JOB_ORDER)[number]; competitionId: string; at: number; seq: number }

/** Next aligned snapshot time after `last`: start + k * interval. */
export function nextSnapshotAt(c: Competition, interval: number): number | null {
  if (c.startDate === null) return null;
  const last = c.lastSnapshotAt ?? c.startDate;
  const k = Math.floor((last - c.startDate) / interval) + 1;
  return c.startDate + k * interval;
}

/** Most portfolio snapshot rows one move of the clock through the sim API may create. */
export const MAX_MOVE_SNAPSHOT_ROWS = 500_000;

/**
 * Portfolio snapshot rows that moving the clock to `until` would create, counted before anything
 * runs: for each active competition (or pending one that starts by then), its periodic rounds due
 * by `until` (and before its end) times its active participants; a round without participants
 * counts as one, since it still runs.
 */
export function snapshotRowsUntil(tx: ReadTx<Tables>, until: number, interval: number): number {
  let rows = 0;
  for (const c of tx.all('competitions')) {
    const starts = c.status === 'pending' && !c.sandboxMode && c.startDate !== null && c.startDate <= until;
    if (c.status !== 'active' && !starts) continue;
    const next = nextSnapshotAt(c, interval);
    const last = c.endDate === null ? until : Math.min(until, c.endDate - 1);
    if (next === null || next > last) continue;
    rows += (Math.floor((last - next) / interval) + 1) * Math.max(1, activeAgentIds(tx, c.id).length);
  }
  return rows;
}

/** Every job the stored state makes due at or before `until`. */
export function dueJobs(comps: readonly Competition[], until: number, interval: number): Job[] {
  const jobs: Job[] = [];
  comps.forEach((c, seq) => {
    if (c.status === 'pending' && !c.sandboxMode && c.startDate !== null && c.startDate <= until) {
      jobs.push({ kind: 'start', competitionId: c.id, at: c.startDate, seq });
    }
    if (c.status !== 'active') return;
    if (c.endDate !== null && c.endDate <= until) jobs.push({ kind: 'end', competitionId: c.id, at: c.endDate, seq });
    // Perps competitions snapshot too: their job is the perps sync (liquidations, then equity snapshots).
    const next = nextSnapshotAt(c, interval);
    // A periodic snapshot at or after the end date never runs: the end takes the final one.
    if (next !== null && next <= until && (c.endDate === null || next < c.endDate)) {
      jobs.push({ kind: 'snapshot', competitionId: c.id, at: next, seq });
    }
    // Scripted perps/spot-live actions (an action at the end date still runs, before the end).
    const script = c.nextScriptActionAt ?? null;
    if (script !== null && script <= until && (c.endDate === null || script <= c.endDate)) {
      jobs.push({ kind: 'script', competitionId: c.id, at: script, seq });
    }
    // Inference badge refresh every 15 minutes once the competition has submissions (the end freezes them).
    const badge = nextBadgeRefreshAt(c);
    if (badge !== null && badge <= until && (c.endDate === null || badge < c.endDate)) jobs.push({ kind: 'badge', competitionId: c.id, at: badge, seq });
  });
  return jobs.sort((a, b) => a.at - b.at || JOB_ORDER.indexOf(a.kind) - JOB_ORDER.indexOf(b.kind) || a.seq - b.seq);
}

async function runJob(deps: Deps, job: Job): Promise<void> {
  if (job.kind === 'snapshot') return periodicSnapshot(deps, job.competitionId);
  if (job.kind === 'script') return runDueScriptActions(deps, job.competitionId);
  if (job.kind === 'badge') return refreshCompetitionBadges(deps, job.competitionId);
  if (job.kind === 'start') await deps.store.transact((tx) => startCompetitionTx(deps, tx, job.competitionId));
  // The auto-end deactivates teams exactly like the admin end (legacy generation).
  else await endCompetitionWithTeams(deps, job.competitionId);
}

/**
 * Runs every job due up to `target`, earliest first, moving the clock to each job's time (never
 * backwards), then sets the clock to `target`. A job that fails with a rule violation (e.g. an
 * auto-start with nobody registered) is skipped until the next call, as upstream's cron retries.
 */
export async function runUntil(deps: Deps, clock: ManualClockLike, target: number): Promise<Job[]> {
  const ran: Job[] = [];
  const failed = new Set<string>();
  for (;;) {
    const comps = await deps.store.read((tx) => tx.all('competitions'));
    const job = dueJobs(comps, target, deps.config.snapshotIntervalMs).find((j) => !failed.has(`${j.kind}:${j.competitionId}`));
    if (!job) break;
    if (job.at > clock.now()) clock.set(job.at);
    try {
      await runJob(deps, job);
      ran.push(job);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      failed.add(`${job.kind}:${job.competitionId}`);
    }
  }
  if (target > clock.now()) clock.set(target);
  return ran;
}
