// Sweeps as a library: the scenario of a file or directory, the runs (made lazily from their numbers, a shard's share or all) on the worker pool, the output files, and the merge of shard outputs.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { defaultWorkers, runPool, TaskError, type InputList } from '../harness/pool.js';
import { loadScenario, ScenarioError, validateScenario } from '../harness/schema.js';
import type { Scenario } from '../harness/types.js';
import { parseTapes, readForkManifest, readInput, ReplayInputError } from './replay-input.js';
import { replayScenario } from './replay-plan.js';
import { loadReplayPlan } from './replay.js';
import { checkDistinctKeys, checkRunCount, checkVary, docHash, SweepInputError, variantAt, variantCount, type Vary } from './sweep-input.js';
import { renderSweepHtml } from './sweep-report.js';
import { summarise, type SweepData, type SweepRun } from './sweep-stats.js';
import { ranksCsv, runsCsv, summaryCsv, tauCsv } from './sweep-tables.js';
import type { SweepInput, SweepSetup } from './sweep-task.js';

/** Shard `index` (1-based) of `count`. */
export interface SweepShard { index: number; count: number }

/**
 * The replay scenario of a directory written by `compsim fork`: the trades and the price tape its
 * `fork.json` names, replayed from `replay.start` to `replay.end` with snapshots every
 * `replay.intervalMs` (`replay.agents` registered first, in order), lenient rules, seed 1 and no
 * slippage (so the base run reproduces the recorded fills), as `compsim replay --fork` does.
 */
export function forkScenario(dir: string): Scenario {
  const path = join(dir, 'fork.json');
  try {
    const m = readForkManifest(dir);
    const files = { trades: m.trades, ...(m.balances !== undefined ? { balances: m.balances } : {}) };
    const plan = loadReplayPlan(files, parseTapes(readInput(m.prices), m.prices), {
      seed: 1, slippage: 'none', intervalMs: m.intervalMs, rules: 'lenient', startTime: m.start, endTime: m.end,
      ...(m.agents ? { agents: m.agents } : {}), ...(m.name !== undefined ? { name: m.name } : {}),
    });
    return { file: path, name: basename(resolve(dir)), doc: validateScenario(replayScenario(plan).doc, path) };
  } catch (err) {
    if (err instanceof ReplayInputError || err instanceof ScenarioError) throw new SweepInputError(err.message.startsWith(path) ? err.message : `${path}: ${err.message}`);
    throw err;
  }
}

/** The scenario a sweep runs: a file, the one `*.scenario.json` in a directory, or a fork directory's replay. */
export function loadSweepSource(path: string): Scenario {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new SweepInputError(`no such file or folder: ${path}`);
  }
  try {
    if (!st.isDirectory()) return loadScenario(path);
    const found = readdirSync(path).filter((f) => f.endsWith('.scenario.json')).sort();
    if (found.length === 1) return loadScenario(join(path, found[0]!));
    if (found.length > 1) throw new SweepInputError(`${path} holds ${found.length} scenario files (${found.join(', ')}); name one of them`);
  } catch (err) {
    if (err instanceof ScenarioError) throw new SweepInputError(err.message);
    throw err;
  }
  if (existsSync(join(path, 'fork.json'))) return forkScenario(path);
  throw new SweepInputError(`${path} holds no *.scenario.json and no fork.json`);
}

/**
 * The runs one sweep makes, computed from their number when the pool asks (none is held before):
 * index 0 is the base run, then this shard's share of runs 1..total. Runs are numbered variant by
 * variant, seeds in order within each; shard i of n takes runs i, i + n, i + 2n ... (round-robin).
 */
export class SweepRunList implements InputList<SweepInput> {
  readonly length: number;
  readonly total: number;
  private readonly step: number;
  private readonly first: number;

  constructor(private readonly seeds: readonly number[], private readonly vary: readonly Vary[], private readonly baseSeed: number | string, shard?: SweepShard) {
    this.total = seeds.length * variantCount(vary);
    this.step = shard?.count ?? 1;
    this.first = shard?.index ?? 1;
    this.length = 1 + (this.total >= this.first ? Math.floor((this.total - this.first) / this.step) + 1 : 0);
  }

  /** Run numbers of this list, in order (the base run's 0 first). */
  runNumber(i: number): number {
    return i === 0 ? 0 : this.first + (i - 1) * this.step;
  }

  at(i: number): SweepInput | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    if (i === 0) return { run: 0, variant: -1, seed: this.baseSeed, values: [] };
    const run = this.runNumber(i);
    const variant = Math.floor((run - 1) / this.seeds.length);
    return { run, variant, seed: this.seeds[(run - 1) % this.seeds.length]!, values: variantAt(this.vary, variant).values };
  }
}

/** What {@link runSweep} runs. */
export interface SweepOptions {
  /** The scenario file or directory, as given. */
  source: string;
  seeds: number[];
  vary: Vary[];
  /** Worker threads (default: the cores this process may use). */
  workers?: number;
  shard?: SweepShard;
  /** Called once the scenario is read, before the first run. */
  onStart?: (scenario: Scenario, list: SweepRunList) => void;
  /** Called as each run finishes (done, runs in all, the base run included). */
  onDone?: (done: number, of: number) => void;
}

const TASK = new URL(import.meta.url.endsWith('.ts') ? './sweep-task.ts' : './sweep-task.js', import.meta.url);

/** Runs a sweep (or one shard of it) on the worker pool; the runs come back in run order, whatever the workers. */
export async function runSweep(o: SweepOptions): Promise<SweepData> {
  checkDistinctKeys(o.vary);
  checkRunCount(o.seeds.length, o.vary);
  const sc = loadSweepSource(o.source);
  checkVary(sc.doc, o.vary);
  const list = new SweepRunList(o.seeds, o.vary, sc.doc.seed, o.shard);
  const setup: SweepSetup = { file: sc.file, name: sc.name, doc: sc.doc, vary: o.vary };
  o.onStart?.(sc, list);
  let done = 0;
  let results: SweepRun[];
  try {
    results = await runPool<SweepInput, SweepRun, SweepSetup>(list, {
      module: TASK, fn: 'sweepRun', workers: o.workers ?? defaultWorkers(), setup, onDone: () => o.onDone?.(++done, list.length),
    });
  } catch (err) {
    if (err instanceof TaskError) throw new Error(err.message);
    throw err;
  }
  const [base, ...runs] = results as [SweepRun, ...SweepRun[]];
  return { source: o.source, docHash: docHash(sc.doc), seeds: o.seeds, vary: o.vary, base, runs };
}

/** What `sweep.json` holds: the inputs, the shard, and every run's record. */
export interface SweepFile extends SweepData { format: 'compsim-sweep'; version: 1; shard: SweepShard | null; totalRuns: number }

/** The files a sweep writes, in order. */
export const SWEEP_FILES = ['summary.csv', 'tau.csv', 'runs.csv', 'ranks.csv', 'report.html', 'sweep.json'] as const;

/** What a written sweep reports: the paths written and the Kendall tau summaries its files hold. */
export interface WrittenSweep { paths: string[]; taus: ReturnType<typeof summarise>['taus'] }

/** Writes every output of `data` into `dir`; returns the paths written and the tau summaries (computed once). */
export function writeSweep(dir: string, data: SweepData, shard: SweepShard | null): WrittenSweep {
  mkdirSync(dir, { recursive: true });
  const { agents, taus } = summarise(data);
  const file: SweepFile = { format: 'compsim-sweep', version: 1, ...data, shard, totalRuns: data.seeds.length * variantCount(data.vary) };
  const text: Record<(typeof SWEEP_FILES)[number], string> = {
    'summary.csv': summaryCsv(data, agents), 'tau.csv': tauCsv(data, taus), 'runs.csv': runsCsv(data), 'ranks.csv': ranksCsv(data),
    'report.html': renderSweepHtml(data, agents, taus), 'sweep.json': `${JSON.stringify(file)}\n`,
  };
  const paths = SWEEP_FILES.map((name) => {
    writeFileSync(join(dir, name), text[name]);
    return join(dir, name);
  });
  return { paths, taus };
}
