// `compsim run`: runs scenario files against a target, prints progress and failures, writes reports; exit 0/1/2.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findScenarioFiles, MissingPathError } from '../sim/scenario/files.js';
import { renderHtml } from '../sim/scenario/report-html.js';
import { collectReport, renderMarkdown, runResult, type ScenarioReport } from '../sim/scenario/report.js';
import { runScenario, type ScenarioResult } from '../sim/scenario/runner.js';
import { loadScenario, ScenarioError } from '../sim/scenario/schema.js';
import { httpTarget, type Target } from '../sim/scenario/targets.js';
import { worldTarget, type ScenarioWorld } from '../sim/scenario/world-target.js';
import { bool, defined, failure, opt, parseFlags, str, urlValue, UsageError } from './args.js';
import { inProcessTarget } from './in-process-target.js';
import { Progress, type OutputStream } from './run-output.js';

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
}

/** Help text of `compsim run`. */
export const RUN_USAGE = `Usage: compsim run <scenario files or folders...> [options]

Runs *.scenario.json files (folders are searched recursively) and exits 0 when all pass,
1 when any fails, 2 on usage errors.

Options:
  --target <url>        run against a server (e.g. http://127.0.0.1:3000 started with
                        compsim serve --sim-api --admin-key K), each scenario in a fresh world created
                        there and deleted after it; default: in-process, a fresh world per scenario
  --admin-key <key>     admin key of the --target server's default world, or its server key (required with --target)
  --keep-worlds         keep the worlds created on --target and print their URLs and admin keys
  --target-world <id>   run in this existing world of --target instead (reset before each scenario):
                        'default' is the server's default world; --admin-key is then that world's admin key
  --report <dir>        write result.json, summary.md, report.html and logs/*.jsonl into <dir>
  --json                print the JSON result on stdout (progress goes to stderr)
  -h, --help            show this help`;

const RUN_OPTIONS = { target: str, 'admin-key': str, 'target-world': str, 'keep-worlds': bool, report: str, json: { ...bool, default: false } } as const;

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
  return defined({ paths, target, adminKey: v['admin-key'], targetWorld, keepWorlds: v['keep-worlds'] || undefined, report: v.report, json: v.json });
}

/** Streams of one invocation. */
export interface RunIo { stdout: OutputStream; stderr: OutputStream }

/** A scenario file that did not validate, as a failed result. */
function invalidResult(file: string, err: ScenarioError): ScenarioResult {
  const name = file.split(/[\\/]/).pop()!.replace(/\.scenario\.json$/, '');
  return {
    file, name, seed: '', ok: false, steps: 0, stepsPassed: 0, requests: 0, hash: '', log: '',
    failure: { at: 'file', index: null, verb: 'file', message: err.message },
  };
}

/**
 * A file-system-safe name for a scenario's log file: its path from the working directory with
 * `__` between folders, `up` for each `..`, and never a leading dot (which would hide the file).
 */
export function logFileName(file: string): string {
  const parts = relative('.', file).replace(/\.scenario\.json$/, '').split(/[\\/]+/)
    .filter((p) => p !== '' && p !== '.').map((p) => (p === '..' ? 'up' : p));
  return `${parts.join('__').replace(/[^A-Za-z0-9._-]+/g, '__').replace(/^\.+/, '')}.jsonl`;
}

/** The target of `--target`: a fresh world per scenario, or the named world (`default`: the server's own, the only way a run resets it). */
function remoteTarget(args: RunArgs): Target {
  const url = args.target!;
  if (args.targetWorld === undefined) return worldTarget(url, { adminKey: args.adminKey!, ...(args.keepWorlds ? { keep: true } : {}) });
  return httpTarget(args.targetWorld === 'default' ? url : `${url}/worlds/${args.targetWorld}`, { adminKey: args.adminKey! });
}

/** Runs `compsim run` with parsed arguments; resolves to the exit code. */
export async function runCommand(args: RunArgs, io: RunIo, makeTarget?: () => Target): Promise<number> {
  let files: string[];
  try {
    files = findScenarioFiles(args.paths);
  } catch (err) {
    if (err instanceof MissingPathError) throw new UsageError(err.message);
    throw err;
  }
  if (files.length === 0) throw new UsageError(`no *.scenario.json files in ${args.paths.join(', ')}`);
  const human = args.json ? io.stderr : io.stdout;
  const target = makeTarget ? makeTarget() : args.target ? remoteTarget(args) : inProcessTarget();
  const progress = new Progress(human, files.length);
  const results: ScenarioResult[] = [];
  const reports = new Map<string, ScenarioReport>();
  try {
    for (const [i, file] of files.entries()) {
      progress.begin(i, file);
      let result: ScenarioResult;
      try {
        const sc = loadScenario(file);
        result = await runScenario(sc, target, {
          // Only the report writes the log's text; a run without one keeps its hash alone.
          onEvent: progress.onEvent, keepLog: args.report !== undefined,
          ...(args.report !== undefined ? { afterSteps: async (key: string) => void reports.set(file, await collectReport(target, key)) } : {}),
        });
      } catch (err) {
        if (!(err instanceof ScenarioError)) throw err;
        result = invalidResult(file, err);
      }
      results.push(result);
      progress.end(result);
    }
  } finally {
    progress.finish();
    await target.close();
  }
  const run = runResult(target.label, results, args.report !== undefined ? reports : undefined);
  const failed = run.summary.failed;
  human.write(`\n${run.summary.scenarios} scenario${run.summary.scenarios === 1 ? '' : 's'}: ${run.summary.passed} passed, ${failed} failed (target: ${target.label})\n`);
  if (args.report !== undefined) {
    const dir = args.report;
    mkdirSync(join(dir, 'logs'), { recursive: true });
    writeFileSync(join(dir, 'result.json'), `${JSON.stringify(run, null, 2)}\n`);
    writeFileSync(join(dir, 'summary.md'), renderMarkdown(run));
    writeFileSync(join(dir, 'report.html'), renderHtml(run));
    for (const r of results) if (r.log !== '') writeFileSync(join(dir, 'logs', logFileName(r.file)), r.log);
    human.write(`report: ${join(dir, 'report.html')}, ${join(dir, 'summary.md')}, ${join(dir, 'result.json')}\n`);
  }
  const kept = (target as { worlds?: readonly ScenarioWorld[] }).worlds ?? [];
  if (kept.length > 0) {
    human.write(`kept ${kept.length} world${kept.length === 1 ? '' : 's'} (delete with DELETE ${args.target}/api/sim/worlds/<id>):\n`);
    for (const w of kept) human.write(`  ${w.file}: ${w.url}  admin key ${w.adminKey}\n`);
  }
  if (args.json) io.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
  return failed > 0 ? 1 : 0;
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
