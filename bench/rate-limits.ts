// Rate limits under --state: requests each carrying another unknown key, with and without --rate-limits upstream; state growth and throughput ratio.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchMain, spawnServe } from './lib/proc.js';
import { num, type BenchRow } from './lib/report.js';

const CLIENTS = 50;
const dirBytes = (d: string) => readdirSync(d).filter((f) => f !== 'LOCK').reduce((n, f) => n + statSync(join(d, f)).size, 0);

/** Sends requests `from..to-1`, each with its own unknown key, from CLIENTS concurrent clients; returns the ms taken. */
async function burst(url: string, from: number, to: number): Promise<number> {
  const t0 = performance.now();
  let next = from;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < to) {
      const i = next++;
      const res = await fetch(`${url}/api/competitions`, { headers: { authorization: `Bearer key${i}_unknown` } });
      await res.arrayBuffer();
    }
  }));
  return performance.now() - t0;
}

/** Rows RL1 (state directory growth) and RL2 (throughput against the same run without rate limits). */
export async function rateLimits(requests = 10_000): Promise<BenchRow[]> {
  const runs = [[], ['--rate-limits', 'upstream']].map((extra) => ({ extra, dir: mkdtempSync(join(tmpdir(), 'compsim-bench-rl-')), ms: 0, bytes: 0 }));
  try {
    const servers = await Promise.all(runs.map(async (r) => {
      const server = await spawnServe(['--state', r.dir, ...r.extra]);
      await burst(server.url, -CLIENTS, 0); // warm-up
      r.bytes = dirBytes(r.dir);
      return server;
    }));
    // Alternate slices between the two servers (each going first in turn), so load from other jobs hits both alike.
    const slice = Math.max(CLIENTS, Math.floor(requests / 10));
    for (let at = 0; at < requests; at += slice) {
      const order = (at / slice) % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) runs[i]!.ms += await burst(servers[i]!.url, at, Math.min(requests, at + slice));
    }
    await Promise.all(servers.map((s) => s.stop()));
    for (const r of runs) r.bytes = dirBytes(r.dir) - r.bytes;
  } finally {
    for (const r of runs) rmSync(r.dir, { recursive: true, force: true });
  }
  const [plain, limited] = runs as [typeof runs[0], typeof runs[0]];
  const perSec = (r: typeof plain) => (requests / r.ms) * 1000;
  const ratio = perSec(limited) / perSec(plain);
  const growth = limited.bytes / 2 ** 20;
  return [
    { id: 'RL1', name: `--rate-limits upstream --state: state directory growth, ${num(requests)} requests with distinct unknown keys`, value: `${growth.toFixed(2)} MB`, target: '<= 1 MB', pass: growth <= 1, notes: `without --rate-limits: ${(plain.bytes / 2 ** 20).toFixed(2)} MB` },
    { id: 'RL2', name: '--rate-limits upstream --state: throughput against the same run without --rate-limits', value: `${ratio.toFixed(2)}x`, target: '>= 0.8x', pass: ratio >= 0.8, notes: `${num(perSec(limited))} vs ${num(perSec(plain))} req/s, ${CLIENTS} clients` },
  ];
}

await benchMain(import.meta, async (args) => rateLimits(Number(args[0] ?? 10_000)));
