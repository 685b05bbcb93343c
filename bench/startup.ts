// Benchmark 7: start-up: createWorld() in-process (first and later calls), `compsim serve` from spawn to the first 200, and `compsim run` of a one-step scenario.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createWorld } from '../src/world/world.js';
import { benchMain, nodeArgs, spawnServe, stopChild } from './lib/proc.js';
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

/** Wall time of one `compsim run` of `file` (in-process), from spawn to exit; throws unless it passes. */
function timedRun(file: string): Promise<number> {
  const t = performance.now();
  const child = spawn(process.execPath, [...nodeArgs('src/cli/main'), 'run', file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`compsim run exited ${code}: ${out}`))));
  });
}

/** Rows 7a (createWorld), 7b (compsim serve) and 7c (compsim run). */
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
  const dir = mkdtempSync(join(tmpdir(), 'compsim-bench-startup-'));
  const runs: number[] = [];
  try {
    const file = join(dir, 'health.scenario.json');
    writeFileSync(file, JSON.stringify({ seed: 1, startTime: '2025-06-02T12:00:00Z', world: {}, steps: [{ call: 'GET /api/health', expect: { status: 200 } }] }));
    for (let i = 0; i < serveRuns; i++) runs.push(await timedRun(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
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
    {
      id: '7c', name: '`compsim run` of a one-step scenario (GET /api/health, in-process): spawn to exit', value: `${ms(median(runs))} median`,
      target: '', pass: null,
      notes: `${serveRuns} runs of the compiled CLI: what each scenario process of a CI suite pays before its first step (loading, validating, a world, the report line)`,
    },
  ];
}

await benchMain(import.meta, async (args) => startup(Number(args[0] ?? 5)));
