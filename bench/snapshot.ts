// Benchmark 6: world snapshot and restore with 100 agents x 1k trades, plus the first trade after a restore (what copy-on-write defers).
import { performance } from 'node:perf_hooks';
import { buildArena, runTrades } from './lib/arena.js';
import { benchMain } from './lib/proc.js';
import { median, ms, num, type BenchRow } from './lib/report.js';

/** Rows 6a (snapshot) and 6b (restore). */
export async function snapshots(agents = 100, perAgent = 1000, reps = 25): Promise<BenchRow[]> {
  const arena = await buildArena(agents);
  const trades = agents * perAgent;
  await runTrades(arena, 0, trades);
  const { world } = arena;
  const rows = await world.deps.store.read((tx) => ({ trades: tx.count('trades'), balances: tx.count('balances'), snapshots: tx.count('snapshots') }));
  let next = trades;
  const snap: number[] = [];
  const restore: number[] = [];
  const firstTrade: number[] = [];
  const ids: string[] = [];
  for (let i = 0; i < reps; i++) {
    // Some trading between snapshots, so each one has changes to share or not.
    await runTrades(arena, next, next + 100);
    next += 100;
    const t0 = performance.now();
    ids.push(await world.snapshot());
    snap.push(performance.now() - t0);
  }
  for (let i = 0; i < reps; i++) {
    await runTrades(arena, next, next + 100);
    next += 100;
    const t0 = performance.now();
    await world.restore(ids[i % ids.length]!);
    const t1 = performance.now();
    await runTrades(arena, next, next + 1);
    next += 1;
    restore.push(t1 - t0);
    firstTrade.push(performance.now() - t1);
  }
  const shape = `${num(rows.trades)} trades, ${num(rows.balances)} balances, ${num(rows.snapshots)} snapshot rows`;
  return [
    {
      id: '6a', name: `snapshot of a world with ${agents} agents x ${num(perAgent)} trades`, value: `${ms(median(snap))} median`,
      target: '<= 20 ms', pass: median(snap) <= 20, notes: `max ${ms(Math.max(...snap))} over ${reps}; ${shape}`,
    },
    {
      id: '6b', name: `restore of that world (snapshots taken ${num(100)} trades apart)`, value: `${ms(median(restore))} median`,
      target: '<= 20 ms', pass: median(restore) <= 20,
      notes: `max ${ms(Math.max(...restore))} over ${reps}; the first trade after a restore (copy-on-write copies what it touches) ${ms(median(firstTrade))} median`,
    },
  ];
}

await benchMain(import.meta, async (args) => snapshots(Number(args[0] ?? 100), Number(args[1] ?? 1000)));
