// `compsim run`: runs scenario files (a stable shard of them, on worker threads) against a target, prints progress and failures, writes reports and JUnit XML; exit 0/1/2/3.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { findScenarioFiles, MissingPathError } from '../harness/files.js';
import { renderHtml } from '../harness/report-html.js';
import { renderMarkdown, runResult, type ScenarioReport } from '../harness/report.js';
import type { RunEvent } from '../harness/runner.js';
import { TargetUnreachable, unreachable, type Target } from '../harness/targets.js';
import type { ScenarioWorld } from '../harness/world-target.js';
import { bool, defined, failure, opt, parseFlags, str, urlValue, UsageError } from './args.js';
import { renderJunit } from './junit.js';
import { defaultWorkers, runPool, TaskError } from '../harness/pool.js';
import { Progress, type OutputStream } from './run-output.js';
import { runFileOn, targetFor, type FileOutcome, type RunSetup, type TargetSpec } from './run-task.js';
import { pickShard, shardValue, workersValue, type Shard } from './shard.js';

/** Parsed `run` options. */
export interface RunArgs {
  paths: string[];
  target?: string;
  adminKey?: string;
  /** With `target`: run every scenario in this existing world (`default`: the server's default world) instead of a fresh one each. */
  targetWorld?: string;
  /** With `target`: keep the fresh worlds and print their URLs. */
  keepWorlds?: boolean;
  report?: string;
  json: boolean;
  /** `--workers n` (default: the number of cores; 1 with --target-world). */
  workers?: number;
  /** `--shard i/n`: run only this stable share of the files. */
  shard?: Shard;
  /** `--junit FILE`: write JUnit XML. */
  junit?: string;
}

/** Help text of `compsim run`. */
export const RUN_USAGE = `Usage: compsim run <scenario files or folders...> [options]

Runs *.scenario.json files (folders are searched recursively) and exits 0 when all pass,
1 when any fails, 2 on usage errors, 3 when the --target server does not answer (no file is
then counted as failed; --junit shows it as one error).

Options:
  --target <url>        run against a server (e.g. http://127.0.0.1:3000 started with
                        compsim serve --sim-api --admin-key K), each scenario in a fresh world created
                        there and deleted after it; default: in-process, a fresh world per scenario
  --admin-key <key>     admin key of the --target server's default world, or its server key (required with --target)
  --keep-worlds         keep the worlds created on --target and print their URLs and admin keys
  --target-world <id>   run in this existing world of --target instead (reset before each scenario):
                        'default' is the server's default world; --admin-key is then that world's admin key
  --workers <n>         files run at once on worker threads (default: the number of cores; 1 with
                        --target-world); each file gives the same result and hash as alone
  --shard <i/n>         run only shard i of n: the files sorted by path and dealt out round-robin,
                        so n jobs given 1/n ... n/n together run every file exactly once
  --junit <file>        write JUnit XML (one testcase per scenario file) to <file>
  --report <dir>        write result.json, summary.md, report.html and logs/*.jsonl into <dir>
  --json                print the JSON result on stdout (progress goes to stderr)
  -h, --help            show this help`;

const RUN_OPTIONS = {
  target: str, 'admin-key': str, 'target-world': str, 'keep-worlds': bool, report: str, json: { ...bool, default: false },
  workers: str, shard: str, junit: str,
} as const;

/** Parses the arguments after `run`. */
export function parseRunArgs(argv: readonly string[]): RunArgs {
  const { values: v, positionals: paths } = parseFlags(argv, RUN_OPTIONS, true);
  const target = opt(v.target, (u) => urlValue('--target', u));
  if (paths.length === 0) throw new UsageError('name at least one scenario file or folder');
  if (target !== undefined && v['admin-key'] === undefined) throw new UsageError('--target needs --admin-key (the admin key the server was started with)');
  if (target === undefined && v['admin-key'] !== undefined) throw new UsageError('--admin-key only goes with --target');
  const targetWorld = v['target-world'];
  if (targetWorld !== undefined && target === undefined) throw new UsageError('--target-world only goes with --target');
  if (targetWorld !== undefined && !/^[a-z0-9][a-z0-9-]{0,62}$/.test(targetWorld)) throw new UsageError(`--target-world must be a world id such as default or w3, got '${targetWorld}'`);
  if (v['keep-worlds'] && target === undefined) throw new UsageError('--keep-worlds only goes with --target');
  if (v['keep-worlds'] && targetWorld !== undefined) throw new UsageError('--keep-worlds and --target-world do not go together (--target-world runs in a world that exists already)');
  const workers = opt(v.workers, (w) => workersValue('--workers', w));
  // Every file resets the one named world: two files cannot use it at the same time.
  if (targetWorld !== undefined && workers !== undefined && workers > 1) throw new UsageError('--workers above 1 does not go with --target-world (every file resets that one world)');
  return defined({
    paths, target, adminKey: v['admin-key'], targetWorld, keepWorlds: v['keep-worlds'] || undefined, report: v.report, json: v.json, workers,
    shard: opt(v.shard, (s) => shardValue('--shard', s)), junit: v.junit,
  });
}

/** Streams of one invocation. */
export interface RunIo { stdout: OutputStream; stderr: OutputStream }

/**
 * A file-system-safe name for a scenario's log file: its path from the working directory with
 * `__` between folders, `up` for each `..`, and never a leading dot (which would hide the file).
 */
export function logFileName(file: string): string {
  const parts = relative('.', file).replace(/\.scenario\.json$/, '').split(/[\\/]+/)
    .filter((p) => p !== '' && p !== '.').map((p) => (p === '..' ? 'up' : p));
  return `${parts.join('__').replace(/[^A-Za-z0-9._-]+/g, '__').replace(/^\.+/, '')}.jsonl`;
}

/** A file's path with `/` separators and no `.` segments: the key shards sort by (the same on every OS). */
export function shardKey(file: string): string {
  return file.split(/[\\/]+/).filter((p) => p !== '.' && p !== '').join('/');
}

/** File indices by size, biggest first (ties in file order). */
function bySizeDescending(files: readonly string[]): number[] {
  const size = files.map((f) => {
    try {
      return statSync(f).size;
    } catch {
      return 0;
    }
  });
  return files.map((_, i) => i).sort((a, b) => size[b]! - size[a]! || a - b);
}

/** The module of {@link runFile} as this build names it (`.ts` when run from the sources). */
const RUN_TASK = new URL(import.meta.url.endsWith('.ts') ? './run-task.ts' : './run-task.js', import.meta.url);

/** Where `--target` sends the files: a fresh world per file, or the named world (`default`: the server's own, the only way a run resets it). */
function remoteSpec(args: RunArgs): TargetSpec {
  const url = args.target!.replace(/\/+$/, '');
  if (args.targetWorld === undefined) return { kind: 'worlds', url, adminKey: args.adminKey!, keep: args.keepWorlds === true };
  return { kind: 'http', url: args.targetWorld === 'default' ? url : `${url}/worlds/${args.targetWorld}`, adminKey: args.adminKey! };
}

/** Exit code of a run whose target did not answer (server down, wrong port): not a scenario failure. */
export const EXIT_UNREACHABLE = 3;

/** Checks that the target answers at all (any HTTP status will do) before any file runs. */
async function probe(spec: TargetSpec): Promise<void> {
  if (spec.kind === 'in-process') return;
  try {
    await (await fetch(`${spec.url}/api/health`)).arrayBuffer();
  } catch (err) {
    throw unreachable(spec.url, err);
  }
}

/** What running the files gave, in file order. */
interface Ran { outcomes: FileOutcome[]; targetLabel: string; callerWorlds: readonly ScenarioWorld[] }

/** Runs the files on a caller's own target object, here, one after another (it cannot cross threads). */
async function runOnCallerTarget(files: string[], target: Target, report: boolean, progress: Progress): Promise<Ran> {
  const outcomes: FileOutcome[] = [];
  try {
    for (const [i, file] of files.entries()) {
      progress.begin(i, file);
      const outcome = await runFileOn(file, target, { report, steps: true }, progress.onEvent);
      outcomes.push(outcome);
      progress.end(outcome.result, outcome.ms);
    }
  } finally {
    progress.finish();
    await target.close();
  }
  return { outcomes, targetLabel: target.label, callerWorlds: (target as { worlds?: readonly ScenarioWorld[] }).worlds ?? [] };
}

/** Runs the files on worker threads (or in this thread with one worker), printing results in file order. */
async function runOnPool(files: string[], args: RunArgs, spec: TargetSpec, progress: Progress): Promise<Ran> {
  const outcomes: FileOutcome[] = new Array<FileOutcome>(files.length);
  const workers = args.workers ?? (args.targetWorld !== undefined ? 1 : defaultWorkers());
  const setup: RunSetup = { target: spec, report: args.report !== undefined, steps: Math.min(workers, files.length) <= 1 };
  // Lines come out in file order whatever order the files finish in.
  let printed = 0;
  const done = new Map<number, FileOutcome>();
  try {
    await runPool(files, {
      module: RUN_TASK, fn: 'runFile', workers, setup,
      // With several workers the biggest files go first, so no long file starts last.
      ...(workers > 1 ? { order: bySizeDescending(files) } : {}),
      onStart: (i) => progress.begin(i, files[i]!),
      onEvent: (_, e) => progress.onEvent(e as RunEvent),
      onDone: (i, outcome: FileOutcome) => {
        outcomes[i] = outcome;
        done.set(i, outcome);
        for (let o = done.get(printed); o !== undefined; o = done.get(printed)) {
          progress.end(o.result, o.ms);
          done.delete(printed++);
        }
      },
    });
  } catch (err) {
    if (err instanceof TaskError) throw new Error(err.message);
    throw err;
  } finally {
    progress.finish();
  }
  return { outcomes, targetLabel: targetFor(spec).label, callerWorlds: [] };
}

/** Writes `--report` and `--junit` (a target that stopped answering is one `<error>` there, not a failure per file). */
function writeFiles(args: RunArgs, run: ReturnType<typeof runResult>, outcomes: FileOutcome[], down: string | undefined, human: OutputStream): void {
  if (args.report !== undefined) {
    const dir = args.report;
    mkdirSync(join(dir, 'logs'), { recursive: true });
    writeFileSync(join(dir, 'result.json'), `${JSON.stringify(run, null, 2)}\n`);
    writeFileSync(join(dir, 'summary.md'), renderMarkdown(run));
    writeFileSync(join(dir, 'report.html'), renderHtml(run));
    for (const o of outcomes) if (o.result.log !== '') writeFileSync(join(dir, 'logs', logFileName(o.result.file)), o.result.log);
    human.write(`report: ${join(dir, 'report.html')}, ${join(dir, 'summary.md')}, ${join(dir, 'result.json')}\n`);
  }
  if (args.junit !== undefined) {
    const suite = args.shard && args.shard.count > 1 ? `compsim run (shard ${args.shard.index}/${args.shard.count})` : 'compsim run';
    mkdirSync(dirname(args.junit), { recursive: true });
    writeFileSync(args.junit, renderJunit(suite, outcomes.map((o) => ({ result: o.result, ms: o.ms })), run.target, down));
    human.write(`junit: ${args.junit}\n`);
  }
}

/**
 * Runs `compsim run` with parsed arguments; resolves to the exit code: 0 all passed, 1 any
 * failed, {@link EXIT_UNREACHABLE} when the target did not answer (no file is then counted failed).
 */
export async function runCommand(args: RunArgs, io: RunIo, makeTarget?: () => Target): Promise<number> {
  let all: string[];
  try {
    all = findScenarioFiles(args.paths);
  } catch (err) {
    if (err instanceof MissingPathError) throw new UsageError(err.message);
    throw err;
  }
  if (all.length === 0) throw new UsageError(`no *.scenario.json files in ${args.paths.join(', ')}`);
  const files = pickShard(all, args.shard, shardKey);
  const human = args.json ? io.stderr : io.stdout;
  const spec: TargetSpec = args.target ? remoteSpec(args) : { kind: 'in-process' };
  if (args.shard && args.shard.count > 1) human.write(`shard ${args.shard.index}/${args.shard.count}: ${files.length} of ${all.length} scenario files\n`);
  let ran: Ran;
  let down: string | undefined;
  try {
    if (!makeTarget) await probe(spec);
    const progress = new Progress(human, files.length);
    ran = makeTarget ? await runOnCallerTarget(files, makeTarget(), args.report !== undefined, progress) : await runOnPool(files, args, spec, progress);
  } catch (err) {
    if (!(err instanceof TargetUnreachable)) throw err;
    ran = { outcomes: [], targetLabel: targetFor(spec).label, callerWorlds: [] };
    down = err.message;
  }
  // Files the target stopped answering during are not the scenarios' failures: the run reports the target instead.
  const lost = ran.outcomes.filter((o) => o.result.failure?.unreachable);
  down ??= lost[0]?.result.failure?.message ?? ran.outcomes.find((o) => o.unreachable !== undefined)?.unreachable;
  const outcomes = ran.outcomes.filter((o) => !o.result.failure?.unreachable);
  const reports = new Map<string, ScenarioReport>();
  for (const o of outcomes) if (o.report) reports.set(o.result.file, o.report);
  const run = runResult(ran.targetLabel, outcomes.map((o) => o.result), args.report !== undefined ? reports : undefined);
  const failed = run.summary.failed;
  human.write(`\n${run.summary.scenarios} scenario${run.summary.scenarios === 1 ? '' : 's'}: ${run.summary.passed} passed, ${failed} failed (target: ${ran.targetLabel})\n`);
  writeFiles(args, run, outcomes, down, human);
  const kept = [...ran.callerWorlds, ...outcomes.flatMap((o) => (o.world ? [o.world] : []))];
  if (kept.length > 0) {
    human.write(`kept ${kept.length} world${kept.length === 1 ? '' : 's'} (delete with DELETE ${args.target}/api/sim/worlds/<id>):\n`);
    for (const w of kept) human.write(`  ${w.file}: ${w.url}  admin key ${w.adminKey}\n`);
  }
  if (args.json) io.stdout.write(`${JSON.stringify(down === undefined ? run : { ...run, ok: false, unreachable: down }, null, 2)}\n`);
  if (down === undefined) return failed > 0 ? 1 : 0;
  const notRun = files.length - outcomes.length;
  io.stderr.write(`compsim run: ${down} (is the server up? start it with compsim serve --sim-api); ${notRun} of ${files.length} scenario file${files.length === 1 ? '' : 's'} did not run\n`);
  return EXIT_UNREACHABLE;
}

/** Entry of `compsim run` from main: parses, runs, maps usage errors to exit code 2. */
export async function runMain(argv: readonly string[], io: RunIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(`${RUN_USAGE}\n`);
    return 0;
  }
  try {
    return await runCommand(parseRunArgs(argv), io);
  } catch (err) {
    return failure('compsim run', RUN_USAGE, err, io.stderr);
  }
}
