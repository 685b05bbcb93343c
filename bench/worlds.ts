// Benchmark W1: many worlds held by one server: memory per idle world created through POST /api/sim/worlds (served in-process over HTTP).
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createServer } from '../src/http/adapters/server.js';
import { WorldHost } from '../src/world/world-host.js';
import { createWorld } from '../src/world/world.js';
import { benchMain } from './lib/proc.js';
import { median, ms, num, type BenchRow } from './lib/report.js';

const ADMIN = '0123456789abcdef_fedcba9876543210';
const MB = 2 ** 20;

/** Heap and buffers outside it after full collections (needs --expose-gc). */
async function settled(): Promise<{ heap: number; buffers: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('bench/worlds needs node --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers + m.external };
}

/** Row W1: `count` idle worlds (plain `{}`, then one request each), and the demo fixture as a second figure. */
export async function worlds(count = 32): Promise<BenchRow[]> {
  const world = await createWorld({ admin: { apiKey: ADMIN } });
  const host = await WorldHost.open(world, { maxWorlds: count * 2 });
  const server = createServer(world, { worlds: host, simApi: true }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (body: unknown) => {
    const res = await fetch(`${url}/api/sim/worlds`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const b = await res.json() as { id: string; adminKey: string };
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(b)}`);
    return b;
  };
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/worlds/demo.json', import.meta.url), 'utf8')) as unknown;
  try {
    // One world made and dropped first, so lazily loaded code and module-level tables are not counted.
    const warm = await post({ fixture });
    await fetch(`${url}/api/sim/worlds/${warm.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } });
    const base = await settled();
    const times: number[] = [];
    const make = async (body: unknown) => {
      const t = performance.now();
      const w = await post(body);
      times.push(performance.now() - t);
      const h = await fetch(`${url}/worlds/${w.id}/api/sim/clock`, { headers: { authorization: `Bearer ${w.adminKey}` } });
      await h.arrayBuffer();
      return w;
    };
    for (let i = 0; i < count; i++) await make({ seed: i });
    const plain = await settled();
    for (let i = 0; i < count; i++) await make({ seed: i, fixture });
    const withDemo = await settled();
    const per = (a: number, b: number) => (b - a) / count / MB;
    const perWorld = per(base.heap + base.buffers, plain.heap + plain.buffers);
    const demo = per(plain.heap + plain.buffers, withDemo.heap + withDemo.buffers);
    return [{
      id: 'W1', name: `many worlds: memory per idle world, ${count} worlds created through POST /api/sim/worlds on one server`,
      value: `${num(perWorld, 2)} MB/world`, target: '<= 2 MB', pass: perWorld <= 2,
      notes: `V8 heap + buffers after full GCs, growth over ${count} plain worlds ({seed}, one request each; the resident set moves by less than the allocator's noise); `
        + `${count} more with the demo fixture (3 agents, 2 competitions): ${num(demo, 2)} MB/world; creating one: ${ms(median(times))} median over HTTP; `
        + `${host.size} worlds held, heap ${num(withDemo.heap / MB, 0)} MB in all`,
    }];
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

await benchMain(import.meta, async (args) => worlds(Number(args[0] ?? 32)));
