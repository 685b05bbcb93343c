// `compsim replay`: rebuilds a competition from recorded trades and a price tape on the virtual clock; leaderboards, balance histories, counterfactuals.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderHtml } from '../harness/report-html.js';
import { collectReport, renderMarkdown, runResult, type ScenarioReport } from '../harness/report.js';
import {
  analyzeReplay, parseTapes, parseTrades, replayPlan, ReplayInputError, ReplayRecorder, toCsv,
  type ReplayBalance, type ReplayOptions, type ReplayOutcome, type ReplayPlan, type SnapshotRow, type Tapes,
} from '../research/replay.js';
import { runScenario, type ScenarioResult } from '../harness/runner.js';
import { validateScenario } from '../harness/schema.js';
import { parseDuration } from '../harness/steps.js';
import { httpTarget, type Target } from '../harness/targets.js';
import { bool, choice, defined, failure, opt, parseFlags, seedValue, str, urlValue, UsageError } from './args.js';
import { inProcessTarget } from '../world/in-process-target.js';
import type { OutputStream } from './run-output.js';

/** Help text of `compsim replay`. */
export const REPLAY_USAGE = `Usage: compsim replay --trades <trades.csv|json> --prices <tape.json> [options]
       compsim replay --fork <dir> [options]

Rebuilds a competition from recorded trades and a price tape on the virtual clock, then prints
the final leaderboard; --out writes the leaderboard at every snapshot, each agent's balance
history, every trade's outcome, an HTML report and the scenario that reproduces the run.

Trades: CSV with a header row, or JSON (an array or {"trades": [...]}), fields timestamp (ISO or
epoch ms), agent, fromToken, toToken, amount, and optional reason, fromChain, toChain,
fromSpecificChain, toSpecificChain. Tape: {"<chain>:<address>": [[time, price], ...]} (or
{"tapes": {...}}); tokens without a tape keep the catalogue's constant price.

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

/** Parses the arguments after `replay`. */
export function parseReplayArgs(argv: readonly string[]): ReplayArgs {
  const { values: v } = parseFlags(argv, REPLAY_OPTIONS);
  const fork = opt(v.fork, (dir) => {
    try {
      return readForkManifest(dir);
    } catch (err) {
      throw err instanceof UsageError ? new UsageError(`--fork: ${err.message}`) : err;
    }
  });
  const args = defined({
    ...fork,
    ...defined({ trades: v.trades, prices: v.prices, balances: v.balances }),
    seed: seedValue(v.seed), slippage: choice('--slippage', v.slippage, MODES),
    intervalMs: v.interval !== undefined ? interval(v.interval) : fork?.intervalMs ?? interval('5m'),
    start: opt(v.start, (t) => time('--start', t)) ?? fork?.start, end: opt(v.end, (t) => time('--end', t)) ?? fork?.end,
    rules: choice('--rules', v.rules, ['lenient', 'strict']), vsSlippage: opt(v['vs-slippage'], (m) => choice('--vs-slippage', m, MODES)),
    vsPrices: v['vs-prices'], out: v.out, target: opt(v.target, (u) => urlValue('--target', u)), adminKey: v['admin-key'], json: v.json,
  });
  if (args.trades === undefined || args.prices === undefined) throw new UsageError('--trades and --prices (or --fork) are required');
  if ((args.target === undefined) !== (args.adminKey === undefined)) throw new UsageError('--target and --admin-key go together');
  return { ...args, trades: args.trades, prices: args.prices };
}

/** What a fork directory's manifest (`fork.json`) gives a replay: file paths (joined to the directory), times in ms, agents. */
export interface ForkManifest {
  trades: string;
  prices: string;
  balances?: string;
  intervalMs: number;
  start: number;
  end: number;
  agents?: string[];
}

/** Reads `dir/fork.json` (`replay --fork` and `sweep` of a fork directory); a bad manifest throws a UsageError naming the file. */
export function readForkManifest(dir: string): ForkManifest {
  const path = join(dir, 'fork.json');
  const bad = (why: string) => new UsageError(`${path}: ${why}`);
  let m: { files?: Record<string, unknown>; replay?: Record<string, unknown> };
  try {
    m = JSON.parse(readFileSync(path, 'utf8')) as typeof m;
  } catch (err) {
    throw bad(`cannot read it: ${(err as Error).message}`);
  }
  const files = m?.files ?? {};
  const r = m?.replay ?? {};
  if (typeof files.trades !== 'string' || typeof files.prices !== 'string' || typeof r.start !== 'string' || typeof r.end !== 'string' || typeof r.intervalMs !== 'number') {
    throw bad('not a fork manifest (files.trades, files.prices, replay.start, replay.end, replay.intervalMs)');
  }
  const at = (what: string, v: string) => {
    const ms = Date.parse(v);
    if (!Number.isFinite(ms)) throw bad(`${what} is not an ISO time: '${v}'`);
    return ms;
  };
  const balances = typeof files.balances === 'string' && existsSync(join(dir, files.balances)) ? join(dir, files.balances) : undefined;
  return defined({
    trades: join(dir, files.trades), prices: join(dir, files.prices), balances, intervalMs: r.intervalMs,
    start: at('replay.start', r.start), end: at('replay.end', r.end), agents: Array.isArray(r.agents) ? r.agents.map(String) : undefined,
  });
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ReplayInputError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

function readBalances(path: string): ReplayBalance[] {
  let doc: unknown;
  try {
    doc = JSON.parse(read(path));
  } catch (err) {
    if (err instanceof ReplayInputError) throw err;
    throw new ReplayInputError(`${path}: not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(doc)) throw new ReplayInputError(`${path}: expected [{"specificChain", "tokenSymbol", "amount"}, ...]`);
  return doc as ReplayBalance[];
}

/** One replay run: its plan, scenario result, read-back outcome and report data. */
export interface ReplayRun { label: string; plan: ReplayPlan; result: ScenarioResult; outcome: ReplayOutcome; report: ScenarioReport | null }

/** Builds the plan for `tapes`/`slippage`, runs it and reads the outcome back. */
export async function runReplay(args: ReplayArgs, tapes: Tapes, slippage: ReplayOptions['slippage'], label: string, target: Target): Promise<ReplayRun> {
  const trades = parseTrades(read(args.trades), args.trades);
  const balances = args.balances !== undefined ? readBalances(args.balances) : undefined;
  const plan = replayPlan(trades, tapes, {
    seed: args.seed, slippage, intervalMs: args.intervalMs, rules: args.rules,
    ...(args.start !== undefined ? { startTime: args.start } : {}), ...(args.end !== undefined ? { endTime: args.end } : {}),
    ...(balances ? { balances } : {}), ...(args.agents ? { agents: args.agents } : {}),
  });
  const file = `replay:${label}`;
  const doc = validateScenario(plan.doc, file);
  let snapshots: SnapshotRow[] = [];
  let report: ScenarioReport | null = null;
  const recorder = new ReplayRecorder(plan);
  const result = await runScenario({ file, name: label, doc }, target, {
    // The outcome comes from the recorder and the report: the log's text is never read, only its hash.
    onExchange: recorder.observe, keepLog: false,
    afterSteps: async (adminKey) => {
      // The report reads the competition's snapshots anyway: the outcome takes them from there.
      report = await collectReport(target, adminKey, {
        onSnapshots: (c, rows) => {
          if (c.name === 'Replay') snapshots = rows as unknown as SnapshotRow[];
        },
      });
    },
  });
  if (!result.ok) {
    const f = result.failure!;
    throw new ReplayInputError(`the replay stopped at ${f.at}: ${f.message}${f.response ? ` (${JSON.stringify(f.response.body)})` : ''}`);
  }
  return { label, plan, result, outcome: analyzeReplay(plan, recorder, snapshots), report };
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
    `${run.label}: ${o.trades.length} trades (${o.trades.length - refused.length} accepted, ${refused.length} refused) by ${plan.agents.length} agents, ${iso(plan.start)} -> ${iso(plan.end)}, ${rounds} snapshot rounds, sha256 ${run.result.hash}`,
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

/** Writes a run's files into `dir`. */
export function writeRun(run: ReplayRun, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const o = run.outcome;
  writeFileSync(join(dir, 'replay.scenario.json'), `${JSON.stringify(run.plan.doc, null, 2)}\n`);
  writeFileSync(join(dir, 'leaderboards.csv'), toCsv(['timestamp', 'rank', 'agent', 'value'], o.leaderboards.map((r) => [iso(r.timestamp), r.rank, r.agent, r.value])));
  writeFileSync(join(dir, 'balances.csv'), toCsv(['timestamp', 'agent', 'token', 'symbol', 'change', 'balance'],
    o.balances.map((b) => [iso(b.timestamp), b.agent, b.token, b.symbol, b.change, b.balance])));
  writeFileSync(join(dir, 'trades.csv'), toCsv(['timestamp', 'agent', 'fromToken', 'toToken', 'amount', 'status', 'accepted', 'toAmount', 'tradeAmountUsd', 'error'],
    o.trades.map((t) => [iso(t.trade.timestamp), t.trade.agent, t.trade.fromToken, t.trade.toToken, t.trade.amount, t.status, t.accepted, t.toAmount, t.tradeAmountUsd, t.error])));
  writeFileSync(join(dir, 'outcome.json'), `${JSON.stringify({ hash: run.result.hash, ...o }, null, 2)}\n`);
  const rr = runResult('in-process', [run.result], run.report ? new Map([[run.result.file, run.report]]) : undefined);
  writeFileSync(join(dir, 'summary.md'), renderMarkdown(rr));
  writeFileSync(join(dir, 'report.html'), renderHtml(rr));
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
  const makeTarget = () => (args.target ? httpTarget(args.target, { adminKey: args.adminKey! }) : inProcessTarget());
  try {
    const tapes = parseTapes(read(args.prices), args.prices);
    const runs: ReplayRun[] = [];
    const base = await withTarget(makeTarget(), (t) => runReplay(args, tapes, args.slippage, 'replay', t));
    runs.push(base);
    if (args.vsSlippage !== undefined || args.vsPrices !== undefined) {
      const altTapes = args.vsPrices !== undefined ? parseTapes(read(args.vsPrices), args.vsPrices) : tapes;
      const what = [args.vsSlippage !== undefined ? `slippage ${args.vsSlippage}` : '', args.vsPrices !== undefined ? `prices ${args.vsPrices}` : ''].filter((s) => s !== '').join(', ');
      runs.push(await withTarget(makeTarget(), (t) => runReplay(args, altTapes, args.vsSlippage ?? args.slippage, `counterfactual (${what})`, t)));
    }
    const human = args.json ? io.stderr : io.stdout;
    for (const r of runs) human.write(`${describeRun(r).join('\n')}\n\n`);
    if (runs.length === 2) human.write(`${compareRuns(runs[0]!, runs[1]!).join('\n')}\n`);
    if (args.out !== undefined) {
      writeRun(runs[0]!, args.out);
      if (runs[1]) writeRun(runs[1], join(args.out, 'counterfactual'));
      human.write(`written: ${join(args.out, 'leaderboards.csv')}, balances.csv, trades.csv, outcome.json, report.html, summary.md, replay.scenario.json\n`);
    }
    if (args.json) io.stdout.write(`${JSON.stringify(runs.map((r) => ({ label: r.label, hash: r.result.hash, ...r.outcome })), null, 2)}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof ReplayInputError) && !(err as { name?: string }).name?.includes('ScenarioError')) throw err;
    io.stderr.write(`compsim replay: ${(err as Error).message}\n`);
    return 1;
  }
}

async function withTarget<R>(target: Target, fn: (t: Target) => Promise<R>): Promise<R> {
  try {
    return await fn(target);
  } finally {
    await target.close();
  }
}
