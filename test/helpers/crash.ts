// Crash-test harness: `compsim serve --state` children under a stream of writes, killed with SIGKILL at seeded points, tampered with, restarted and checked.
import { expect } from 'chai';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFrame, scanFrames } from '../../src/adapters/file/frame.js';
import { listStateFiles } from '../../src/adapters/file/state-files.js';
import { SeededIds } from '../../src/adapters/ids/seeded-ids.js';
import { CliPool, type Child } from './cli-pool.js';

/** Admin key of the crash-test servers. */
export const CRASH_ADMIN = '0123456789abcdef_fedcba9876543210';
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const INITIAL: Record<string, number> = { [USDC]: 1_000_000, [SOL]: 1000 };

/** What the test knows: the world's agents and every acknowledged write. */
interface Model {
  competitionId: string;
  agents: { id: string; key: string }[];
  /** Acknowledged trade ids (and every id seen after a restart: durable ones must stay). */
  trades: Set<string>;
  clock: number;
  price: number;
  priceCounter: number;
}

async function call(url: string, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, {
    method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

async function setup(url: string, clients: number): Promise<Model> {
  const agents: Model['agents'] = [];
  for (let i = 0; i < clients; i++) {
    const res = await call(url, 'POST', '/api/admin/users', CRASH_ADMIN, { walletAddress: `0x${(i + 1).toString(16).padStart(40, '0')}`, agentName: `Crash ${i}` });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    agents.push({ id: res.body.agent.id, key: res.body.agent.apiKey });
  }
  const started = await call(url, 'POST', '/api/admin/competition/start', CRASH_ADMIN, {
    name: 'Crash Cup', agentIds: agents.map((a) => a.id),
    paperTradingInitialBalances: Object.entries(INITIAL).map(([t, amount]) => ({ specificChain: 'svm', tokenSymbol: t === SOL ? 'sol' : 'usdc', amount })),
  });
  expect(started.status, JSON.stringify(started.body)).to.equal(200);
  return { competitionId: started.body.competition.id, agents, trades: new Set(), clock: 0, price: 0, priceCounter: 0 };
}

/** Writes from every client until `k` are acknowledged, then SIGKILLs the child with the others in flight. */
async function writeUntilKill(url: string, child: Child, m: Model, k: number): Promise<number> {
  let acks = 0;
  let killed = false;
  const ack = () => {
    acks += 1;
    if (acks >= k && !killed) {
      killed = true;
      child.proc.kill('SIGKILL');
    }
  };
  const trader = async (a: Model['agents'][number], i: number) => {
    for (let buy = i % 2 === 0; !killed; buy = !buy) {
      const body = buy ? { fromToken: USDC, toToken: SOL, amount: '15' } : { fromToken: SOL, toToken: USDC, amount: '0.1' };
      let res;
      try {
        res = await call(url, 'POST', '/api/trade/execute', a.key, { ...body, competitionId: m.competitionId, reason: 'crash test' });
      } catch {
        return; // the server died under this request: not acknowledged
      }
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      m.trades.add(res.body.transaction.id);
      ack();
    }
  };
  const sim = async () => {
    for (let n = 0; !killed; n++) {
      try {
        if (n % 2 === 0) {
          const res = await call(url, 'POST', '/api/sim/clock', CRASH_ADMIN, { advanceMs: 60_000 });
          expect(res.status).to.equal(200);
          m.clock = Date.parse(res.body.now);
        } else {
          const price = ++m.priceCounter;
          const res = await call(url, 'POST', '/api/sim/prices', CRASH_ADMIN, { prices: [{ token: BONK, specificChain: 'svm', price }] });
          expect(res.status).to.equal(200);
          m.price = price;
        }
      } catch (err) {
        if ((err as Error).name === 'AssertionError') throw err;
        return;
      }
      ack();
    }
  };
  await Promise.all([...m.agents.map(trader), sim()]);
  return acks;
}

/** Every acknowledged write is there, and each agent's balances equal its starting balances plus the replay of its stored trades. */
async function verify(url: string, m: Model): Promise<void> {
  const res = await call(url, 'GET', '/api/sim/dump', CRASH_ADMIN);
  expect(res.status).to.equal(200);
  const { trades, balances } = res.body.tables as { trades: any[]; balances: any[] };
  const stored = new Set(trades.map((t) => t.id as string));
  const lost = [...m.trades].filter((id) => !stored.has(id));
  expect(lost, 'acknowledged trades lost').to.deep.equal([]);
  for (const id of stored) m.trades.add(id); // durable now: must never disappear
  expect(res.body.aux.clock).to.be.at.least(m.clock);
  const bonk = (res.body.aux.priceOverrides as any[]).find((o) => o.address === BONK);
  expect(bonk?.price ?? 0).to.be.at.least(m.price);
  m.priceCounter = Math.max(m.priceCounter, bonk?.price ?? 0);
  m.clock = res.body.aux.clock;
  for (const a of m.agents) {
    const want = { ...INITIAL };
    for (const t of trades.filter((x) => x.agentId === a.id)) {
      want[t.fromToken] = (want[t.fromToken] ?? 0) - t.fromAmount;
      want[t.toToken] = (want[t.toToken] ?? 0) + t.toAmount;
    }
    const got = Object.fromEntries(balances.filter((b) => b.agentId === a.id && b.competitionId === m.competitionId).map((b) => [b.tokenAddress, b.amount]));
    for (const token of Object.keys(want)) expect(got[token], `${a.id} ${token}`).to.be.closeTo(want[token]!, 1e-6);
  }
}

/** Appends a prefix of a valid frame to the last journal (an append cut by the crash). */
function tearJournal(dir: string, rng: SeededIds): void {
  const last = listStateFiles(dir).journals.at(-1)!;
  const frame = encodeFrame(JSON.stringify({ seq: 1e9, w: 0, k: 'tx', ops: [], pad: 'x'.repeat(200) }));
  appendFileSync(join(dir, last.name), frame.subarray(0, 1 + Math.floor(rng.random() * (frame.length - 1))));
}

/**
 * Copies the directory and flips one byte in a journal record that is not the file's last one (or,
 * when no journal has one, anywhere in the snapshot); returns the damaged file and that frame's offset.
 */
function corruptCopy(dir: string, copy: string, rng: SeededIds): { file: string; offset: number } {
  cpSync(dir, copy, { recursive: true });
  rmSync(join(copy, 'LOCK'), { force: true });
  const files = listStateFiles(copy);
  const candidates = [...files.journals.map((j) => ({ name: j.name, spare: 1 })), ...files.snapshots.map((s) => ({ name: s.name, spare: 0 }))];
  for (const c of candidates) {
    const file = join(copy, c.name);
    const buf = readFileSync(file);
    const { frames } = scanFrames(buf, file, true);
    if (frames.length < 2 + c.spare) continue;
    const f = frames[1 + Math.floor(rng.random() * (frames.length - 1 - c.spare))]!;
    const at = f.offset + Math.floor(rng.random() * (f.end - f.offset));
    buf[at] = buf[at]! ^ 0xff;
    writeFileSync(file, buf);
    return { file, offset: f.offset };
  }
  throw new Error(`nothing to corrupt in ${copy}`);
}

/** Options of {@link crashRun}. */
export interface CrashOptions { trials: number; seed: number; clients?: number; maxAcks?: number; compactMb?: number; log?: (line: string) => void }

/** Counts of a crash run. */
export interface CrashStats { kills: number; acked: number; torn: number; zeroFilled: number; corrupt: number; maxRestartMs: number }

/**
 * Runs `trials` kill-restart rounds on one state directory: writes until a seeded number of them
 * is acknowledged, SIGKILL, on every fourth round a torn or zero-filled journal end (recovered) or a
 * flipped byte in a copy (refused), restart, and every acknowledged write must be there.
 */
export async function crashRun(o: CrashOptions): Promise<CrashStats> {
  const rng = new SeededIds(o.seed);
  const dir = mkdtempSync(join(tmpdir(), 'compsim-crash-'));
  const args = ['--port', '0', '--state', dir, '--sim-api', '--admin-key', CRASH_ADMIN, '--log-level', 'warn', '--state-compact-mb', String(o.compactMb ?? 0.25)];
  const pool = new CliPool();
  const stats: CrashStats = { kills: 0, acked: 0, torn: 0, zeroFilled: 0, corrupt: 0, maxRestartMs: 0 };
  let running: Child | null = null;
  try {
    let { child, url } = await pool.serve(args);
    running = child;
    const m = await setup(url, o.clients ?? 4);
    for (let t = 0; t < o.trials; t++) {
      const t0 = performance.now();
      stats.acked += await writeUntilKill(url, child, m, 1 + Math.floor(rng.random() * (o.maxAcks ?? 40)));
      await child.exited;
      stats.kills += 1;
      // Every fourth restart tampers first: a torn append, a zero-filled end, a flipped byte (in a copy).
      const tamper = t % 4 === 1 ? (['torn', 'zeros', 'corrupt'] as const)[((t - 1) / 4) % 3]! : 'none';
      if (tamper === 'corrupt') {
        const copy = mkdtempSync(join(tmpdir(), 'compsim-corrupt-'));
        try {
          const hit = corruptCopy(dir, copy, rng);
          const res = await pool.run(['serve', ...args.slice(0, 2), '--state', copy, ...args.slice(4)]);
          expect(res.code, res.out).to.equal(1);
          expect(res.out).to.include(`corrupt state file ${hit.file} at byte offset ${hit.offset}`);
          stats.corrupt += 1;
        } finally {
          rmSync(copy, { recursive: true, force: true });
        }
      }
      if (tamper === 'torn') tearJournal(dir, rng);
      if (tamper === 'zeros') appendFileSync(join(dir, listStateFiles(dir).journals.at(-1)!.name), Buffer.alloc(4096));
      const started = await pool.serve(args);
      ({ child, url } = started);
      running = child;
      stats.maxRestartMs = Math.max(stats.maxRestartMs, started.ms);
      if (tamper === 'torn' || tamper === 'zeros') {
        expect(child.out()).to.match(/cutting a torn last record/);
        stats[tamper === 'torn' ? 'torn' : 'zeroFilled'] += 1;
      }
      await verify(url, m);
      o.log?.(`trial ${t + 1}/${o.trials}: ${m.trades.size} trades stored, ${tamper}, restart ${started.ms.toFixed(0)} ms, trial ${(performance.now() - t0).toFixed(0)} ms`);
    }
    return stats;
  } finally {
    running?.proc.kill('SIGKILL');
    await running?.exited;
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
