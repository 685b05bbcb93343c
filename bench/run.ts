// Small benchmark: world creation and the in-process admin flow, printed as a table relative to a baseline from the same run.
import { performance } from 'node:perf_hooks';
import { createWorld } from '../src/world.js';
import { compileRoutes } from '../src/http/router.js';
import { ROUTES } from '../src/http/routes/index.js';
import { dispatch } from '../src/http/dispatch.js';

const ADMIN_KEY = '0123456789abcdef_fedcba9876543210';
const table = compileRoutes(ROUTES);

/** Runs `fn` repeatedly for about `ms` and returns operations per second. */
async function measure(fn: (i: number) => Promise<unknown>, ms = 1000): Promise<{ ops: number; perSec: number }> {
  for (let i = 0; i < 5; i++) await fn(-1 - i); // warm-up
  let ops = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) await fn(ops++);
  return { ops, perSec: ops / ((performance.now() - t0) / 1000) };
}

async function main(): Promise<void> {
  const world = await createWorld({ admin: { apiKey: ADMIN_KEY }, prices: { kind: 'randomWalk' } });
  const call = (method: string, path: string, body?: unknown, query?: Record<string, string>) =>
    dispatch(world, table, { method, path, headers: { authorization: `Bearer ${ADMIN_KEY}` }, body, ...(query ? { query } : {}) });

  const rows: [string, { ops: number; perSec: number }][] = [];
  // Baseline: the cheapest request (health), so the other rows read as "x times slower than health".
  rows.push(['GET /api/health (baseline)', await measure(() => call('GET', '/api/health'))]);
  rows.push(['createWorld()', await measure(() => createWorld())]);
  rows.push(['POST /api/admin/users (+agent)', await measure((i) => call('POST', '/api/admin/users', {
    walletAddress: `0x${(i + 1000).toString(16).padStart(40, '0')}`, agentName: `bench ${i}`,
  }))]);
  const agents = (await world.deps.store.read((tx) => tx.all('agents'))).slice(0, 20).map((a) => a.id);
  rows.push(['create + start + end competition (20 agents)', await measure(async () => {
    const started = await call('POST', '/api/admin/competition/start', { name: 'bench', agentIds: agents });
    const id = (started.body as { competition: { id: string } }).competition.id;
    await call('POST', '/api/admin/competition/end', { competitionId: id });
  })]);
  rows.push(['GET /api/price (random walk, advancing 1 min)', await measure(async () => {
    await world.advance(60_000);
    await call('GET', '/api/price', undefined, { token: 'So11111111111111111111111111111111111111112' });
  })]);

  const base = rows[0]![1].perSec;
  const w = Math.max(...rows.map(([n]) => n.length));
  console.log(`${'operation'.padEnd(w)}  ${'ops/s'.padStart(10)}  ${'runs'.padStart(7)}  relative`);
  for (const [name, r] of rows) {
    console.log(`${name.padEnd(w)}  ${r.perSec.toFixed(0).padStart(10)}  ${String(r.ops).padStart(7)}  ${(r.perSec / base).toFixed(3)}x`);
  }
}

await main();
