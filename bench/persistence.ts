// Persistence benchmark: HTTP trade throughput with --state against memory (same run), state size per 10k trades, restart time for 100k trades.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDoor } from '../src/http/adapters/door.js';
import { StatePersistence } from '../src/world/persistence.js';
import { createWorld, type World } from '../src/world/world.js';

const ADMIN = '0123456789abcdef_fedcba9876543210';
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RESTART_TRADES = Number(process.env.BENCH_RESTART_TRADES ?? 100_000);
const MAIN = join(import.meta.dirname, '..', 'src', 'cli', 'main.ts');
const door = createDoor();
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'compsim-bench-'));
  dirs.push(d);
  return d;
};
const dirBytes = (d: string) => readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0);
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;

type Call = (method: string, path: string, key: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** `compsim serve` in a child process (so the load generator does not share its CPU). */
async function serveChild(args: string[]): Promise<{ url: string; ms: number; stop: () => Promise<void> }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--port', '0', '--admin-key', ADMIN, '--log-level', 'silent', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', () => reject(new Error(`server exited: ${out}`)));
  });
  const ms = performance.now() - t0;
  return { url, ms, stop: () => new Promise<void>((resolve) => { child.on('exit', () => resolve()); child.kill('SIGINT'); }) };
}

const httpCall = (url: string): Call => async (method, path, key, body) => {
  const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: await res.json() };
};

const worldCall = (world: World): Call => async (method, path, key, body) => {
  const r = await door.serve(world, { method, path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: r.status, body: r.body };
};

/** `n` agents in one started competition with large balances. */
async function arena(call: Call, n: number): Promise<{ competitionId: string; keys: string[] }> {
  const agents: { id: string; key: string }[] = [];
  for (let i = 0; i < n; i++) {
    const r = await call('POST', '/api/admin/users', ADMIN, { walletAddress: `0x${(i + 1).toString(16).padStart(40, '0')}`, agentName: `Bench ${i}` });
    agents.push({ id: r.body.agent.id, key: r.body.agent.apiKey });
  }
  const r = await call('POST', '/api/admin/competition/start', ADMIN, {
    name: 'Bench Cup', agentIds: agents.map((a) => a.id),
    paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 10_000_000 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 10_000 }],
  });
  return { competitionId: r.body.competition.id, keys: agents.map((a) => a.key) };
}

/** One client per agent trading back and forth until `stop()` says so; returns trades and latencies. */
async function trade(call: Call, a: { competitionId: string; keys: string[] }, stop: (done: number) => boolean) {
  let done = 0;
  const lat: number[] = [];
  await Promise.all(a.keys.map(async (key, i) => {
    for (let buy = i % 2 === 0; !stop(done); buy = !buy) {
      const t0 = performance.now();
      const r = await call('POST', '/api/trade/execute', key, {
        competitionId: a.competitionId, reason: 'bench', ...(buy ? { fromToken: USDC, toToken: SOL, amount: '15' } : { fromToken: SOL, toToken: USDC, amount: '0.1' }),
      });
      if (r.status !== 200) throw new Error(`trade failed: ${JSON.stringify(r.body)}`);
      lat.push(performance.now() - t0);
      done += 1;
    }
  }));
  lat.sort((x, y) => x - y);
  return { done, p50: lat[Math.floor(lat.length / 2)]!, p99: lat[Math.floor(lat.length * 0.99)]! };
}

/**
 * Trade throughput of a memory server and a `--state` server, both running, in alternating windows
 * (so a noisy machine hits both alike); the median window of each is reported.
 */
async function throughput(rounds: number) {
  const servers = [{ label: 'memory store', args: [] as string[] }, { label: 'file store (--state)', args: ['--state', tmp()] }];
  const live = await Promise.all(servers.map(async (s) => {
    const srv = await serveChild(s.args);
    const call = httpCall(srv.url);
    const a = await arena(call, CLIENTS);
    await trade(call, a, (n) => n >= CLIENTS * 10); // warm-up
    return { ...s, srv, call, a, windows: [] as { perSec: number; p50: number; p99: number }[] };
  }));
  for (let r = 0; r < rounds; r++) {
    for (const s of live) {
      const t0 = performance.now();
      const w = await trade(s.call, s.a, () => performance.now() - t0 >= (SECONDS * 1000) / rounds);
      s.windows.push({ perSec: w.done / ((performance.now() - t0) / 1000), p50: w.p50, p99: w.p99 });
    }
  }
  const medians = live.map((s) => {
    const m = [...s.windows].sort((x, y) => x.perSec - y.perSec)[Math.floor(s.windows.length / 2)]!;
    console.log(`${s.label.padEnd(22)} ${m.perSec.toFixed(0).padStart(7)} trades/s   p50 ${m.p50.toFixed(1)} ms   p99 ${m.p99.toFixed(1)} ms`
      + `   (windows: ${s.windows.map((w) => w.perSec.toFixed(0)).join(', ')})`);
    return m.perSec;
  });
  await Promise.all(live.map((s) => s.srv.stop()));
  const pairs = live[1]!.windows.map((w, i) => w.perSec / live[0]!.windows[i]!.perSec).sort((x, y) => x - y);
  console.log(`durable / memory: ${(medians[1]! / medians[0]!).toFixed(2)} (medians); per adjacent window pair ${pairs.map((x) => x.toFixed(2)).join(', ')}, `
    + `median ${pairs[Math.floor(pairs.length / 2)]!.toFixed(2)}`);
}

/** Child mode (`--measure-restart DIR`): opens the directory and builds the world in a fresh process; prints JSON. */
async function measureRestart(dir: string): Promise<void> {
  const t0 = performance.now();
  const p = await StatePersistence.open(dir);
  const opened = performance.now();
  const world = await createWorld({ admin: { apiKey: ADMIN } }, p);
  const trades = await world.deps.store.read((tx) => tx.count('trades'));
  const built = performance.now();
  await p.close();
  console.log(JSON.stringify({ trades, openMs: opened - t0, totalMs: built - t0 }));
}

/** Runs {@link measureRestart} in a child process (fresh heap, cold code: a real restart). */
function restartInChild(dir: string): Promise<{ trades: number; openMs: number; totalMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--measure-restart', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`restart child exited ${code}: ${out}`))));
  });
}

async function main(): Promise<void> {
  const rounds = 5;
  console.log(`HTTP POST /api/trade/execute, ${CLIENTS} concurrent clients, servers in child processes, ${rounds} alternating windows of ${SECONDS / rounds} s each`);
  await throughput(rounds);

  // Size and restart: trades through the full request path in-process (no sockets), 50 at a time.
  const dir = tmp();
  const p = await StatePersistence.open(dir);
  const world = await createWorld({ admin: { apiKey: ADMIN } }, p);
  const a = await arena(worldCall(world), CLIENTS);
  const base = dirBytes(dir);
  await trade(worldCall(world), a, (n) => n >= 10_000);
  console.log(`\nstate size per 10k trades: ${mb(dirBytes(dir) - base)} of journal`);
  const t0 = performance.now();
  await trade(worldCall(world), a, (n) => n >= RESTART_TRADES - 10_000);
  console.log(`wrote ${RESTART_TRADES} trades in ${((performance.now() - t0) / 1000 + 0).toFixed(1)} s more (in-process, durable)`);
  await p.close();
  const files = readdirSync(dir).filter((f) => f !== 'LOCK').map((f) => `${f} ${mb(statSync(join(dir, f)).size)}`);
  console.log(`state directory: ${files.join(', ')}`);

  const runs = [await restartInChild(dir), await restartInChild(dir), await restartInChild(dir)].sort((x, y) => x.totalMs - y.totalMs);
  const { trades } = runs[1]!;
  console.log(`restart with ${trades} trades (fresh process, median of 3): ${runs[1]!.totalMs.toFixed(0)} ms `
    + `(${runs[1]!.openMs.toFixed(0)} ms to lock, check and replay the files, the rest to build the world); best ${runs[0]!.totalMs.toFixed(0)} ms`);
  const fresh = await serveChild(['--state', tmp()]);
  await fresh.stop();
  const full = await serveChild(['--state', dir]);
  await full.stop();
  console.log(`compsim serve --state to listening: ${full.ms.toFixed(0)} ms with ${trades} trades, ${fresh.ms.toFixed(0)} ms on an empty directory`);
}

if (process.argv[2] === '--measure-restart') {
  await measureRestart(process.argv[3]!);
} else {
  try {
    await main();
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}
