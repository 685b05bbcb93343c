// Benchmark F1: compsim fork of a large competition from a local compsim over HTTP (the competition built through the domain), against plain paging of the same trades.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { forkMain, systemIo } from '../src/cli/fork.js';
import { createServer } from '../src/http/adapters/server.js';
import { buildArena, runTrades } from './lib/arena.js';
import { benchMain } from './lib/proc.js';
import { ms, num, type BenchRow } from './lib/report.js';

const DAY = 86_400_000;
const STEP = 300_000;
const START = Date.parse('2025-06-02T00:00:00Z');

/** Plain paging of every trade page with fetch, one request at a time: what any reader of the trades pays. */
async function pageAll(url: string, comp: string, key: string, total: number): Promise<number> {
  const t0 = performance.now();
  let seen = 0;
  for (let offset = 0; offset < total; offset += 100) {
    const res = await fetch(`${url}/api/competitions/${comp}/trades?limit=100&offset=${offset}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { trades: unknown[] };
    seen += body.trades.length;
  }
  if (seen !== total) throw new Error(`paged ${seen} of ${total} trades`);
  return performance.now() - t0;
}

/** Row F1: `agents` agents, `trades` trades over `days` days (a snapshot every 5 minutes), forked with `concurrency`. */
export async function forkBench(agents: number, days: number, trades: number, concurrency = 2): Promise<BenchRow[]> {
  const t0 = performance.now();
  const arena = await buildArena(agents, { startTime: START, snapshotIntervalMs: STEP }, { endDate: START + days * DAY });
  const rounds = (days * DAY) / STEP;
  let done = 0;
  for (let r = 0; r < rounds; r++) {
    const upTo = Math.floor((trades * (r + 1)) / rounds);
    await runTrades(arena, done, upTo);
    done = upTo;
    await arena.world.advance(STEP);
  }
  const buildMs = performance.now() - t0;
  process.stderr.write(`built in ${ms(buildMs)}\n`);
  const server: Server = createServer(arena.world).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = arena.agents[0]!.key;
  const dir = mkdtempSync(join(tmpdir(), 'compsim-bench-fork-'));
  try {
    const pagingMs = await pageAll(url, arena.competitionId, key, trades);
    process.stderr.write(`paged in ${ms(pagingMs)}\n`);
    const out = { text: '', write(s: string) { out.text += s; return true; } };
    const t1 = performance.now();
    const code = await forkMain(['--from', url, '--competition', arena.competitionId, '--out', dir, '--api-key', key, '--concurrency', String(concurrency)], { stdout: out, stderr: out }, systemIo());
    const forkMs = performance.now() - t1;
    if (code !== 0) throw new Error(`fork failed: ${out.text}`);
    const m = JSON.parse(readFileSync(join(dir, 'fork.json'), 'utf8')) as { counts: { requests: number; tradePages: number; timelinePoints: number; tapePoints: number; trades: number; agents: number }; prices: { maxRelativeResidual: number } };
    if (m.counts.trades !== trades || m.counts.agents !== agents) throw new Error(`fork read ${m.counts.trades} trades of ${m.counts.agents} agents`);
    // A second run finds every answer in the cache: the cost of writing the directory alone.
    const t2 = performance.now();
    if (await forkMain(['--from', url, '--competition', arena.competitionId, '--out', dir, '--api-key', key], { stdout: out, stderr: out }, systemIo()) !== 0) throw new Error(`cached fork failed: ${out.text}`);
    const cachedMs = performance.now() - t2;
    return [{
      id: 'F1', name: `fork of a ${days}-day competition from a local compsim over HTTP: ${agents} agents, ${num(trades)} trades, a snapshot every 5 min (concurrency ${concurrency})`,
      value: ms(forkMs), target: '<= 60 s', pass: forkMs <= 60_000,
      notes: `${num(m.counts.requests)} requests (${num(m.counts.tradePages)} trade pages, ${num(m.counts.timelinePoints)} timeline points), ${num(m.counts.tapePoints)} tape points, `
        + `residual ${m.prices.maxRelativeResidual.toExponential(1)}; baseline: paging the trades alone with fetch, one at a time ${ms(pagingMs)} `
        + `(fork ${num(forkMs / pagingMs, 2)}x); rerun from the cache ${ms(cachedMs)}; server in the same process; building the competition through the domain ${ms(buildMs)}`,
    }];
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await benchMain(import.meta, async (args) => forkBench(Number(args[0] ?? 100), Number(args[1] ?? 7), Number(args[2] ?? 200_000), Number(args[3] ?? 2)));
