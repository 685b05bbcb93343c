// Benchmark 4: reads at scale: the participants list and the competition leaderboard of a competition with 10k agents (p50 per request).
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { dispatch } from '../src/http/dispatch.js';
import { compileRoutes } from '../src/http/router.js';
import { ROUTES } from '../src/http/routes/index.js';
import { createServer } from '../src/server.js';
import { buildArena, runTrades, type Arena } from './lib/arena.js';
import { benchMain } from './lib/proc.js';
import { ms, num, quantile, type BenchRow } from './lib/report.js';

/** A 10k-agent competition after some trading and an hour of 5-minute snapshots. */
export async function bigCompetition(agents: number, trades: number, rounds: number): Promise<Arena> {
  const arena = await buildArena(agents);
  await runTrades(arena, 0, trades);
  for (let i = 0; i < rounds; i++) await arena.world.advance(300_000);
  return arena;
}

/** GET over a real socket; resolves with status and body size. */
function get(url: string, key: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${key}` }, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** p50 and p90 of `n` sequential runs of `fn` (after 5 warm-ups). */
async function latency(n: number, fn: () => Promise<unknown>): Promise<{ p50: number; p90: number }> {
  for (let i = 0; i < 5; i++) await fn();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return { p50: quantile(xs, 0.5), p90: quantile(xs, 0.9) };
}

/** Rows 4a (participants list) and 4b (leaderboard). */
export async function reads(agents = 10_000, n = 100): Promise<BenchRow[]> {
  const t0 = performance.now();
  const arena = await bigCompetition(agents, agents * 2, 12);
  const setup = performance.now() - t0;
  const { world, competitionId } = arena;
  const table = compileRoutes(ROUTES);
  const server = createServer(world).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = arena.agents[0]!.key;
  const paths = {
    participants: `/api/competitions/${competitionId}/agents`,
    leaderboard: `/api/competitions/leaderboard?competitionId=${competitionId}`,
  };
  const rows: BenchRow[] = [];
  try {
    for (const [id, label, path] of [['4a', 'participants list (GET /api/competitions/{id}/agents, default page of 50, sort rank)', paths.participants], ['4b', 'competition leaderboard (GET /api/competitions/leaderboard, every entry)', paths.leaderboard]] as const) {
      const [p, q] = path.split('?');
      const query = Object.fromEntries(new URLSearchParams(q ?? ''));
      let bytes = 0;
      // The server's work per request without a socket: dispatch, then the JSON text Koa would send.
      const inProcess = await latency(n, async () => {
        const r = await dispatch(world, table, { method: 'GET', path: p!, headers: { authorization: `Bearer ${key}` }, query });
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
        bytes = JSON.stringify(r.body).length;
      });
      const http = await latency(n, async () => {
        const r = await get(base + path, key);
        if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status}`);
      });
      rows.push({
        id, name: `reads at scale: ${label}, ${num(agents)} agents`,
        value: `${ms(http.p50)} p50`, target: '<= 5 ms p50', pass: http.p50 <= 5,
        notes: `over HTTP (keep-alive off, sequential): p90 ${ms(http.p90)}; in-process dispatch + JSON text: p50 ${ms(inProcess.p50)}, p90 ${ms(inProcess.p90)}; `
          + `${num(bytes / 1024)} KiB body; setup ${ms(setup)} (${num(agents * 2)} trades, 13 snapshot rounds)`,
      });
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return rows;
}

await benchMain(import.meta, async (args) => reads(Number(args[0] ?? 10_000), Number(args[1] ?? 100)));

