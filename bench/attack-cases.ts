// The reproductions of the containment attack on a served --state server: each case drives one finding and checks that it stays where it starts.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A `compsim serve` child under attack. */
export interface AttackServer {
  url: string;
  pid: number | undefined;
  /** Resolves with the exit code when the process ends (null for a signal). */
  exited: Promise<number | null>;
  /** False once the process has ended. */
  alive(): boolean;
  kill(signal: NodeJS.Signals): void;
}

/** One answer as the attack saw it. */
export interface Answer { status: number; body: any }

/** What a case may do: call the server, restart it, read its state directory, and note findings. */
export interface AttackContext {
  dir: string;
  admin: string;
  serverKey(): string;
  /** A request; a status of 500 or more counts as a failure unless `expect5xx` says it is the documented answer (a damaged world's 503). */
  call(method: string, path: string, opts?: { key?: string; body?: unknown; headers?: Record<string, string>; expect5xx?: boolean }): Promise<Answer>;
  /** Stops the server (SIGKILL unless `gentle`) and starts it again on the same directory. */
  restart(gentle?: boolean): Promise<void>;
  /** Starts `compsim serve` on another directory and reports how it ended when it refuses to start (null: it started and was stopped). */
  startElsewhere(dir: string): Promise<{ code: number | null; out: string } | null>;
  /** A check that must hold; a false one is a finding of the case. */
  check(ok: boolean, what: string): void;
  /** Numbers worth reporting (memory, counts). */
  note(key: string, value: string | number): void;
  /** The server's resident set in MB (null where there is no /proc). */
  rssMb(): number | null;
  /** Whether the case may wait for the wall clock (idle TTLs are wall time). */
  wallClock: boolean;
  /** Catalogue tokens to price in the far-price case (53 for all). */
  tokens: number;
}

/** A reproduction: its name and what it does. */
export interface AttackCase { name: string; run(c: AttackContext): Promise<void> }

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKENS = JSON.parse(readFileSync(new URL('../fixtures/tokens.json', import.meta.url), 'utf8')) as { chains: Record<string, { address: string }[]> };

async function create(c: AttackContext, body: unknown = {}): Promise<{ id: string; adminKey: string }> {
  const res = await c.call('POST', '/api/sim/worlds', { key: c.serverKey(), body });
  c.check(res.status === 201, `create answers 201 (got ${res.status} ${JSON.stringify(res.body).slice(0, 200)})`);
  return res.body as { id: string; adminKey: string };
}

async function worldIds(c: AttackContext): Promise<string[]> {
  const res = await c.call('GET', '/api/sim/worlds', { key: c.serverKey() });
  c.check(res.status === 200, `GET /api/sim/worlds answers 200 (got ${res.status})`);
  return ((res.body.worlds ?? []) as { id: string }[]).map((w) => w.id);
}

/** A world whose directory was moved away: its deletion and its expiry are logged, the server goes on. */
const movedAway: AttackCase = {
  name: 'a world whose directory is gone expires or is deleted',
  async run(c) {
    const a = await create(c);
    renameSync(join(c.dir, 'worlds', a.id), join(c.dir, `moved-${a.id}`));
    c.check((await c.call('DELETE', `/api/sim/worlds/${a.id}`, { key: c.serverKey() })).status === 200, 'DELETE of a world whose directory is gone answers 200');
    if (c.wallClock) {
      const b = await create(c, { idleTtlSeconds: 1 });
      renameSync(join(c.dir, 'worlds', b.id), join(c.dir, `moved-${b.id}`));
      const until = Date.now() + 1_200;
      while (Date.now() < until) await c.call('GET', '/api/health');
      c.check((await c.call('GET', `/worlds/${b.id}/api/health`)).status === 404, 'the expired world answers 404');
    }
    c.check(!(await worldIds(c)).includes(a.id), 'the world is forgotten');
    c.check((await c.call('POST', '/api/sim/worlds', { key: c.serverKey(), body: {} })).status === 201, 'creating still works');
  },
};

/** Times near and past the end of a Date: refused with a 400 naming the field, nothing half-made. */
const clockRange: AttackCase = {
  name: 'dates outside the clock range',
  async run(c) {
    const before = await worldIds(c);
    c.check((await c.call('POST', '/api/sim/reset', { key: c.admin, body: { options: { startTime: 8639999999999000 } } })).status === 400, 'reset to 8639999999999000 is a 400');
    c.check((await c.call('POST', '/api/sim/clock', { key: c.admin, body: { advanceMs: 86_400_000 } })).status === 200, 'the default world still moves');
    c.check((await c.call('POST', '/api/sim/worlds', { key: c.serverKey(), body: { startTime: 8640000000000001 } })).status === 400, 'a creation at 8640000000000001 is a 400');
    c.check(JSON.stringify(await worldIds(c)) === JSON.stringify(before), 'the refused creation left no world');
    const w = await create(c);
    c.check((await c.call('POST', `/worlds/${w.id}/api/sim/reset`, { key: w.adminKey, body: { options: { startTime: '9999-12-31T00:00:00.000Z' } } })).status === 200, 'a reset to 9999-12-31 is fine');
    c.check((await c.call('POST', `/worlds/${w.id}/api/sim/clock`, { key: w.adminKey, body: { advanceMs: 2 * 86_400_000 } })).status === 400, 'a move past 9999 is a 400');
    c.check((await worldIds(c)).includes(w.id), 'the list still answers');
  },
};

/** Price feeds and amounts that were accepted and broke later: refused at every door. */
const badInputs: AttackCase = {
  name: 'price feeds, amounts and constraints that cannot be stored',
  async run(c) {
    const w = await create(c);
    const bad: Record<string, unknown>[] = [
      { prices: { kind: 'constant', prices: { [`svm:${SOL}`]: -5 } } }, { prices: { kind: 'tape', tapes: { [`svm:${SOL}`]: [[0, -1]] } } },
      { prices: { kind: 'randomWalk', stepMs: 'x' } }, { prices: { kind: 'randomWalk', volatility: 1e308 } }, { prices: { kind: 'randomWalk', stepMs: 0 } },
      { prices: { kind: 'tape', tapes: 'str' } }, { fixture: { prices: 5 } }, { prices: { kind: 'constant', prices: { [`svm:${SOL}`]: 1e308 } } },
      { defaultInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1e308 }] }, { defaultTradingConstraints: { minimumPairAgeHours: 'x' } },
      { fixture: { competitions: [{ name: 'X', paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1e308 }] }] } },
    ];
    for (const options of bad) {
      c.check((await c.call('POST', '/api/sim/worlds', { key: c.serverKey(), body: { options } })).status === 400, `create refuses ${JSON.stringify(options).slice(0, 80)}`);
      c.check((await c.call('POST', `/worlds/${w.id}/api/sim/reset`, { key: w.adminKey, body: { options } })).status === 400, `reset refuses ${JSON.stringify(options).slice(0, 80)}`);
    }
    const { agentId, competitionId } = await arena(c, w);
    const balances = { agentId, competitionId, balances: [{ token: USDC, amount: 1e308 }] };
    c.check((await c.call('POST', `/worlds/${w.id}/api/sim/balances`, { key: w.adminKey, body: balances })).status === 400, 'a balance of 1e308 is a 400');
    const dump = await c.call('GET', `/worlds/${w.id}/api/sim/dump`, { key: w.adminKey });
    c.check((await c.call('POST', `/worlds/${w.id}/api/sim/load`, { key: w.adminKey, body: dump.body })).status === 200, 'the world\'s own dump loads back');
  },
};

/** A walk priced far from its origin: bounded memory instead of a heap-out-of-memory crash of every world. */
const farPrices: AttackCase = {
  name: 'random-walk prices far from the origin',
  async run(c) {
    const w = await create(c, { options: { prices: { kind: 'randomWalk', origin: 0 } } });
    const tokens = Object.entries(TOKENS.chains).flatMap(([chain, list]) => list.map((t) => [chain, t.address] as const)).slice(0, c.tokens);
    for (const [chain, token] of tokens) {
      const res = await c.call('GET', `/worlds/${w.id}/api/price?token=${encodeURIComponent(token)}&specificChain=${chain}`, { key: w.adminKey });
      c.check(res.status === 200 || res.status === 400 || res.status === 404, `price of ${chain}:${token} answers (got ${res.status})`);
    }
    c.note('far prices', tokens.length);
    const rss = c.rssMb();
    if (rss !== null) {
      c.note('server MB', rss);
      // A bounded walk keeps the whole server near its idle size; a walk per step took about 40 MB per token.
      c.check(rss < 600, `the server stays small after pricing ${tokens.length} tokens far away (${rss} MB resident)`);
    }
  },
};

/** An agent (by its own key) in a started competition of world `w`: the same ids and key in two worlds of one seed. */
async function arena(c: AttackContext, w: { id: string; adminKey: string }): Promise<{ agentId: string; key: string; competitionId: string }> {
  const user = await c.call('POST', `/worlds/${w.id}/api/admin/users`, { key: w.adminKey, body: { walletAddress: `0x${'c'.repeat(40)}`, agentName: 'Attacker' } });
  const agentId = user.body.agent.id as string;
  const start = await c.call('POST', `/worlds/${w.id}/api/admin/competition/start`, { key: w.adminKey, body: { name: 'Attack Cup', agentIds: [agentId] } });
  c.check(start.status === 200, `a competition starts (got ${start.status})`);
  return { agentId, key: user.body.agent.apiKey as string, competitionId: start.body.competition.id as string };
}

/** Quote, kill -9, restart: the next trades are those of a world that was never killed. */
const quoteThenCrash: AttackCase = {
  name: 'a quote followed by a crash',
  async run(c) {
    const trades = async (w: { id: string; adminKey: string }, crash: boolean) => {
      const { key, competitionId } = await arena(c, w);
      await c.call('GET', `/worlds/${w.id}/api/trade/quote?competitionId=${competitionId}&fromToken=${USDC}&toToken=${SOL}&amount=100`, { key });
      if (crash) await c.restart();
      const out: unknown[] = [];
      for (let i = 0; i < 2; i++) {
        const t = await c.call('POST', `/worlds/${w.id}/api/trade/execute`, { key, body: { competitionId, fromToken: USDC, toToken: SOL, amount: 10 + i, reason: 'attack' } });
        out.push(t.body?.transaction?.toAmount);
      }
      return JSON.stringify(out);
    };
    const plain = await trades(await create(c, { seed: 31 }), false);
    const crashed = await trades(await create(c, { seed: 31 }), true);
    c.check(plain === crashed, `trades after a quote are the same with and without a crash (${plain} vs ${crashed})`);
  },
};

/** The delete right of a world's own key, and forwarded headers in a world's url. */
const keysAndUrls: AttackCase = {
  name: 'a world\'s own key and forwarded headers',
  async run(c) {
    const a = await create(c);
    const b = await create(c);
    const dump = await c.call('GET', `/worlds/${b.id}/api/sim/dump`, { key: b.adminKey });
    await c.call('POST', `/worlds/${a.id}/api/sim/load`, { key: a.adminKey, body: dump.body });
    c.check((await c.call('DELETE', `/api/sim/worlds/${a.id}`, { key: a.adminKey })).status === 200, 'a world\'s own key deletes it after a load');
    const res = await c.call('POST', '/api/sim/worlds', { key: c.serverKey(), body: {}, headers: { 'x-forwarded-host': 'evil"/><script>', 'x-forwarded-proto': 'javascript' } });
    c.check(res.status === 201 && !String(res.body.url).includes('evil') && String(res.body.url).startsWith('http://'), `forwarded headers are not echoed (${res.body.url})`);
  },
};

/** Damaged, missing and copied world files, and a deleted world's id: the others start, nothing is erased or reused. */
const damagedFiles: AttackCase = {
  name: 'damaged, missing and copied world files at start',
  async run(c) {
    const ws = [await create(c), await create(c), await create(c), await create(c), await create(c)];
    const gone = await create(c);
    await c.call('DELETE', `/api/sim/worlds/${gone.id}`, { key: c.serverKey() });
    await c.restart(true);
    const path = (id: string, f = '') => join(c.dir, 'worlds', id, f);
    writeFileSync(path(ws[0]!.id, 'world.json'), '');
    writeFileSync(path(ws[1]!.id, 'world.json'), 'null');
    for (const f of readdirSync(path(ws[2]!.id))) if (f.startsWith('journal-')) unlinkSync(path(ws[2]!.id, f));
    unlinkSync(path(ws[3]!.id, 'world.json'));
    cpSync(path(ws[4]!.id), path('w999'), { recursive: true });
    writeFileSync(path('w999', 'world.json'), readFileSync(path(ws[4]!.id, 'world.json'), 'utf8').replace(`"${ws[4]!.id}"`, '"w999"'));
    await c.restart();
    const list = (await c.call('GET', '/api/sim/worlds', { key: c.serverKey() })).body.worlds as { id: string; status: string }[];
    const status = (id: string) => list.find((x) => x.id === id)?.status;
    for (const w of ws.slice(0, 4)) {
      c.check(status(w.id) === 'damaged', `${w.id} is listed as damaged`);
      c.check(existsSync(path(w.id)), `${w.id}'s directory is kept`);
      c.check((await c.call('GET', `/worlds/${w.id}/api/health`, { expect5xx: true })).status === 503, `${w.id} answers 503`);
    }
    c.check(status(ws[4]!.id) === 'ok' && status('w999') === 'damaged', 'the copy is refused and the original served');
    const next = await create(c);
    c.check(next.id !== gone.id && !ws.some((w) => w.id === next.id), `a new world gets a new id (${next.id})`);
  },
};

/** The default world's journal removed: the start is refused with a message, never a fresh world. */
const defaultJournalGone: AttackCase = {
  name: 'the default world\'s journal removed',
  async run(c) {
    const other = join(c.dir, '..', `${c.dir.split(/[\\/]/).pop()}-default`);
    c.check((await c.startElsewhere(other)) === null, 'a fresh directory starts');
    for (const f of readdirSync(other)) if (f.startsWith('journal-')) unlinkSync(join(other, f));
    const refused = await c.startElsewhere(other);
    c.check(refused !== null && refused.code !== 0 && refused.out.includes('every journal and snapshot file is gone'), 'the start is refused, naming the lost files');
    c.check(existsSync(join(other, 'compsim-state.json')) && !readdirSync(other).some((f) => f.startsWith('journal-')), 'nothing was written over it');
  },
};

/** Every case, in the order the attack runs them. */
export const ATTACK_CASES: AttackCase[] = [movedAway, clockRange, badInputs, farPrices, quoteThenCrash, keysAndUrls, damagedFiles, defaultJournalGone];
