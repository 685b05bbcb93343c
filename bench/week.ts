// Benchmark 3: a simulated week in-process (100 agents, a portfolio snapshot every 5 minutes, 200k trades): through the domain, dispatch, the scenario runner and compsim replay.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { inProcessTarget } from '../src/world/in-process-target.js';
import { parseReplayArgs, replayOnce } from '../src/cli/replay.js';
import { dispatch, findRoute, routeTable } from '../src/http/dispatch.js';
import { ROUTES } from '../src/http/resources/index.js';
import { runScenario } from '../src/harness/runner.js';
import { parseTapes, readInput } from '../src/research/replay-input.js';
import { parseScenario } from '../src/harness/schema.js';
import { buildArena, SOL, tradeInput, runTrades, USDC, type Arena } from './lib/arena.js';
import { benchMain } from './lib/proc.js';
import { ms, num, type BenchRow } from './lib/report.js';
import { weekScenario } from './week-scenario.js';

const DAY = 86_400_000;
const START = '2025-06-02T00:00:00Z';
const STEP = 300_000;

/** What one replay did and how long it took. */
export interface Replay { wallMs: number; setupMs: number; tradeMs: number; advanceMs: number; snapshots: number; trades: number; status: string }

/**
 * A competition of `days` days with `agents` agents: `trades` trades spread evenly over the
 * 5-minute steps, each step ended by `world.advance(5 min)`, which takes the portfolio snapshots
 * (and, at the last step, ends the competition). `http` sends the trades through `dispatch`
 * (authentication, validation, handler, serialisation: the request path without sockets).
 */
export async function replay(agents: number, days: number, trades: number, http = false): Promise<Replay> {
  const t0 = performance.now();
  const start = Date.parse(START);
  const arena: Arena = await buildArena(agents, { startTime: start, snapshotIntervalMs: STEP }, { endDate: start + days * DAY });
  const { world } = arena;
  const table = http ? routeTable(ROUTES) : undefined;
  const keys = new Map(arena.agents.map((a) => [a.id, a.key]));
  const setupMs = performance.now() - t0;
  const rounds = (days * DAY) / STEP;
  let tradeMs = 0;
  let advanceMs = 0;
  let done = 0;
  for (let r = 0; r < rounds; r++) {
    const upTo = Math.floor((trades * (r + 1)) / rounds);
    const t1 = performance.now();
    if (table) {
      for (; done < upTo; done++) {
        const t = tradeInput(arena, done);
        const agentId = (t.principal as { agentId: string }).agentId;
        const res = await dispatch(world, findRoute(table, 'POST', '/api/trade/execute'), { method: 'POST', path: '/api/trade/execute', headers: { authorization: `Bearer ${keys.get(agentId)}`, 'content-type': 'application/json' }, body: t.body });
        if (res.status !== 200) throw new Error(`trade ${done} failed: ${JSON.stringify(res.body)}`);
      }
    } else {
      await runTrades(arena, done, upTo);
      done = upTo;
    }
    const t2 = performance.now();
    await world.advance(STEP);
    advanceMs += performance.now() - t2;
    tradeMs += t2 - t1;
  }
  const wallMs = performance.now() - t0;
  const { snapshots, status } = await world.deps.store.read((tx) => ({
    snapshots: tx.count('snapshots', 'competition', arena.competitionId),
    status: (tx.get('competitions', arena.competitionId))!.status,
  }));
  return { wallMs, setupMs, tradeMs, advanceMs, snapshots, trades: done, status };
}

/** Row 3 (through the domain) must take at most 2 s; row 3b is for comparison. */
function row(id: string, label: string, r: Replay, agents: number, days: number, targetMs?: number): BenchRow {
  return {
    id, name: `week replay ${label}: ${days} days, ${agents} agents, snapshot every 5 min (${num((days * DAY) / STEP)} rounds), ${num(r.trades)} trades`,
    value: ms(r.wallMs), target: targetMs === undefined ? '' : `<= ${targetMs / 1000} s`, pass: targetMs === undefined ? null : r.wallMs <= targetMs,
    notes: `setup ${ms(r.setupMs)}, trades ${ms(r.tradeMs)} (${num((r.trades / r.tradeMs) * 1000)}/s), clock steps with snapshots ${ms(r.advanceMs)}; `
      + `${num(r.snapshots)} snapshot rows, competition ${r.status}`,
  };
}

/**
 * The same week as a scenario file run the way `compsim run` runs it: the file's text parsed and
 * validated, then every step through the runner and the in-process target (interpolation, the
 * request and answer as JSON crossing the wire, the canonical response log and its hash).
 */
async function scenarioWeek(agents: number, days: number, trades: number): Promise<BenchRow> {
  const rounds = (days * DAY) / STEP;
  const text = JSON.stringify(weekScenario(agents, rounds, trades));
  const t0 = performance.now();
  const sc = parseScenario(text, 'week.scenario.json');
  const parseMs = performance.now() - t0;
  // As compsim run without --report: the log is hashed, its text not kept.
  const result = await runScenario(sc, inProcessTarget(), { keepLog: false });
  const wallMs = performance.now() - t0;
  if (!result.ok) throw new Error(`week scenario failed: ${JSON.stringify(result.failure)}`);
  return {
    id: '3c', name: `week replay as a scenario file through the runner (compsim run, in-process): ${num(sc.doc.steps.length)} steps, ${num(trades)} trades`,
    value: ms(wallMs), target: '<= 5 s', pass: wallMs <= 5000,
    notes: `parse and validate ${ms(parseMs)} (${num(text.length / 1e6, 1)} MB), ${num(result.requests)} requests (${num((result.requests / (wallMs - parseMs)) * 1000)}/s), log sha256 ${result.hash.slice(0, 12)}`,
  };
}

/**
 * The same week as recorded trades replayed by `compsim replay` (in-process, through the library
 * API): a CSV of `trades` trades by `agents` agents at even intervals over `days` days and an
 * hourly SOL tape, timed from reading the files to the outcome (every trade's result, balance
 * histories, the leaderboard at each of the snapshot rounds, the outcome's hash), as the command
 * does before printing. Its target is relative: at most twice row 3 (the domain alone) measured in
 * the same run, since both move with the machine.
 */
async function recordedWeek(agents: number, days: number, trades: number, domainMs: number): Promise<BenchRow> {
  const dir = mkdtempSync(join(tmpdir(), 'compsim-bench-replay-'));
  try {
    const start = Date.parse(START);
    const lines = ['timestamp,agent,fromToken,toToken,amount,reason'];
    for (let i = 0; i < trades; i++) {
      const buy = Math.floor(i / agents) % 2 === 0;
      lines.push(`${start + Math.floor((i * days * DAY) / trades)},agent ${i % agents},${buy ? USDC : SOL},${buy ? SOL : USDC},${buy ? '15' : '0.1'},week`);
    }
    const tape = Array.from({ length: days * 24 + 2 }, (_, h) => [start + h * 3_600_000, 150 + 10 * Math.sin(h / 6)]);
    writeFileSync(join(dir, 'trades.csv'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'tape.json'), JSON.stringify({ [`svm:${SOL}`]: tape }));
    const args = parseReplayArgs(['--trades', join(dir, 'trades.csv'), '--prices', join(dir, 'tape.json'), '--interval', '5m']);
    const t0 = performance.now();
    const run = await replayOnce(args, parseTapes(readInput(join(dir, 'tape.json')), 'tape.json'), args.slippage, 'replay');
    const wallMs = performance.now() - t0;
    const accepted = run.outcome.trades.filter((t) => t.accepted).length;
    if (accepted !== trades) throw new Error(`replay accepted ${accepted} of ${trades} trades`);
    const ratio = wallMs / domainMs;
    return {
      id: '3d', name: `week replay from recorded trades (compsim replay, in-process): ${num(trades)} trades by ${agents} agents over ${days} days, snapshot every 5 min`,
      value: `${ms(wallMs)} = ${ratio.toFixed(2)} x row 3`, target: '<= 2 x row 3', pass: ratio <= 2,
      notes: `row 3 run again just before (warm) ${ms(domainMs)}; every trade through the library API at its recorded time (the clock moved to it first), `
        + `${num(new Set(run.outcome.leaderboards.map((r) => r.timestamp)).size)} leaderboards, ${num(run.outcome.balances.length)} balance changes, outcome sha256 ${run.hash.slice(0, 12)}`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows 3 (domain), 3b (dispatch), 3c (scenario runner) and 3d (compsim replay). */
export async function week(agents = 100, days = 7, trades = 200_000): Promise<BenchRow[]> {
  const domain = await replay(agents, days, trades);
  const http = await replay(agents, days, trades, true);
  const runner = await scenarioWeek(agents, days, trades);
  // Row 3 ran first, with a cold JIT: the ratio is taken against a second, warm run of it.
  const warm = await replay(agents, days, trades);
  const recorded = await recordedWeek(agents, days, trades, warm.wallMs);
  return [row('3', 'through the domain', domain, agents, days, 2000), row('3b', 'through dispatch (request path, no sockets)', http, agents, days), runner, recorded];
}

await benchMain(import.meta, async (args) => week(Number(args[0] ?? 100), Number(args[1] ?? 7), Number(args[2] ?? 200_000)));
