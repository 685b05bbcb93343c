// `compsim sweep`: one scenario over many seeds and varied world settings on worker threads (or a shard of the runs), and `sweep merge` of shard outputs.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseTapes, parseTrades, ReplayInputError, replayPlan, type ReplayBalance } from '../research/replay.js';
import { loadScenario, ScenarioError, validateScenario } from '../harness/schema.js';
import { renderSweepHtml } from '../research/sweep-report.js';
import {
  checkVary, docHash, parseSeeds, parseVary, ranksCsv, runsCsv, summarise, summaryCsv, SweepInputError, tauCsv, variants,
  type SweepData, type SweepRun, type Vary,
} from '../research/sweep.js';
import type { Scenario } from '../harness/types.js';
import { failure, parseFlags, str, UsageError } from './args.js';
import { readForkManifest } from './replay.js';
import { defaultWorkers, runPool, TaskError } from './pool.js';
import type { OutputStream } from './run-output.js';
import { pickShard, shardValue, workersValue, type Shard } from './shard.js';
import type { SweepInput, SweepSetup } from './sweep-task.js';

/** Help text of `compsim sweep`. */
export const SWEEP_USAGE = `Usage: compsim sweep <scenario file | directory> --seeds <list> --out <dir> [options]
       compsim sweep merge <dir> <dir>... --out <dir>

Runs a scenario once as written (the base ranking) and once per seed and combination of
--vary values, each in a fresh in-process world with its expectations unchecked, and writes
the distribution of every agent's final rank and PnL and Kendall's tau against the base ranking.

Options:
  --seeds <list>        seeds to run: ranges and integers, e.g. 1..200 or 1,5,9 or 1..10,50
  --vary <key=v1,v2>    a world setting to vary (repeatable; every combination runs). Keys:
                          slippage             upstream, expected or none
                          prices.volatility    random-walk log-return sd per step (> 0, <= 1)
                          prices.stepMs        random-walk step in ms (integer >= 1)
                          maxTradePercentage   largest trade, % of the portfolio (1-100)
                          snapshotIntervalMs   virtual ms between snapshots (integer >= 1000)
  --workers <n>         runs at once on worker threads (default: the number of cores)
  --shard <i/n>         run only shard i of n of the runs (merge the shard directories afterwards)
  --out <dir>           write summary.csv, tau.csv, runs.csv, ranks.csv, report.html and sweep.json
  -h, --help            show this help

A directory holds exactly one *.scenario.json (for instance the replay.scenario.json that
compsim replay --out writes), or is a directory written by compsim fork (fork.json, its trades
and price tape): its replay, with no slippage in the base run.`;

/** Parsed `sweep` options. */
export interface SweepArgs { source: string; seeds: number[]; vary: Vary[]; workers?: number; shard?: Shard; out: string }

const SWEEP_OPTIONS = { seeds: str, vary: { type: 'string', multiple: true }, workers: str, shard: str, out: str } as const;

function input<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof SweepInputError) throw new UsageError(err.message);
    throw err;
  }
}

/** Parses the arguments after `sweep`. */
export function parseSweepArgs(argv: readonly string[]): SweepArgs {
  const { values: v, positionals } = parseFlags(argv, SWEEP_OPTIONS, true);
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name a scenario file or directory' : `name one scenario file or directory, got ${positionals.length}`);
  if (v.seeds === undefined) throw new UsageError('--seeds is required (e.g. --seeds 1..200)');
  if (v.out === undefined) throw new UsageError('--out is required');
  const vary = input(() => (v.vary ?? []).map(parseVary));
  const repeated = vary.find((x, i) => vary.findIndex((y) => y.key === x.key) !== i);
  if (repeated) throw new UsageError(`--vary ${repeated.key} is given twice`);
  return {
    source: positionals[0]!, seeds: input(() => parseSeeds(v.seeds!)), vary, out: v.out,
    ...(v.workers !== undefined ? { workers: workersValue('--workers', v.workers) } : {}),
    ...(v.shard !== undefined ? { shard: shardValue('--shard', v.shard) } : {}),
  };
}

/** The scenario a sweep runs: a file, or the one `*.scenario.json` in a directory. */
export function loadSweepSource(path: string): Scenario {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new UsageError(`no such file or folder: ${path}`);
  }
  if (!st.isDirectory()) return loadScenario(path);
  const found = readdirSync(path).filter((f) => f.endsWith('.scenario.json')).sort();
  if (found.length === 1) return loadScenario(join(path, found[0]!));
  if (found.length > 1) throw new UsageError(`${path} holds ${found.length} scenario files (${found.join(', ')}); name one of them`);
  if (existsSync(join(path, 'fork.json'))) return forkScenario(path);
  throw new UsageError(`${path} holds no *.scenario.json and no fork.json`);
}

/**
 * The replay scenario of a directory written by `compsim fork`: the trades and the price tape its
 * `fork.json` names (`files.trades`, `files.prices`, optional `files.balances`), replayed from
 * `replay.start` to `replay.end` with snapshots every `replay.intervalMs` (`replay.agents` registered
 * first, in order), lenient rules, seed 1 and
 * no slippage (so the base run reproduces the recorded fills), as `compsim replay --fork` does.
 */
export function forkScenario(dir: string): Scenario {
  const path = join(dir, 'fork.json');
  const m = readForkManifest(dir);
  const bad = (why: string) => new UsageError(`${path}: ${why}`);
  const text = (f: string) => {
    try {
      return readFileSync(f, 'utf8');
    } catch (err) {
      throw bad(`cannot read ${f}: ${(err as Error).message}`);
    }
  };
  try {
    const balances = m.balances !== undefined ? (JSON.parse(text(m.balances)) as ReplayBalance[]) : undefined;
    if (balances !== undefined && !Array.isArray(balances)) throw bad(`${m.balances} is not a list of starting balances`);
    const plan = replayPlan(parseTrades(text(m.trades), m.trades), parseTapes(text(m.prices), m.prices), {
      seed: 1, slippage: 'none', intervalMs: m.intervalMs, rules: 'lenient', startTime: m.start, endTime: m.end,
      ...(balances ? { balances } : {}), ...(m.agents ? { agents: m.agents } : {}),
    });
    return { file: path, name: basename(resolve(dir)), doc: validateScenario(plan.doc, path) };
  } catch (err) {
    if (err instanceof ReplayInputError || err instanceof ScenarioError || err instanceof SyntaxError) throw bad((err as Error).message);
    throw err;
  }
}

/** What `sweep.json` holds: the inputs, the shard, and every run's record. */
interface SweepFile extends SweepData { format: 'compsim-sweep'; version: 1; shard: Shard | null; totalRuns: number }

/** Writes every output of `data` into `dir`. */
function writeOutputs(dir: string, data: SweepData, shard: Shard | null): string[] {
  mkdirSync(dir, { recursive: true });
  const { agents, taus } = summarise(data);
  const total = data.seeds.length * variants(data.vary).length;
  const file: SweepFile = { format: 'compsim-sweep', version: 1, ...data, shard, totalRuns: total };
  const files: [string, string][] = [
    ['summary.csv', summaryCsv(data, agents)], ['tau.csv', tauCsv(data, taus)], ['runs.csv', runsCsv(data)], ['ranks.csv', ranksCsv(data)],
    ['report.html', renderSweepHtml(data, agents, taus)], ['sweep.json', `${JSON.stringify(file)}\n`],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}

const TASK = new URL(import.meta.url.endsWith('.ts') ? './sweep-task.ts' : './sweep-task.js', import.meta.url);

/** Runs `compsim sweep` with parsed arguments; resolves to the exit code (1 when any run stopped early). */
export async function sweepCommand(args: SweepArgs, out: OutputStream): Promise<number> {
  let sc: Scenario;
  try {
    sc = loadSweepSource(args.source);
  } catch (err) {
    if (err instanceof ScenarioError) throw new UsageError(err.message);
    throw err;
  }
  input(() => checkVary(sc.doc, args.vary));
  const vs = variants(args.vary);
  const all: SweepInput[] = vs.flatMap((v) => args.seeds.map((seed, k) => ({ run: 1 + v.index * args.seeds.length + k, variant: v.index, seed, values: v.values })));
  const width = String(all.length).length;
  const mine = pickShard(all, args.shard, (r) => String(r.run).padStart(width, '0'));
  const base: SweepInput = { run: 0, variant: -1, seed: sc.doc.seed, values: [] };
  const setup: SweepSetup = { file: sc.file, name: sc.name, doc: sc.doc, vary: args.vary };
  const shardText = args.shard && args.shard.count > 1 ? ` (shard ${args.shard.index}/${args.shard.count}: ${mine.length} of ${all.length})` : '';
  out.write(`sweep ${sc.file}: ${args.seeds.length} seeds × ${vs.length} variant${vs.length === 1 ? '' : 's'} = ${all.length} runs${shardText}, plus the base run\n`);
  let done = 0;
  const tty = out.isTTY === true;
  let results: SweepRun[];
  try {
    results = await runPool([base, ...mine], {
      module: TASK, fn: 'sweepRun', workers: args.workers ?? defaultWorkers(), setup,
      onDone: () => {
        done += 1;
        if (tty) out.write(`\r\x1b[2K${done}/${mine.length + 1} runs`);
      },
    });
  } catch (err) {
    if (err instanceof TaskError) throw new Error(err.message);
    throw err;
  } finally {
    if (tty) out.write('\r\x1b[2K');
  }
  const [baseRun, ...runs] = results as [SweepRun, ...SweepRun[]];
  const data: SweepData = { source: args.source, docHash: docHash(sc.doc), seeds: args.seeds, vary: args.vary, base: baseRun, runs };
  const written = writeOutputs(args.out, data, args.shard && args.shard.count > 1 ? args.shard : null);
  return report(data, written, out);
}

/** Prints the outcome and the files; exit 1 when a run stopped early. */
function report(data: SweepData, written: string[], out: OutputStream): number {
  const failed = [data.base, ...data.runs].filter((r) => !r.ok);
  if (!data.base.ok) out.write(`the base run stopped early: ${data.base.failure}\n`);
  for (const r of failed.filter((x) => x !== data.base).slice(0, 5)) out.write(`run ${r.run} (seed ${r.seed}) stopped early: ${r.failure}\n`);
  if (failed.length > 5) out.write(`... and ${failed.length - 5} more (runs.csv lists them)\n`);
  const { taus } = summarise(data);
  for (const t of taus) out.write(`${t.variant.label} · ${t.competition}: median Kendall tau vs the base ranking ${t.median.toFixed(3)} over ${t.runs} runs\n`);
  out.write(`${data.runs.length} runs, ${failed.length} stopped early; wrote ${written.join(', ')}\n`);
  return failed.length > 0 ? 1 : 0;
}

function readSweepFile(dir: string): SweepFile {
  const path = join(dir, 'sweep.json');
  let doc: SweepFile;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8')) as SweepFile;
  } catch (err) {
    throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (doc?.format !== 'compsim-sweep' || doc.version !== 1 || !Array.isArray(doc.runs)) throw new UsageError(`${path} is not the sweep.json of compsim sweep`);
  return doc;
}

/** Merges shard directories into the output an unsharded sweep writes. */
export function mergeCommand(dirs: readonly string[], outDir: string, out: OutputStream): number {
  if (dirs.length === 0) throw new UsageError('name the shard directories to merge');
  const parts = dirs.map(readSweepFile);
  const first = parts[0]!;
  const same = (p: SweepFile) => p.docHash === first.docHash && p.source === first.source && JSON.stringify(p.seeds) === JSON.stringify(first.seeds)
    && JSON.stringify(p.vary) === JSON.stringify(first.vary) && p.base.hash === first.base.hash;
  const other = parts.findIndex((p) => !same(p));
  if (other >= 0) throw new UsageError(`${dirs[other]} is a sweep of another scenario, seed list or --vary than ${dirs[0]}`);
  const count = first.shard?.count ?? 1;
  const indices = parts.map((p) => p.shard?.index ?? 1);
  if (parts.some((p) => (p.shard?.count ?? 1) !== count)) throw new UsageError('the directories come from different --shard counts');
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indices.includes(i));
  const twice = indices.find((x, i) => indices.indexOf(x) !== i);
  if (twice !== undefined) throw new UsageError(`shard ${twice}/${count} is given twice`);
  if (missing.length > 0) throw new UsageError(`missing shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')}`);
  const runs = parts.flatMap((p) => p.runs).sort((a, b) => a.run - b.run);
  if (runs.length !== first.totalRuns || runs.some((r, i) => r.run !== i + 1)) throw new UsageError(`the shards hold ${runs.length} runs, not the ${first.totalRuns} runs 1..${first.totalRuns}`);
  const data: SweepData = { source: first.source, docHash: first.docHash, seeds: first.seeds, vary: first.vary, base: first.base, runs };
  return report(data, writeOutputs(outDir, data, null), out);
}

/** Entry of `compsim sweep` from main. */
export async function sweepMain(argv: readonly string[], io: { stdout: OutputStream; stderr: OutputStream } = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(`${SWEEP_USAGE}\n`);
    return 0;
  }
  try {
    if (argv[0] === 'merge') {
      const { values: v, positionals } = parseFlags(argv.slice(1), { out: str } as const, true);
      if (v.out === undefined) throw new UsageError('--out is required');
      return mergeCommand(positionals, v.out, io.stdout);
    }
    return await sweepCommand(parseSweepArgs(argv), io.stdout);
  } catch (err) {
    return failure('compsim sweep', SWEEP_USAGE, err, io.stderr);
  }
}
