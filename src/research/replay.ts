// Replay as a library: read the inputs into a plan, run it in-process through the library API or against a served world through the request path, and write its files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenario } from '../harness/runner.js';
import { validateScenario } from '../harness/schema.js';
import type { Target } from '../harness/targets.js';
import { toCsv } from './csv.js';
import { parseBalances, parseTrades, readInput, ReplayInputError, type Tapes } from './replay-input.js';
import { analyzeReplay, outcomeHash, ReplayRecorder, type ReplayOutcome, type SnapshotRow } from './replay-outcome.js';
import { replayPlan, replayScenario, type ReplayOptions, type ReplayPlan } from './replay-plan.js';
import { renderReplayHtml, renderReplayMarkdown, type ReplayReportData } from './replay-report.js';
import { replayInWorld } from './replay-world.js';

/** The input files of a replay. */
export interface ReplayFiles { trades: string; balances?: string }

/** The plan of the trades (and starting balances) in `files` on `tapes` under `options`; unreadable input throws a {@link ReplayInputError}. */
export function loadReplayPlan(files: ReplayFiles, tapes: Tapes, options: Omit<ReplayOptions, 'balances'>): ReplayPlan {
  const trades = parseTrades(readInput(files.trades), files.trades);
  const balances = files.balances !== undefined ? parseBalances(readInput(files.balances), files.balances) : undefined;
  return replayPlan(trades, tapes, { ...options, ...(balances ? { balances } : {}) });
}

/** One replay run: its plan, outcome and what its report shows. */
export interface ReplayRun extends ReplayReportData {
  /** Requests sent, for a replay against a served world (0 in-process: nothing is sent). */
  requests: number;
}

/** Options of {@link runReplay}. */
export interface RunReplayOptions {
  /** `replay`, or the counterfactual's label. */
  label: string;
  /** Where the trades came from (the report's title). */
  source: string;
  /** A served world (`compsim serve --sim-api`) to replay against; without one the replay runs in-process through the library API. */
  target?: Target;
}

/** Runs the plan in-process, or against `target` through the request path, and reads the outcome back. */
export async function runReplay(plan: ReplayPlan, o: RunReplayOptions): Promise<ReplayRun> {
  if (o.target === undefined) {
    const r = await replayInWorld(plan);
    const outcome = analyzeReplay(plan, r.answers, r.snapshots);
    const agentIds = plan.agents.map((_, i) => r.answers.agentId(i));
    return { label: o.label, source: o.source, plan, outcome, hash: outcomeHash(outcome), snapshots: r.snapshots, agentIds, requests: 0 };
  }
  return runOnTarget(plan, o, o.target);
}

/** The plan's scenario through the runner on a target, its snapshots read per agent after the steps. */
async function runOnTarget(plan: ReplayPlan, o: RunReplayOptions, target: Target): Promise<ReplayRun> {
  const scenario = replayScenario(plan);
  const file = `replay:${o.label}`;
  const doc = validateScenario(scenario.doc, file);
  const recorder = new ReplayRecorder(scenario);
  let snapshots: SnapshotRow[] = [];
  const result = await runScenario({ file, name: o.label, doc }, target, {
    onExchange: recorder.observe, keepLog: false,
    afterSteps: async (adminKey) => {
      snapshots = await readSnapshots(target, adminKey, recorder.competitionId(), plan.agents.map((_, i) => recorder.agentId(i)));
    },
  });
  if (!result.ok) {
    const f = result.failure!;
    throw new ReplayInputError(`the replay stopped at ${f.at}: ${f.message}${f.response ? ` (${JSON.stringify(f.response.body)})` : ''}`);
  }
  const outcome = analyzeReplay(plan, recorder, snapshots);
  const agentIds = plan.agents.map((_, i) => recorder.agentId(i));
  return { label: o.label, source: o.source, plan, outcome, hash: outcomeHash(outcome), snapshots, agentIds, requests: result.requests };
}

/** Every snapshot of the competition, one agent at a time (each agent's list stays under the server's list cap). */
async function readSnapshots(target: Target, adminKey: string, competitionId: string | undefined, ids: readonly (string | undefined)[]): Promise<SnapshotRow[]> {
  if (competitionId === undefined) throw new ReplayInputError('the replay could not read its competition: the start call gave no id');
  const out: SnapshotRow[] = [];
  for (const agentId of ids) {
    if (agentId === undefined) continue;
    const res = await target.send({ method: 'GET', path: `/api/admin/competition/${competitionId}/snapshots`, query: { agentId }, headers: { authorization: `Bearer ${adminKey}` } });
    const rows = (res.body as { snapshots?: unknown } | undefined)?.snapshots;
    if (res.status !== 200 || !Array.isArray(rows)) throw new ReplayInputError(`reading the snapshots of agent ${agentId} answered ${res.status}`);
    for (const s of rows as Record<string, unknown>[]) out.push({ id: Number(s.id), agentId: String(s.agentId), timestamp: Date.parse(String(s.timestamp)), totalValue: Number(s.totalValue) });
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The CSV tables of an outcome, by file name. */
export function outcomeTables(o: ReplayOutcome): Record<'leaderboards.csv' | 'balances.csv' | 'trades.csv', string> {
  return {
    'leaderboards.csv': toCsv(['timestamp', 'rank', 'agent', 'value'], o.leaderboards.map((r) => [iso(r.timestamp), r.rank, r.agent, r.value])),
    'balances.csv': toCsv(['timestamp', 'agent', 'token', 'symbol', 'change', 'balance'], o.balances.map((b) => [iso(b.timestamp), b.agent, b.token, b.symbol, b.change, b.balance])),
    'trades.csv': toCsv(['timestamp', 'agent', 'fromToken', 'toToken', 'amount', 'status', 'accepted', 'toAmount', 'tradeAmountUsd', 'error'],
      o.trades.map((t) => [iso(t.trade.timestamp), t.trade.agent, t.trade.fromToken, t.trade.toToken, t.trade.amount, t.status, t.accepted, t.toAmount, t.tradeAmountUsd, t.error])),
  };
}

/** The files a replay writes into its directory, in the order they are written. */
export const REPLAY_FILES = ['leaderboards.csv', 'balances.csv', 'trades.csv', 'outcome.json', 'report.html', 'summary.md', 'replay.scenario.json'] as const;

/** Writes a run's files into `dir`: the tables, the outcome, the report and the scenario of the same replay (for `compsim run` or a sweep). */
export function writeReplay(run: ReplayRun, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Record<(typeof REPLAY_FILES)[number], string> = {
    ...outcomeTables(run.outcome),
    'outcome.json': `${JSON.stringify({ hash: run.hash, ...run.outcome }, null, 2)}\n`,
    'report.html': renderReplayHtml(run),
    'summary.md': renderReplayMarkdown(run),
    'replay.scenario.json': `${JSON.stringify(replayScenario(run.plan).doc, null, 2)}\n`,
  };
  return REPLAY_FILES.map((name) => {
    writeFileSync(join(dir, name), files[name]);
    return join(dir, name);
  });
}
