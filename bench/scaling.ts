// The scaling rows: cost per trade, per snapshotted agent and per listed participant at 10, 100 and 1000 agents (flat = linear growth).
import { performance } from 'node:perf_hooks';
import { createDoor } from '../src/http/adapters/door.js';
import { buildArena, runTrades } from './lib/arena.js';
import { benchMain } from './lib/proc.js';
import { median, num, type BenchRow } from './lib/report.js';

const SIZES = [10, 100, 1000];

interface SizeResult { tradeUs: number; snapUs: number; readUs: number; readMs: number }

async function perSize(agents: number, trades: number): Promise<SizeResult> {
  const arena = await buildArena(agents);
  await runTrades(arena, 0, 5000);
  let t0 = performance.now();
  await runTrades(arena, 5000, 5000 + trades);
  const tradeUs = ((performance.now() - t0) * 1000) / trades;
  // Snapshot rounds: one clock step of 5 minutes snapshots every agent.
  const rounds = 20;
  t0 = performance.now();
  for (let i = 0; i < rounds; i++) await arena.world.advance(300_000);
  const snapUs = ((performance.now() - t0) * 1000) / (rounds * agents);
  const door = createDoor();
  const path = `/api/competitions/${arena.competitionId}/agents`;
  const xs: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await door.serve(arena.world, { method: 'GET', path, headers: {} });
    if (i >= 5) xs.push(performance.now() - t);
  }
  return { tradeUs, snapUs, readUs: (median(xs) * 1000) / agents, readMs: median(xs) };
}

/** Rows S1-S3: the same work at 10, 100 and 1000 agents. */
export async function scaling(trades = 100_000): Promise<BenchRow[]> {
  const r: SizeResult[] = [];
  for (const n of SIZES) r.push(await perSize(n, trades));
  const list = (f: (x: SizeResult) => number, d = 2) => r.map((x, i) => `${SIZES[i]}: ${num(f(x), d)}`).join(' / ');
  const growth = (f: (x: SizeResult) => number) => f(r[2]!) / f(r[0]!);
  return [
    {
      id: 'S1', name: `scaling: µs per trade, ${num(trades)} trades at 10 / 100 / 1000 agents`, value: list((x) => x.tradeUs),
      target: 'linear or better (flat per trade)', pass: growth((x) => x.tradeUs) < 2,
      notes: `1000 vs 10 agents: ${growth((x) => x.tradeUs).toFixed(2)} x per trade; trades/s ${list((x) => 1e6 / x.tradeUs, 0)}`,
    },
    {
      id: 'S2', name: 'scaling: µs per agent of a 5-minute snapshot round at 10 / 100 / 1000 agents', value: list((x) => x.snapUs),
      target: 'linear or better (flat per agent)', pass: growth((x) => x.snapUs) < 2,
      notes: `1000 vs 10 agents: ${growth((x) => x.snapUs).toFixed(2)} x per agent (20 rounds each, after the trades)`,
    },
    {
      id: 'S3', name: 'scaling: µs per participant of GET /api/competitions/{id}/agents (through the door, JSON text included) at 10 / 100 / 1000 agents', value: list((x) => x.readUs),
      target: 'linear or better (flat per agent)', pass: growth((x) => x.readUs) < 2,
      notes: `p50 per request ${list((x) => x.readMs)} ms; 1000 vs 10 agents: ${growth((x) => x.readUs).toFixed(2)} x per agent`,
    },
  ];
}

await benchMain(import.meta, async (args) => scaling(Number(args[0] ?? 100_000)));
