// Benchmark 7: start-up: createWorld() in-process (first and later calls) and `compsim serve` from spawn to the first 200.
import { performance } from 'node:perf_hooks';
import { createWorld } from '../src/world.js';
import { benchMain, spawnServe, stopChild } from './lib/proc.js';
import { median, ms, type BenchRow } from './lib/report.js';

/** Polls GET /api/health until it answers 200 (the server answers 503 while the world is built). */
async function firstOk(url: string): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(`${url}/api/health`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not accepting yet
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Rows 7a (createWorld) and 7b (compsim serve). */
export async function startup(serveRuns = 5): Promise<BenchRow[]> {
  const t0 = performance.now();
  await createWorld();
  const first = performance.now() - t0;
  const warm: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await createWorld({ seed: i });
    warm.push(performance.now() - t);
  }
  const serve: number[] = [];
  const listen: number[] = [];
  for (let i = 0; i < serveRuns; i++) {
    const t = performance.now();
    const s = await spawnServe();
    listen.push(s.ms);
    await firstOk(s.url);
    serve.push(performance.now() - t);
    await stopChild(s.child);
  }
  return [
    {
      id: '7a', name: 'start-up: createWorld() (fresh world, default options)', value: `${ms(median(warm))} median`,
      target: '<= 50 ms', pass: median(warm) <= 50,
      notes: `first call in a fresh process ${ms(first)} (reads tokens.json, warms the JIT); later calls median of 20`,
    },
    {
      id: '7b', name: '`compsim serve`: spawn to the first 200 on GET /api/health', value: `${ms(median(serve))} median`,
      target: '<= 1 s', pass: median(serve) <= 1000,
      notes: `${serveRuns} runs of the compiled CLI (node, no tsx); port bound after ${ms(median(listen))} (the server answers 503 until the world is built)`,
    },
  ];
}

await benchMain(import.meta, async (args) => startup(Number(args[0] ?? 5)));
