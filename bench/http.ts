// Benchmarks 1 and 1c: HTTP trade and health-read throughput, 50 concurrent clients (autocannon), `compsim serve` against a Koa echo app with the same middleware stack, in the same run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ADMIN_KEY, SOL, USDC } from './lib/arena.js';
import { benchMain, nodeArgs, spawnListening, spawnServe, type ChildServer } from './lib/proc.js';
import { median, ms, num, type BenchRow } from './lib/report.js';

const CLIENTS = 50;

/**
 * Node flags of a server child: under `--profile` (this process runs with `--cpu-prof`) each server
 * writes its own profile into a subdirectory of this process's profile directory, so the profile
 * shows the request path rather than the load generator.
 */
function childProfileFlags(label: string): string[] {
  if (!process.execArgv.includes('--cpu-prof')) return [];
  const dir = process.execArgv.find((a) => a.startsWith('--cpu-prof-dir='))?.slice('--cpu-prof-dir='.length) ?? '.';
  return ['--cpu-prof', `--cpu-prof-dir=${join(dir, `server-${label}`)}`];
}

async function call(url: string, path: string, key: string, body: unknown): Promise<any> {
  const res = await fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json() as { success?: boolean };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** `n` agents in one started competition of the served world; returns their keys and the competition id. */
async function setup(url: string, n: number): Promise<{ competitionId: string; keys: string[] }> {
  const agents: { id: string; key: string }[] = [];
  for (let i = 0; i < n; i++) {
    const r = await call(url, '/api/admin/users', ADMIN_KEY, { walletAddress: `0x${(i + 1).toString(16).padStart(40, '0')}`, agentName: `Bench ${i}` });
    agents.push({ id: r.agent.id, key: r.agent.apiKey });
  }
  const r = await call(url, '/api/admin/competition/start', ADMIN_KEY, {
    name: 'Bench Cup', agentIds: agents.map((a) => a.id),
    paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1e12 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 1e9 }],
  });
  return { competitionId: r.competition.id, keys: agents.map((a) => a.key) };
}

/**
 * CPU seconds (user + system, all threads) a process has used, from /proc; null where there is no
 * /proc. Read around each window, it gives the server's CPU per answered request, a figure that
 * moves less with the machine's state than throughput does (the load generator shares the cores).
 */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks of 1/100 s (Linux's USER_HZ).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** What a window sends: trades (each connection an agent alternating buy and sell) or health reads. */
type Load = 'trade' | 'health';

/** One load window: `CLIENTS` connections sending `kind` requests. */
async function load(kind: Load, url: string, seconds: number, competitionId: string, keys: string[], pid?: number) {
  let next = 0;
  const cpu0 = cpuSeconds(pid);
  const r = await autocannon({
    url: `${url}/api/${kind === 'trade' ? 'trade/execute' : 'health'}`, connections: CLIENTS, duration: seconds,
    setupClient: (client) => {
      if (kind === 'health') {
        client.setRequests([{ method: 'GET', path: '/api/health' }]);
        return;
      }
      const key = keys[next++ % keys.length]!;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      client.setRequests([
        { method: 'POST', path: '/api/trade/execute', headers, body: JSON.stringify({ competitionId, fromToken: USDC, toToken: SOL, amount: '15', reason: 'bench' }) },
        { method: 'POST', path: '/api/trade/execute', headers, body: JSON.stringify({ competitionId, fromToken: SOL, toToken: USDC, amount: '0.1', reason: 'bench' }) },
      ]);
    },
  });
  const cpu1 = cpuSeconds(pid);
  const answered = r['2xx'] + r.non2xx;
  const cpuUs = cpu0 !== null && cpu1 !== null && answered > 0 ? ((cpu1 - cpu0) * 1e6) / answered : null;
  return { perSec: r['2xx'] / r.duration, non2xx: r.non2xx, errors: r.errors + r.timeouts, p50: r.latency.p50, p99: r.latency.p99, cpuUs };
}

/** A window's figures. */
type Window = Awaited<ReturnType<typeof load>>;

/** The row of one load: median of the alternating windows of each server, and their ratio (three decimals: a ratio just under the target must not read as 0.79). */
function loadRow(id: string, kind: Load, target: number, k: Window[], c: Window[], rounds: number, seconds: number): BenchRow {
  const koaRate = median(k.map((w) => w.perSec));
  const rate = median(c.map((w) => w.perSec));
  const pairs = c.map((w, i) => w.perSec / k[i]!.perSec);
  const bad = c.reduce((n, w) => n + w.non2xx + w.errors, 0) + k.reduce((n, w) => n + w.non2xx + w.errors, 0);
  const cpuC = c.every((w) => w.cpuUs !== null) ? median(c.map((w) => w.cpuUs!)) : null;
  const cpuK = k.every((w) => w.cpuUs !== null) ? median(k.map((w) => w.cpuUs!)) : null;
  const cpu = cpuC !== null && cpuK !== null
    ? `server CPU per request (user + system, all threads) compsim ${num(cpuC)} µs, Koa ${num(cpuK)} µs (${(cpuK / cpuC).toFixed(2)} x); ` : '';
  const what = kind === 'trade' ? 'POST /api/trade/execute' : 'GET /api/health';
  return {
    id, name: `HTTP ${what}, ${CLIENTS} concurrent clients (autocannon): compsim serve vs a Koa echo with the same stack (@koa/router, koa-bodyparser, @koa/cors, logger silent)`,
    value: `${num(rate)} ${kind === 'trade' ? 'trades' : 'requests'}/s = ${(rate / koaRate).toFixed(3)} x Koa`, target: `>= ${target} x Koa echo`, pass: rate / koaRate >= target,
    notes: `Koa echo ${num(koaRate)} req/s; median of ${rounds} alternating ${seconds} s windows each (per window pair ${pairs.map((x) => x.toFixed(3)).join(', ')}); `
      + `latency p50/p99 compsim ${ms(median(c.map((w) => w.p50)))}/${ms(median(c.map((w) => w.p99)))}, Koa ${ms(median(k.map((w) => w.p50)))}/${ms(median(k.map((w) => w.p99)))}; `
      + `${cpu}servers in child processes, load generator in this one; ${bad} non-2xx or errors`,
  };
}

/** Rows 1 (trades, >= 0.5 x the echo) and 1c (health reads, >= 0.8 x): alternating windows of each server, in one run. */
export async function http(rounds = 3, seconds = 5): Promise<BenchRow[]> {
  const servers: ChildServer[] = [];
  try {
    const koa = await spawnListening(nodeArgs('bench/koa-echo', childProfileFlags('koa')));
    servers.push(koa);
    const compsim = await spawnServe(['--admin-key', ADMIN_KEY], childProfileFlags('compsim'));
    servers.push(compsim);
    const arena = await setup(compsim.url, CLIENTS);
    const targets = [{ label: 'koa', url: koa.url, pid: koa.child.pid }, { label: 'compsim', url: compsim.url, pid: compsim.child.pid }];
    const rows: BenchRow[] = [];
    for (const [id, kind, target] of [['1', 'trade', 0.5], ['1c', 'health', 0.8]] as const) {
      for (const t of targets) await load(kind, t.url, 2, arena.competitionId, arena.keys); // warm-up
      const windows = new Map(targets.map((t) => [t.label, [] as Window[]]));
      for (let i = 0; i < rounds; i++) {
        for (const t of targets) windows.get(t.label)!.push(await load(kind, t.url, seconds, arena.competitionId, arena.keys, t.pid));
      }
      rows.push(loadRow(id, kind, target, windows.get('koa')!, windows.get('compsim')!, rounds, seconds));
    }
    return rows;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

await benchMain(import.meta, async (args) => http(Number(args[0] ?? 3), Number(args[1] ?? 5)));
