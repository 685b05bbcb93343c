// Dump, load and restart round trips (property, model-based over the HTTP surface with /api/sim/*): after any sequence of calls the world's dump loads back into a world whose next dump is identical, and with --state a restart gives the same dump.
import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDoor } from '../../src/http/adapters/door.js';
import { StatePersistence } from '../../src/world/persistence.js';
import { createWorld, type World } from '../../src/world/world.js';
import type { WorldOptions } from '../../src/world/config.js';
import { budget, figures, reportFigures, timed, type Figures } from './budget.js';
import { checkServed } from '../helpers/answers.js';

const ADMIN = '0123456789abcdef_fedcba9876543210';
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const OPTIONS: WorldOptions = { seed: 11, startTime: '2025-06-02T12:00:00.000Z', admin: { apiKey: ADMIN }, prices: { kind: 'randomWalk', volatility: 0.01 } };

type Answer = { status: number; body: any };

/** The request path every transport uses. */
const DOOR = createDoor();

/** A world behind the request path, on a state directory or in memory, that can be restarted. */
class Real {
  world!: World;
  private persistence: StatePersistence | undefined;
  requests = 0;
  /** Answers of 500 or more (always bugs). */
  readonly bugs: string[] = [];

  constructor(readonly dir: string | null) {}

  async open(): Promise<void> {
    this.persistence = this.dir ? await StatePersistence.open(this.dir) : undefined;
    this.world = await createWorld(OPTIONS, this.persistence);
  }

  async close(): Promise<void> {
    await this.persistence?.close();
  }

  async call(method: string, path: string, body?: unknown, key = ADMIN, world = this.world): Promise<Answer> {
    this.requests += 1;
    const [p, q = ''] = path.split('?');
    const res = checkServed(method, p!, await DOOR.serve(world, {
      method, path: p!, query: q, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }));
    const answer: Answer = { status: res.status, body: res.text === '' ? undefined : JSON.parse(res.text) };
    if (answer.status >= 500) this.bugs.push(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer;
  }

  /** The world as GET /api/sim/dump answers it (without `success`). */
  async dump(world = this.world): Promise<Record<string, unknown>> {
    const { success: _s, ...doc } = (await this.call('GET', '/api/sim/dump', undefined, ADMIN, world)).body as Record<string, unknown>;
    return doc;
  }
}

/** What the commands need to address things: agents (id, key), competitions, snapshots and faults by the ids the server gave. */
interface Model { agents: { id: string; key: string }[]; comps: string[]; snaps: string[]; faults: string[]; users: number }

const pick = <T>(xs: readonly T[], i: number): T | undefined => (xs.length === 0 ? undefined : xs[i % xs.length]);

/** One call of the sequence (a fast-check command whose check always holds: every call is allowed, most just fail). */
abstract class Call implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }

  abstract run(m: Model, r: Real): Promise<void>;
  abstract toString(): string;
}

class Register extends Call {
  async run(m: Model, r: Real) {
    m.users += 1;
    const res = await r.call('POST', '/api/admin/users', { walletAddress: `0x${m.users.toString(16).padStart(40, '0')}`, agentName: `Bot ${m.users}` });
    if (res.status === 201) m.agents.push({ id: res.body.agent.id, key: res.body.agent.apiKey });
  }

  toString() { return 'Register'; }
}

class StartComp extends Call {
  constructor(readonly mask: number) { super(); }

  async run(m: Model, r: Real) {
    const agentIds = m.agents.filter((_, i) => (this.mask >> i) & 1).map((a) => a.id);
    const res = await r.call('POST', '/api/admin/competition/start', { name: `Cup ${m.comps.length}`, agentIds });
    if (res.status === 200) m.comps.push(res.body.competition.id);
  }

  toString() { return `StartComp(${this.mask})`; }
}

class Trade extends Call {
  constructor(readonly a: number, readonly c: number, readonly amount: number, readonly quote: boolean) { super(); }

  async run(m: Model, r: Real) {
    const agent = pick(m.agents, this.a);
    const comp = pick(m.comps, this.c);
    if (!agent || !comp) return;
    if (this.quote) await r.call('GET', `/api/trade/quote?competitionId=${comp}&fromToken=${USDC}&toToken=${SOL}&amount=${this.amount}`, undefined, agent.key);
    else await r.call('POST', '/api/trade/execute', { competitionId: comp, fromToken: USDC, toToken: SOL, amount: this.amount, reason: 'model' }, agent.key);
  }

  toString() { return `${this.quote ? 'Quote' : 'Trade'}(${this.a}, ${this.c}, ${this.amount})`; }
}

/** A sim control call: clock, prices, tapes, faults, balances, lifecycle cheat codes, snapshots, reset. */
class Sim extends Call {
  constructor(readonly kind: string, readonly n: number) { super(); }

  async run(m: Model, r: Real) {
    const agent = pick(m.agents, this.n);
    const comp = pick(m.comps, this.n);
    switch (this.kind) {
      case 'advance': await r.call('POST', '/api/sim/clock', { advanceMs: [1000, 300_000, 3_600_000, 86_400_000][this.n % 4] }); break;
      case 'price': await r.call('POST', '/api/sim/prices', { prices: [{ token: [SOL, WETH][this.n % 2], price: [0, 1.5, 150, 1e12][this.n % 4] }] }); break;
      case 'clearPrices': await r.call('DELETE', '/api/sim/prices'); break;
      case 'tape': await r.call('POST', '/api/sim/prices/tape', { tapes: { [`svm:${SOL}`]: [[Date.parse('2025-06-02T12:00:00Z'), 140], [Date.parse('2025-06-03T12:00:00Z'), 160 + this.n]] } }); break;
      case 'fault': {
        const f = await r.call('POST', '/api/sim/faults', [{ kind: 'priceZero', token: SOL }, { kind: 'rateLimit', path: '/api/trade', count: 1 }, { kind: 'priceStale', token: WETH }][this.n % 3]);
        if (f.status === 200) m.faults.push(f.body.id);
        break;
      }
      case 'removeFault': if (m.faults.length > 0) await r.call('DELETE', `/api/sim/faults/${m.faults.splice(this.n % m.faults.length, 1)[0]}`); break;
      case 'balance': if (agent && comp) await r.call('POST', '/api/sim/balances', { agentId: agent.id, competitionId: comp, balances: [{ token: USDC, amount: [0, 10, 1e18][this.n % 3] }] }); break;
      case 'end': if (comp) await r.call('POST', `/api/sim/competitions/${comp}/end`); break;
      case 'snapshot': {
        const s = await r.call('POST', '/api/sim/snapshots');
        if (s.status === 200) m.snaps.push(s.body.id);
        break;
      }
      case 'restore': {
        const id = pick(m.snaps, this.n);
        // Keys and ids after a restore are the snapshot's; the model keeps addressing what it knew (unknown ids just fail).
        if (id) await r.call('POST', `/api/sim/snapshots/${id}/restore`);
        break;
      }
      case 'reset': {
        await r.call('POST', '/api/sim/reset', this.n % 2 === 0 ? {} : { seed: this.n, options: { slippage: 'expected', prices: { kind: 'randomWalk', stepMs: 30_000 } } });
        Object.assign(m, { agents: [], comps: [], snaps: [], faults: [] });
        break;
      }
      default: throw new Error(`unknown sim call ${this.kind}`);
    }
  }

  toString() { return `Sim(${this.kind}, ${this.n})`; }
}

/** The property itself, as a command too (so shrinking finds the shortest sequence): dump, load into a fresh world and into this one; both dumps must equal the first. */
class RoundTrip extends Call {
  async run(_m: Model, r: Real) {
    const doc = await r.dump();
    const fresh = await createWorld({ ...OPTIONS, seed: 99 });
    const loaded = await r.call('POST', '/api/sim/load', doc, ADMIN, fresh);
    expect(loaded.status, JSON.stringify(loaded.body)).to.equal(200);
    expect(await r.dump(fresh)).to.deep.equal(doc);
    expect((await r.call('POST', '/api/sim/load', doc)).status).to.equal(200);
    expect(await r.dump()).to.deep.equal(doc);
  }

  toString() { return 'RoundTrip'; }
}

/** With --state: the process stops (what is on disk is all that is left) and starts again; the dump is the same. */
class Restart extends Call {
  async run(_m: Model, r: Real) {
    if (!r.dir) return;
    const before = await r.dump();
    await r.close();
    await r.open();
    expect(await r.dump()).to.deep.equal(before);
  }

  toString() { return 'Restart'; }
}

const SIM_KINDS = ['advance', 'price', 'clearPrices', 'tape', 'fault', 'removeFault', 'balance', 'end', 'snapshot', 'restore', 'reset'];

function commands(): fc.Arbitrary<fc.AsyncCommand<Model, Real>>[] {
  const n = fc.nat({ max: 11 });
  return [fc.oneof(
    { weight: 3, arbitrary: fc.constant(new Register()) },
    { weight: 2, arbitrary: fc.nat({ max: 15 }).map((mask) => new StartComp(mask)) },
    { weight: 6, arbitrary: fc.tuple(n, n, fc.constantFrom(1, 50, 5000), fc.boolean()).map(([a, c, x, q]) => new Trade(a, c, x, q)) },
    { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...SIM_KINDS), n).map(([k, i]) => new Sim(k, i)) },
    { weight: 2, arbitrary: fc.constant(new RoundTrip()) },
    { weight: 1, arbitrary: fc.constant(new Restart()) },
  )];
}

async function check(r: Real, runs: number, seed: number, fig: Figures): Promise<void> {
  await fc.assert(fc.asyncProperty(fc.commands(commands(), { maxCommands: budget(12, 40), size: 'max' }), async (cmds) => {
    await r.call('POST', '/api/sim/reset', {});
    const m: Model = { agents: [], comps: [], snaps: [], faults: [], users: 0 };
    // Two agents trading in a started competition first, so most calls apply.
    const prefix = [new Register(), new Register(), new StartComp(0b11)];
    fig.runs += 1;
    fig.commands += prefix.length + [...cmds].length + 2;
    await fc.asyncModelRun(() => ({ model: m, real: r }), [...prefix, ...cmds, new RoundTrip(), new Restart()]);
    expect(r.bugs).to.deep.equal([]);
  }), { numRuns: runs, seed, endOnFailure: true });
}

describe('dump, load and restart round trips (property, over the HTTP surface with /api/sim/*)', function () {
  this.timeout(budget(120_000, 3_600_000));
  const memory = figures('dump/load round trips, in memory');
  const state = figures('dump/load round trips and restarts, --state');
  after(() => reportFigures([memory, state]));

  it('loads any world\'s dump back into a world whose next dump is identical', async () => {
    const r = new Real(null);
    await r.open();
    await timed(memory, () => check(r, budget(15, 400, 4), 20250811, memory));
    memory.requests += r.requests;
  });

  it('gives the same dump after a restart on the state directory, after any sequence of calls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compsim-roundtrip-'));
    const r = new Real(dir);
    try {
      await r.open();
      await timed(state, () => check(r, budget(6, 150, 2), 20250812, state));
      state.requests += r.requests;
    } finally {
      await r.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
