// `compsim replay`: arguments and printing; the replay itself (plan, in-process or served run, files) is src/research/replay.ts.
import { join } from 'node:path';
import { parseDuration } from '../harness/steps.js';
import { httpTarget, type Target } from '../harness/targets.js';
import { ScenarioError } from '../harness/schema.js';
import { loadReplayPlan, REPLAY_FILES, runReplay, writeReplay, type ReplayRun } from '../research/replay.js';
import { parseTapes, readForkManifest, readInput, ReplayInputError, type ForkReplayInputs } from '../research/replay-input.js';
import type { ReplayOptions } from '../research/replay-plan.js';
import { bool, choice, defined, failure, opt, parseFlags, seedValue, str, urlValue, UsageError } from './args.js';
import { printable } from './fork.js';
import type { OutputStream } from './run-output.js';

/** Help text of `compsim replay`. */
export const REPLAY_USAGE = `Usage: compsim replay --trades <trades.csv|json> --prices <tape.json> [options]
       compsim replay --fork <dir> [options]

Rebuilds a competition from recorded trades and a price tape on the virtual clock, then prints
the final leaderboard; --out writes the leaderboard at every snapshot, each agent's balance
history, every trade's outcome, an HTML report and the same replay as a scenario. In-process
(the default) the replay drives a world through compsim's library API; with --target it sends
the same calls to a served world.

Trades: CSV with a header row, or JSON (an array or {"trades": [...]}), fields timestamp (ISO or
epoch ms), agent, fromToken, toToken, amount, and optional reason, fromChain, toChain,
fromSpecificChain, toSpecificChain. Tape: {"<chain>:<address>": [[time, price], ...]} (or
{"tapes": {...}}); tokens without a tape keep the catalogue's constant price. Input files are
read as untrusted: at most 256 MB each and 2,000,000 trades.

Options:
  --fork <dir>             a directory written by compsim fork: its trades, tape, starting balances, agents,
                           start, end and snapshot interval (each can still be overridden)
  --balances <file.json>   starting balances of every agent: [{specificChain, tokenSymbol, amount}]
                           (default: the world's default list)
  --seed <n|text>          seed of ids and slippage draws (default 1)
  --slippage <mode>        upstream | expected | none (default upstream)
  --interval <duration>    portfolio snapshot interval, e.g. 5m, 1h (default 5m)
  --start <ISO>, --end <ISO>  competition start / end (default: first trade or tape point / one interval after the last trade)
  --rules <lenient|strict> lenient (default): cross-chain allowed, no token constraints, trades up to 100 %
                           of the portfolio; strict: the hosted service's defaults
  --vs-slippage <mode>     also run a counterfactual with this slippage mode and compare
  --vs-prices <tape.json>  also run a counterfactual on this tape and compare
  --out <dir>              write leaderboards.csv, balances.csv, trades.csv, outcome.json, report.html,
                           summary.md and replay.scenario.json (a counterfactual under <dir>/counterfactual/)
  --target <url> --admin-key <key>  run against a server started with --sim-api instead of in-process
  --json                   print the outcome as JSON on stdout
  -h, --help               show this help`;

/** Parsed `replay` options. */
export interface ReplayArgs {
  trades: string; prices: string; balances?: string; seed: number | string; slippage: ReplayOptions['slippage'];
  intervalMs: number; start?: number; end?: number; rules: ReplayOptions['rules'];
  vsSlippage?: ReplayOptions['slippage']; vsPrices?: string; out?: string; target?: string; adminKey?: string; json: boolean;
  /** Agents registered first, in order (from a fork's manifest). */
  agents?: string[];
  /** The competition's name (a fork's source name). */
  name?: string;
  /** What the report says the replay is of: a fork's competition and source, or the trades file. */
  source: string;
}

const MODES = ['upstream', 'expected', 'none'] as const;

function interval(v: string): number {
  let ms: number;
  try {
    ms = parseDuration(/^\d+$/.test(v) ? Number(v) : v);
  } catch {
    throw new UsageError(`--interval must be a duration such as 5m or 300000, got '${v}'`);
  }
  if (ms < 1000) throw new UsageError('--interval must be at least 1s');
  return ms;
}

function time(name: string, v: string): number {
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) throw new UsageError(`${name} must be an ISO 8601 time, got '${v}'`);
  return ms;
}

const REPLAY_OPTIONS = {
  trades: str, prices: str, balances: str, seed: { type: 'string', default: '1' }, slippage: { type: 'string', default: 'upstream' },
  interval: str, start: str, fork: str, end: str, rules: { type: 'string', default: 'lenient' },
  'vs-slippage': str, 'vs-prices': str, out: str, target: str, 'admin-key': str, json: { ...bool, default: false },
} as const;

function forkInputs(dir: string): ForkReplayInputs {
  try {
    return readForkManifest(dir);
  } catch (err) {
    if (err instanceof ReplayInputError) throw new UsageError(`--fork: ${err.message}`);
    throw err;
  }
}

/** Parses the arguments after `replay`. */
export function parseReplayArgs(argv: readonly string[]): ReplayArgs {
  const { values: v } = parseFlags(argv, REPLAY_OPTIONS);
  const fork = opt(v.fork, forkInputs);
  const args = defined({
    trades: v.trades ?? fork?.trades, prices: v.prices ?? fork?.prices, balances: v.balances ?? fork?.balances, agents: fork?.agents, name: fork?.name,
    seed: seedValue(v.seed), slippage: choice('--slippage', v.slippage, MODES),
    intervalMs: v.interval !== undefined ? interval(v.interval) : fork?.intervalMs ?? interval('5m'),
    start: opt(v.start, (t) => time('--start', t)) ?? fork?.start, end: opt(v.end, (t) => time('--end', t)) ?? fork?.end,
    rules: choice('--rules', v.rules, ['lenient', 'strict']), vsSlippage: opt(v['vs-slippage'], (m) => choice('--vs-slippage', m, MODES)),
    vsPrices: v['vs-prices'], out: v.out, target: opt(v.target, (u) => urlValue('--target', u)), adminKey: v['admin-key'], json: v.json,
  });
  if (args.trades === undefined || args.prices === undefined) throw new UsageError('--trades and --prices (or --fork) are required');
  if ((args.target === undefined) !== (args.adminKey === undefined)) throw new UsageError('--target and --admin-key go together');
  const source = fork !== undefined && v.trades === undefined ? `'${fork.name ?? 'a forked competition'}'${fork.source ? ` from ${fork.source}` : ''}` : args.trades;
  return { ...args, trades: args.trades, prices: args.prices, source };
}

const iso = (ms: number) => new Date(ms).toISOString();
const money = (v: number) => v.toFixed(2);

function finalTable(run: ReplayRun): string[] {
  const w = Math.max(5, ...run.outcome.final.map((r) => r.agent.length));
  return [
    `  ${'rank'.padStart(4)}  ${'agent'.padEnd(w)}  ${'value'.padStart(14)}  ${'start'.padStart(14)}  ${'pnl'.padStart(12)}`,
    ...run.outcome.final.map((r) => `  ${String(r.rank).padStart(4)}  ${r.agent.padEnd(w)}  ${money(r.value).padStart(14)}  ${money(r.startValue).padStart(14)}  ${money(r.pnl).padStart(12)}`),
  ];
}

/** The text summary of one run. */
export function describeRun(run: ReplayRun): string[] {
  const { outcome: o, plan } = run;
  const refused = o.trades.filter((t) => !t.accepted);
  const rounds = new Set(o.leaderboards.map((r) => r.timestamp)).size;
  const lines = [
    `${run.label} of ${run.source} ('${plan.name}'): ${o.trades.length} trades (${o.trades.length - refused.length} accepted, ${refused.length} refused) by ${plan.agents.length} agents, `
      + `${iso(plan.start)} -> ${iso(plan.end)}, ${rounds} snapshot rounds, outcome sha256 ${run.hash}`,
    'final leaderboard:', ...finalTable(run),
  ];
  if (refused.length > 0) lines.push('refused trades:', ...refused.map((t) => `  ${iso(t.trade.timestamp)} ${t.trade.agent}: ${t.error}`));
  return lines;
}

/** Base against counterfactual, agent by agent. */
export function compareRuns(base: ReplayRun, alt: ReplayRun): string[] {
  const w = Math.max(5, ...base.outcome.final.map((r) => r.agent.length));
  const altBy = new Map(alt.outcome.final.map((r) => [r.agent, r]));
  return [
    `${base.label} vs ${alt.label}:`,
    `  ${'agent'.padEnd(w)}  ${'base'.padStart(14)}  ${'counterfactual'.padStart(14)}  ${'difference'.padStart(12)}  rank`,
    ...base.outcome.final.map((r) => {
      const a = altBy.get(r.agent);
      return `  ${r.agent.padEnd(w)}  ${money(r.value).padStart(14)}  ${(a ? money(a.value) : '-').padStart(14)}  ${(a ? money(a.value - r.value) : '-').padStart(12)}  ${r.rank} -> ${a?.rank ?? '-'}`;
    }),
  ];
}

/** Runs one replay of the arguments' trades on `tapes` with `slippage`: in-process, or against `--target` (a target of its own, closed after). */
export async function replayOnce(args: ReplayArgs, tapes: ReturnType<typeof parseTapes>, slippage: ReplayOptions['slippage'], label: string, target?: Target): Promise<ReplayRun> {
  const plan = loadReplayPlan({ trades: args.trades, ...(args.balances !== undefined ? { balances: args.balances } : {}) }, tapes, {
    seed: args.seed, slippage, intervalMs: args.intervalMs, rules: args.rules,
    ...(args.start !== undefined ? { startTime: args.start } : {}), ...(args.end !== undefined ? { endTime: args.end } : {}),
    ...(args.agents ? { agents: args.agents } : {}), ...(args.name !== undefined ? { name: args.name } : {}),
  });
  try {
    return await runReplay(plan, { label, source: args.source, ...(target ? { target } : {}) });
  } finally {
    await target?.close();
  }
}

/** Runs `compsim replay`; resolves to the exit code (1 on unreadable or unreplayable input). */
export async function replayMain(argv: readonly string[], io: { stdout: OutputStream; stderr: OutputStream } = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(`${REPLAY_USAGE}\n`);
    return 0;
  }
  let args: ReplayArgs;
  try {
    args = parseReplayArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return failure('compsim replay', REPLAY_USAGE, err, io.stderr);
  }
  const target = () => (args.target ? httpTarget(args.target, { adminKey: args.adminKey! }) : undefined);
  try {
    const tapes = parseTapes(readInput(args.prices), args.prices);
    const runs: ReplayRun[] = [await replayOnce(args, tapes, args.slippage, 'replay', target())];
    if (args.vsSlippage !== undefined || args.vsPrices !== undefined) {
      const altTapes = args.vsPrices !== undefined ? parseTapes(readInput(args.vsPrices), args.vsPrices) : tapes;
      const what = [args.vsSlippage !== undefined ? `slippage ${args.vsSlippage}` : '', args.vsPrices !== undefined ? `prices ${args.vsPrices}` : ''].filter((s) => s !== '').join(', ');
      runs.push(await replayOnce(args, altTapes, args.vsSlippage ?? args.slippage, `counterfactual (${what})`, target()));
    }
    const human = args.json ? io.stderr : io.stdout;
    // Names and messages may come from a forked source: control characters are not passed to the terminal.
    for (const r of runs) human.write(printable(`${describeRun(r).join('\n')}\n\n`));
    if (runs.length === 2) human.write(printable(`${compareRuns(runs[0]!, runs[1]!).join('\n')}\n`));
    if (args.out !== undefined) {
      writeReplay(runs[0]!, args.out);
      if (runs[1]) writeReplay(runs[1], join(args.out, 'counterfactual'));
      human.write(`written: ${join(args.out, REPLAY_FILES[0])}, ${REPLAY_FILES.slice(1).join(', ')}\n`);
    }
    if (args.json) io.stdout.write(`${JSON.stringify(runs.map((r) => ({ label: r.label, hash: r.hash, ...r.outcome })), null, 2)}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ReplayInputError) && !(err instanceof ScenarioError)) throw err;
    io.stderr.write(printable(`compsim replay: ${(err as Error).message}\n`));
    return 1;
  }
}
