// One scenario file of `compsim run` as a pool task: load, run against a fresh target, collect the report; the output crosses threads.
import { performance } from 'node:perf_hooks';
import { collectReport, type ScenarioReport } from '../harness/report.js';
import { runScenario, type RunEvent, type ScenarioResult } from '../harness/runner.js';
import { loadScenario, ScenarioError } from '../harness/schema.js';
import { httpTarget, TargetUnreachable, type Target } from '../harness/targets.js';
import { worldTarget, type ScenarioWorld } from '../harness/world-target.js';
import type { TaskContext } from '../harness/pool.js';
import { inProcessTarget } from '../world/in-process-target.js';

/** Where a run's requests go, as data (each worker builds its own target from it). */
export type TargetSpec =
  | { kind: 'in-process' }
  /** One existing world of a server (reset before each file). */
  | { kind: 'http'; url: string; adminKey: string }
  /** A fresh world per file on a server that holds many (deleted after the file unless `keep`). */
  | { kind: 'worlds'; url: string; adminKey: string; keep: boolean };

/** What every task of one `compsim run` shares. */
export interface RunSetup {
  target: TargetSpec;
  /** Keep each log's text and read the report data (`--report`). */
  report: boolean;
  /** Send step events (the progress bar of a one-worker run). */
  steps: boolean;
}

/** A scenario result as plain data: `log` is the text when kept, else ''. */
export type PlainResult = Omit<ScenarioResult, 'log'> & { log: string };

/** The output of one file. */
export interface FileOutcome {
  result: PlainResult;
  report?: ScenarioReport;
  /** Wall time of the file in ms (display and JUnit only). */
  ms: number;
  /** The world the file ran in, when `--keep-worlds` kept it. */
  world?: ScenarioWorld;
  /** Why the target stopped answering after the file's steps (its world could not be deleted). */
  unreachable?: string;
}

/** Builds the target a spec names. */
export function targetFor(spec: TargetSpec): Target & { readonly worlds?: readonly ScenarioWorld[] } {
  if (spec.kind === 'worlds') return worldTarget(spec.url, { adminKey: spec.adminKey, ...(spec.keep ? { keep: true } : {}) });
  return spec.kind === 'http' ? httpTarget(spec.url, { adminKey: spec.adminKey }) : inProcessTarget();
}

/** A scenario file that did not validate, as a failed result. */
export function invalidResult(file: string, err: ScenarioError): PlainResult {
  const name = file.split(/[\\/]/).pop()!.replace(/\.scenario\.json$/, '');
  return {
    file, name, seed: '', ok: false, steps: 0, stepsPassed: 0, requests: 0, hash: '', log: '',
    failure: { at: 'file', index: null, verb: 'file', message: err.message },
  };
}

/** `r` as plain data (the log's text read only when it was kept). */
function plain(r: ScenarioResult, keptLog: boolean): PlainResult {
  const out = Object.fromEntries(Object.keys(r).filter((k) => k !== 'log').map((k) => [k, r[k as keyof ScenarioResult]])) as Omit<ScenarioResult, 'log'>;
  return { ...out, log: keptLog ? r.log : '' };
}

/** Runs one file on `target` (the target is the caller's to close). */
export async function runFileOn(file: string, target: Target, setup: Omit<RunSetup, 'target'>, onEvent?: (e: RunEvent) => void): Promise<FileOutcome> {
  const started = performance.now();
  let report: ScenarioReport | undefined;
  let result: PlainResult;
  try {
    const sc = loadScenario(file);
    const r = await runScenario(sc, target, {
      // Only the report writes the log's text; a run without one keeps its hash alone.
      keepLog: setup.report,
      ...(onEvent ? { onEvent } : {}),
      ...(setup.report ? { afterSteps: async (key: string) => void (report = await collectReport(target, key)) } : {}),
    });
    result = plain(r, setup.report);
  } catch (err) {
    if (!(err instanceof ScenarioError)) throw err;
    result = invalidResult(file, err);
  }
  return { result, ...(report ? { report } : {}), ms: performance.now() - started };
}

/** The pool task: one file on a target of its own. */
export async function runFile(file: string, ctx: TaskContext<RunSetup>): Promise<FileOutcome> {
  const target = targetFor(ctx.setup.target);
  let outcome: FileOutcome;
  let lost: string | undefined;
  try {
    outcome = await runFileOn(file, target, ctx.setup, ctx.setup.steps ? (e) => e.kind === 'step' && ctx.emit(e) : undefined);
  } finally {
    // Deleting the file's world needs the server: one that stopped answering is the run's to report.
    await target.close().catch((err: unknown) => {
      if (!(err instanceof TargetUnreachable)) throw err;
      lost = err.message;
    });
  }
  if (lost !== undefined) outcome = { ...outcome, unreachable: lost };
  // A kept world is listed once its file's target closes.
  const world = target.worlds?.[0];
  return world ? { ...outcome, world } : outcome;
}
