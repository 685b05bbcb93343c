// Benchmark M1: memory a world takes for prices far from its feed's origin: the demo world moved 10 years ahead, then every catalogue token priced.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { WorldFixture } from '../src/world/fixture.js';
import { createWorld } from '../src/world/world.js';
import { MAX_CLOCK_JUMP_MS } from '../src/http/resources/sim/request.js';
import { SPECIFIC_CHAINS } from '../src/ports/prices.js';
import { benchMain } from './lib/proc.js';
import { ms, num, type BenchRow } from './lib/report.js';

const MB = 2 ** 20;

/** Resident set and V8 heap after full collections (needs --expose-gc). */
async function memory(): Promise<{ rss: number; heap: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('bench/price-memory needs node --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

/** Row M1: the demo world (random walk, one step a minute), a 10-year clock move, then each of its catalogue tokens priced `rounds` times. */
export async function priceMemory(rounds = 1): Promise<BenchRow[]> {
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/worlds/demo.json', import.meta.url), 'utf8')) as WorldFixture;
  const world = await createWorld({ fixture });
  const { prices } = world.deps;
  const tokens = SPECIFIC_CHAINS.flatMap((c) => prices.catalogue().tokens(c).map((t) => [t.address, c] as const));
  // Every token priced once at the start, so lazily built tables are not counted as growth.
  for (const [a, c] of tokens) prices.price(a, c, world.deps.clock.now());
  const before = await memory();
  const t0 = performance.now();
  await world.sim.advance(MAX_CLOCK_JUMP_MS);
  const moved = performance.now() - t0;
  const t1 = performance.now();
  let priced = 0;
  for (let r = 0; r < rounds; r++) {
    const at = world.deps.clock.now() + r * 60_000;
    for (const [a, c] of tokens) if (prices.price(a, c, at) !== null) priced += 1;
  }
  const pricing = performance.now() - t1;
  const after = await memory();
  const grown = (after.rss - before.rss) / MB;
  return [{
    id: 'M1', name: `memory of far prices: the demo world moved 10 years ahead (one clock move), then its catalogue tokens priced (${tokens.length} on their chains)`,
    value: `${num(grown, 1)} MB`, target: '<= 50 MB', pass: grown <= 50,
    notes: `resident set growth after full GCs (V8 heap: ${num((after.heap - before.heap) / MB, 1)} MB); ${priced} prices (${rounds} round${rounds === 1 ? '' : 's'} a minute apart), `
      + `the clock move ${ms(moved)}, pricing ${ms(pricing)} (each random-walk token reaches its walk's limit, 5,000,000 steps, the first time)`,
  }];
}

await benchMain(import.meta, async (args) => priceMemory(Number(args[0] ?? 1)));
