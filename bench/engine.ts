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

/** Stored trades before the memory baseline: enough that start-up slack (free heap and malloc space left by loading) is used up. */
const MEMORY_BASE = 100_000;

/**
 * Runs `trades` trades over `agents` agents in one world; returns the engine row and the memory
 * row. The clock runs over all `trades` (two timed stretches around a pause for a memory reading
 * after {@link MEMORY_BASE} of them); memory per trade is the growth over the trades after that
 * reading, i.e. the cost of one more stored trade, not counting how much free memory the process
 * happened to hold after start-up (a leaner start-up otherwise reads as more memory per trade).
 */
export async function engine(trades = 1_000_000, agents = 100): Promise<BenchRow[]> {
  const arena = await buildArena(agents);
  await runTrades(arena, 0, 10_000); // warm-up (JIT), part of the stored trades
  settle();
  const start = process.memoryUsage();
  const base = Math.min(MEMORY_BASE, Math.floor(trades / 10));
  let t0 = performance.now();
  await runTrades(arena, 10_000, 10_000 + base);
  let elapsed = performance.now() - t0;
  settle();
  const before = process.memoryUsage();
  t0 = performance.now();
  await runTrades(arena, 10_000 + base, 10_000 + trades);
  elapsed += performance.now() - t0;
  settle();
  const after = process.memoryUsage();
  const stored = await arena.world.deps.store.read((tx) => tx.count('trades'));
  const perSec = (trades / elapsed) * 1000;
  const counted = trades - base;
  const mib = (bytes: number) => `${num(bytes / 2 ** 20)} MiB`;
  const rssPer = (after.rss - before.rss) / counted;
  const heapPer = (after.heapUsed - before.heapUsed) / counted;
  return [
    {
      id: '2', name: `in-process engine: ${num(trades)} trades over ${agents} agents (executeTrade, one after another)`,
      value: `${num(perSec)} trades/s`, target: '>= 200,000 trades/s', pass: perSec >= 200_000,
      notes: `${num((elapsed / trades) * 1000, 2)} µs per trade; ${num(elapsed / 1000, 1)} s for ${num(trades)} trades (+10k warm-up), ${num(stored)} stored`,
    },
    {
      id: '5', name: `memory per stored trade (growth over trades ${num(10_000 + base)} to ${num(stored)}, after full GCs)`,
      value: gc ? `${num(rssPer)} B/trade` : 'n/a (run with --expose-gc)', target: '<= 400 B/trade', pass: gc ? rssPer <= 400 : null,
      notes: `resident set +${mib(after.rss - before.rss)}; V8 heap +${mib(after.heapUsed - before.heapUsed)} (${num(heapPer)} B/trade; `
        + `committed +${mib(after.heapTotal - before.heapTotal)}); array buffers outside the heap +${mib(after.arrayBuffers - before.arrayBuffers)}; `
        + `from the 10k-trade warm-up instead: ${num((after.rss - start.rss) / trades)} B/trade resident; RSS ${mib(after.rss)} at the end`,
    },
  ];
}

await benchMain(import.meta, async (args) => engine(Number(args[0] ?? 1_000_000), Number(args[1] ?? 100)));
