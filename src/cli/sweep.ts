// `compsim sweep`: arguments, progress and the printed summary; the sweep itself (runs on the worker pool, statistics, files, merge) is src/research/sweep*.ts.
import { mergeSweeps } from '../research/sweep-merge.js';
import { checkDistinctKeys, checkRunCount, parseSeeds, parseVary, SweepInputError, VARY_KEYS, type Vary } from '../research/sweep-input.js';
import { type SweepData } from '../research/sweep-stats.js';
import { runSweep, writeSweep, type SweepShard, type WrittenSweep } from '../research/sweep.js';
import { failure, parseFlags, str, UsageError } from './args.js';
import type { OutputStream } from './run-output.js';
import { printable } from './fork.js';
import { shardValue, workersValue } from './shard.js';

/** Help text of `compsim sweep`. */
export const SWEEP_USAGE = `Usage: compsim sweep <scenario file | directory> --seeds <list> --out <dir> [options]
       compsim sweep merge <dir> <dir>... --out <dir>

Runs a scenario once as written (the base ranking) and once per seed and combination of
--vary values, each in a fresh in-process world with its expectations unchecked, and writes
the distribution of every agent's final rank and PnL and Kendall's tau against the base ranking.

Options:
  --seeds <list>        seeds to run: ranges and integers, e.g. 1..200 or 1,5,9 or 1..10,50
  --vary <key=v1,v2>    a world setting to vary (repeatable; every combination runs). Keys:
${Object.entries(VARY_KEYS).map(([k, d]) => `                          ${k.padEnd(21)}${d.describe}`).join('\n')}
  --workers <n>         runs at once on worker threads (default: the number of cores)
  --shard <i/n>         run only shard i of n of the runs (merge the shard directories afterwards)
                        (at most 100,000 seeds, and 100,000 runs: seeds × variants)
  --out <dir>           write summary.csv, tau.csv, runs.csv, ranks.csv, report.html and sweep.json
  -h, --help            show this help

A directory holds exactly one *.scenario.json (for instance the replay.scenario.json that
compsim replay --out writes), or is a directory written by compsim fork (fork.json, its trades
and price tape): its replay, with no slippage in the base run.`;

/** Parsed `sweep` options. */
export interface SweepArgs { source: string; seeds: number[]; vary: Vary[]; workers?: number; shard?: SweepShard; out: string }

const SWEEP_OPTIONS = { seeds: str, vary: { type: 'string', multiple: true }, workers: str, shard: str, out: str } as const;

/** `f()`, its input errors as usage errors (exit 2). */
function input<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof SweepInputError) throw new UsageError(err.message);
    throw err;
  }
}

/** Parses the arguments after `sweep`; seeds × variants is checked against its cap here, before anything runs. */
export function parseSweepArgs(argv: readonly string[]): SweepArgs {
  const { values: v, positionals } = parseFlags(argv, SWEEP_OPTIONS, true);
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'name a scenario file or directory' : `name one scenario file or directory, got ${positionals.length}`);
  if (v.seeds === undefined) throw new UsageError('--seeds is required (e.g. --seeds 1..200)');
  if (v.out === undefined) throw new UsageError('--out is required');
  const vary = input(() => (v.vary ?? []).map(parseVary));
  input(() => checkDistinctKeys(vary));
  const seeds = input(() => parseSeeds(v.seeds!));
  input(() => checkRunCount(seeds.length, vary));
  return {
    source: positionals[0]!, seeds, vary, out: v.out,
    ...(v.workers !== undefined ? { workers: workersValue('--workers', v.workers) } : {}),
    ...(v.shard !== undefined ? { shard: shardValue('--shard', v.shard) } : {}),
  };
}

/** Runs `compsim sweep` with parsed arguments; resolves to the exit code (1 when any run stopped early). */
export async function sweepCommand(args: SweepArgs, out: OutputStream): Promise<number> {
  const tty = out.isTTY === true;
  const sharded = args.shard !== undefined && args.shard.count > 1;
  let data: SweepData;
  try {
    data = await runSweep({
      source: args.source, seeds: args.seeds, vary: args.vary, ...(args.workers !== undefined ? { workers: args.workers } : {}),
      ...(args.shard ? { shard: args.shard } : {}),
      onStart: (scenario, list) => {
        const variants = list.total / args.seeds.length;
        const shardText = sharded ? ` (shard ${args.shard!.index}/${args.shard!.count}: ${list.length - 1} of ${list.total})` : '';
        out.write(`sweep ${scenario.file}: ${args.seeds.length} seeds × ${variants} variant${variants === 1 ? '' : 's'} = ${list.total} runs${shardText}, plus the base run\n`);
      },
      onDone: (done, of) => {
        if (tty) out.write(`\r\x1b[2K${done}/${of} runs`);
      },
    });
  } catch (err) {
    if (err instanceof SweepInputError) throw new UsageError(err.message);
    throw err;
  } finally {
    if (tty) out.write('\r\x1b[2K');
  }
  return report(data, writeSweep(args.out, data, sharded ? args.shard! : null), out);
}

/** Prints the outcome and the files; exit 1 when a run stopped early. */
function report(data: SweepData, written: WrittenSweep, out: OutputStream): number {
  const failed = [data.base, ...data.runs].filter((r) => !r.ok);
  if (!data.base.ok) out.write(`the base run stopped early: ${data.base.failure}\n`);
  for (const r of failed.filter((x) => x !== data.base).slice(0, 5)) out.write(`run ${r.run} (seed ${r.seed}) stopped early: ${r.failure}\n`);
  if (failed.length > 5) out.write(`... and ${failed.length - 5} more (runs.csv lists them)\n`);
  for (const t of written.taus) out.write(printable(`${t.variant.label} · ${t.competition}: median Kendall tau vs the base ranking ${t.median.toFixed(3)} over ${t.runs} runs\n`));
  out.write(`${data.runs.length} runs, ${failed.length} stopped early; wrote ${written.paths.join(', ')}\n`);
  return failed.length > 0 ? 1 : 0;
}

/** Merges shard directories into the output an unsharded sweep writes. */
export function mergeCommand(dirs: readonly string[], outDir: string, out: OutputStream): number {
  const data = input(() => mergeSweeps(dirs));
  return report(data, writeSweep(outDir, data, null), out);
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
