// Benchmark 4: reads at scale: the participants list, the competition leaderboard and the global leaderboard with 10k agents (p50 per request).
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { endCompetition, startCompetition } from '../src/domain/competitions/lifecycle.js';
import { createDoor } from '../src/http/adapters/door.js';
import { createServer } from '../src/http/adapters/server.js';
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

/** One measured read: its row, path, and what makes the next read miss the standings caches. */
interface ReadSpec { id: string; label: string; path: string; targetMs: number; change: { what: string; run: () => Promise<unknown> } }

/**
 * Rows 4a (participants list), 4b (competition leaderboard) and 4c (global leaderboard, after
 * the competition ended and rated its 10k agents). Reads repeat with nothing changing in between,
 * so after the first they are answered from the standings caches; the notes give the first read
 * after a change (a cache miss) too.
 */
export async function reads(agents = 10_000, n = 100): Promise<BenchRow[]> {
  const t0 = performance.now();
  const arena = await bigCompetition(agents, agents * 2, 12);
  const setup = performance.now() - t0;
  const { world, competitionId } = arena;
  const door = createDoor();
  const server = createServer(world).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = arena.agents[0]!.key;
  let second: Arena | undefined;
  const snapshotRound = { what: 'a 5-minute snapshot round', run: () => world.advance(300_000) };
  const specs: ReadSpec[] = [
    { id: '4a', label: 'participants list (GET /api/competitions/{id}/agents, default page of 50, sort rank)', path: `/api/competitions/${competitionId}/agents`, targetMs: 5, change: snapshotRound },
    { id: '4b', label: 'competition leaderboard (GET /api/competitions/leaderboard, every entry)', path: `/api/competitions/leaderboard?competitionId=${competitionId}`, targetMs: 12, change: snapshotRound },
    {
      id: '4c', label: 'global leaderboard (GET /api/leaderboard, default page of 50) after the competition ended', path: '/api/leaderboard', targetMs: 5,
      change: { what: 'a trade in another competition', run: () => runTrades(second!, 0, 1) },
    },
  ];
  let ending = 0;
  const rows: BenchRow[] = [];
  try {
    for (const spec of specs) {
      if (spec.id === '4c') {
        // Rates all 10k agents (the global leaderboard's rows); a second, running competition gives trades.
        const t = performance.now();
        await endCompetition(world.deps, competitionId);
        ending = performance.now() - t;
        second = await secondCompetition(arena);
      }
      const { id, label, path } = spec;
      const [p, q] = path.split('?');
      let bytes = 0;
      const once = async () => {
        const r = await door.serve(world, { method: 'GET', path: p!, query: q ?? '', headers: { authorization: `Bearer ${key}` } });
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text.slice(0, 200)}`);
        bytes = Buffer.byteLength(r.text);
      };
      // The server's work per request without a socket: the door, the JSON text it sends included.
      const inProcess = await latency(n, once);
      const http = await latency(n, async () => {
        const r = await get(base + path, key);
        if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status}`);
      });
      // The first read after a change recomputes what the caches held.
      const cold: number[] = [];
      for (let i = 0; i < 5; i++) {
        await spec.change.run();
        const t = performance.now();
        await once();
        cold.push(performance.now() - t);
      }
      rows.push({
        id, name: `reads at scale: ${label}, ${num(agents)} agents`,
        value: `${ms(http.p50)} p50`, target: `<= ${spec.targetMs} ms p50`, pass: http.p50 <= spec.targetMs,
        notes: `over HTTP (keep-alive off, sequential): p90 ${ms(http.p90)}; in-process through the door (JSON text included): p50 ${ms(inProcess.p50)}, p90 ${ms(inProcess.p90)}; `
          + `first read after ${spec.change.what} (standings recomputed): ${ms(quantile(cold, 0.5))} median of 5; `
          + `${num(bytes / 1024)} KiB body; setup ${ms(setup)} (${num(agents * 2)} trades, 13 snapshot rounds)${id === '4c' ? `, ending and rating the competition ${ms(ending)}` : ''}`,
      });
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return rows;
}

/** A second competition of the same world with two of the agents (its trades change the trades table only). */
async function secondCompetition(arena: Arena): Promise<Arena> {
  const agents = arena.agents.slice(0, 2);
  const started = await startCompetition(arena.world.deps, {
    agentIds: agents.map((a) => a.id),
    create: { name: 'Second Cup', paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1e12 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 1e9 }] },
  });
  return { world: arena.world, competitionId: started.competition.id, agents };
}

await benchMain(import.meta, async (args) => reads(Number(args[0] ?? 10_000), Number(args[1] ?? 100)));

