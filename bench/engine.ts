// Benchmarks 2 and 5: in-process trades through the domain (1M trades over 100 agents), and resident memory per stored trade.
import { performance } from 'node:perf_hooks';
import { buildArena, runTrades } from './lib/arena.js';
import { benchMain } from './lib/proc.js';
import { num, type BenchRow } from './lib/report.js';

const gc = (globalThis as { gc?: () => void }).gc;

function settle(): void {
  // Two full collections: the second finalises what the first left for weak callbacks.
  gc?.();
  gc?.();
}

/** Runs `trades` trades over `agents` agents in one world; returns the engine row and the memory row. */
export async function engine(trades = 1_000_000, agents = 100): Promise<BenchRow[]> {
  const arena = await buildArena(agents);
  await runTrades(arena, 0, 10_000); // warm-up (JIT), part of the stored trades
  settle();
  const before = process.memoryUsage();
  const t0 = performance.now();
  await runTrades(arena, 10_000, 10_000 + trades);
  const elapsed = performance.now() - t0;
  settle();
  const after = process.memoryUsage();
  const stored = await arena.world.deps.store.read((tx) => tx.count('trades'));
  const perSec = (trades / elapsed) * 1000;
  const rssPer = (after.rss - before.rss) / trades;
  const heapPer = (after.heapUsed - before.heapUsed) / trades;
  return [
    {
      id: '2', name: `in-process engine: ${num(trades)} trades over ${agents} agents (executeTrade, one after another)`,
      value: `${num(perSec)} trades/s`, target: '>= 100,000 trades/s', pass: perSec >= 100_000,
      notes: `${num((elapsed / trades) * 1000, 2)} µs per trade; ${num(elapsed / 1000, 1)} s for ${num(trades)} trades (+10k warm-up), ${num(stored)} stored`,
    },
    {
      id: '5', name: `memory per stored trade (${num(trades)} trades, after full GC)`,
      value: gc ? `${num(rssPer)} B/trade` : 'n/a (run with --expose-gc)', target: '<= 400 B/trade', pass: gc ? rssPer <= 400 : null,
      notes: `resident set +${num((after.rss - before.rss) / 2 ** 20)} MiB; V8 heap +${num((after.heapUsed - before.heapUsed) / 2 ** 20)} MiB (${num(heapPer)} B/trade); RSS ${num(after.rss / 2 ** 20)} MiB at the end`,
    },
  ];
}

await benchMain(import.meta, async (args) => engine(Number(args[0] ?? 1_000_000), Number(args[1] ?? 100)));
