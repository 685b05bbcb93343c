// POST /api/sim/load and World.load check every row, id, sequence and aux state of a document (400 naming the place, world unchanged), and every real world's dump still loads.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { IN_PROCESS_ADMIN_KEY } from '../../src/world/in-process-target.js';
import { checkedInProcessTarget } from '../helpers/answers.js';
import { openServeState, stateMain } from '../../src/cli/state.js';
import { DomainError } from '../../src/domain/errors.js';
import { TABLES } from '../../src/domain/tables.js';
import type { StoreDump } from '../../src/ports/store.js';
import { findScenarioFiles } from '../../src/harness/files.js';
import { runScenario } from '../../src/harness/runner.js';
import { loadScenario } from '../../src/harness/schema.js';
import type { Json } from '../../src/harness/types.js';
import { createWorld } from '../../src/world/world.js';
import { DEMO } from '../helpers/sim.js';
import { buildRichWorld, type RichWorld } from './dump-world.js';

type Row = Record<string, Json>;
/** A dump document as plain JSON. */
interface Doc { format: string; version: number; tables: Record<string, Row[]>; seqs: Record<string, number>; aux: Record<string, Json> }

/** One broken document: what to change in a copy of the rich world's dump, and the message of the 400. */
interface Case { what: string; change: (d: Doc) => void; message: (d: Doc) => string }

const set = (table: string, i: number, field: string, value: Json) => (d: Doc) => { d.tables[table]![i]![field] = value; };
const drop = (table: string, i: number, field: string) => (d: Doc) => { delete d.tables[table]![i]![field]; };
const fixed = (m: string) => () => m;
const row = (table: string, i: number, field: string, value: Json, m: string): Case =>
  ({ what: `${table}[${i}].${field} = ${JSON.stringify(value)}`, change: set(table, i, field, value), message: fixed(`tables.${table}[${i}].${field} ${m}`) });
const missing = (table: string, i: number, field: string): Case =>
  ({ what: `${table}[${i}] without ${field}`, change: drop(table, i, field), message: fixed(`tables.${table}[${i}].${field} is required`) });

const STATUS = 'must be one of active, inactive, suspended, deleted';

/** Broken rows of every table (at least a missing required field and a wrong type each). */
const ROW_CASES: Record<string, Case[]> = {
  admins: [missing('admins', 0, 'passwordHash'), row('admins', 0, 'status', 'boss', STATUS), row('admins', 0, 'createdAt', '2025-06-02', 'must be a number')],
  users: [
    missing('users', 1, 'metadata'), row('users', 1, 'walletAddress', 42, 'must be a string'), row('users', 0, 'isSubscribed', 'yes', 'must be true or false'),
    row('users', 2, 'lastLoginAt', 'never', 'must be a number or null'),
  ],
  agents: [
    missing('agents', 1, 'name'), row('agents', 0, 'generation', 'future', 'must be one of current, legacy'), row('agents', 2, 'email', 5, 'must be a string or null'),
    row('agents', 1, 'apiKeyEnc', '00:11', "does not decrypt with this world's root key"),
  ],
  arenas: [missing('arenas', 0, 'kind'), row('arenas', 1, 'venues', 'evm', 'must be an array or null'), row('arenas', 0, 'createdAt', null, 'must be a number')],
  competitions: [
    row('competitions', 3, 'status', 7, 'must be one of pending, active, ending, ended'), missing('competitions', 0, 'arenaId'),
    row('competitions', 1, 'endDate', 1e300, 'must be <= 8.64e15 (the range of a Date)'), row('competitions', 2, 'sandboxMode', 'false', 'must be true or false'),
    row('competitions', 0, 'slippageModel', 'exotic', 'must be one of legacy, current'),
    { what: 'competitions[0].tradingConstraints.minimumFdvUsd = null', change: (d) => { (d.tables.competitions![0]!.tradingConstraints as Row).minimumFdvUsd = null; },
      message: fixed('tables.competitions[0].tradingConstraints.minimumFdvUsd must be a number') },
    { what: 'competitions[0].initialBalances[1].specificChain = "mars"', change: (d) => { ((d.tables.competitions![0]!.initialBalances as Row[])[1]!).specificChain = 'mars'; },
      message: fixed('tables.competitions[0].initialBalances[1].specificChain must be one of eth, polygon, bsc, arbitrum, optimism, avalanche, base, linea, zksync, scroll, mantle, svm') },
    { what: 'competitions[0].rewards = [{rank: 1}]', change: set('competitions', 0, 'rewards', [{ rank: 1 }]), message: fixed('tables.competitions[0].rewards[0].reward is required') },
  ],
  competitionAgents: [
    missing('competitionAgents', 0, 'agentId'), row('competitionAgents', 1, 'status', 'gone', 'must be one of active, withdrawn, disqualified'),
    row('competitionAgents', 2, 'deactivatedAt', 'yesterday', 'must be a number or null'),
    {
      what: 'competitionAgents[0].id not <competitionId>:<agentId>', change: set('competitionAgents', 0, 'id', 'registration-1'),
      message: (d) => `tables.competitionAgents[0].id must be <competitionId>:<agentId> ("${String(d.tables.competitionAgents![0]!.competitionId)}:${String(d.tables.competitionAgents![0]!.agentId)}"), got "registration-1"`,
    },
  ],
  balances: [
    missing('balances', 4, 'symbol'), row('balances', 2, 'amount', 'x', 'must be a number'), row('balances', 0, 'id', '1', 'must be an integer'),
    row('balances', 1, 'specificChain', 'mars', 'must be one of eth, polygon, bsc, arbitrum, optimism, avalanche, base, linea, zksync, scroll, mantle, svm'),
  ],
  snapshots: [row('snapshots', 0, 'timestamp', null, 'must be a number'), missing('snapshots', 3, 'totalValue'), row('snapshots', 1, 'agentId', 7, 'must be a string')],
  leaderboards: [
    missing('leaderboards', 0, 'score'), row('leaderboards', 1, 'rank', '1', 'must be an integer'), row('leaderboards', 0, 'rank', 1.5, 'must be an integer'),
    {
      what: 'leaderboards[0].id not <competitionId>:<agentId>', change: set('leaderboards', 0, 'id', 'first'),
      message: (d) => `tables.leaderboards[0].id must be <competitionId>:<agentId> ("${String(d.tables.leaderboards![0]!.competitionId)}:${String(d.tables.leaderboards![0]!.agentId)}"), got "first"`,
    },
  ],
  trades: [
    missing('trades', 0, 'fromAmount'), row('trades', 1, 'tradeType', 'real', 'must be one of simulated, spot_live'), row('trades', 2, 'txHash', 5, 'must be a string or null'),
    row('trades', 0, 'timestamp', '2025-06-02T12:00:00Z', 'must be a number'),
  ],
  votes: [missing('votes', 0, 'userId'), row('votes', 0, 'createdAt', true, 'must be a number')],
  ratings: [
    missing('ratings', 0, 'sigma'), row('ratings', 1, 'type', 'chess', 'must be one of trading, perpetual_futures, spot_live_trading, sports_prediction'),
    row('ratings', 0, 'arenaId', 5, 'must be a string or null'),
    {
      what: 'ratings[0].id not type:<type>:<agentId>', change: set('ratings', 0, 'id', 'elo'),
      message: (d) => `tables.ratings[0].id must be type:<type>:<agentId> or arena:<arenaId>:<agentId> ("type:trading:${String(d.tables.ratings![0]!.agentId)}"), got "elo"`,
    },
  ],
  rewardClaims: [missing('rewardClaims', 0, 'updatedAt'), row('rewardClaims', 0, 'claimed', 'yes', 'must be true or false')],
  agentNonces: [missing('agentNonces', 0, 'agentId'), row('agentNonces', 0, 'expiresAt', null, 'must be a number'), row('agentNonces', 0, 'usedAt', 'x', 'must be a number or null')],
  inferenceSubmissions: [missing('inferenceSubmissions', 0, 'signature'), row('inferenceSubmissions', 0, 'verificationStatus', 'ok', 'must be one of verified, invalid, pending')],
  inferenceBadges: [missing('inferenceBadges', 0, 'lastVerifiedAt'), row('inferenceBadges', 0, 'isBadgeActive', 1, 'must be true or false')],
  perpsPositions: [
    missing('perpsPositions', 0, 'leverage'), row('perpsPositions', 1, 'status', 'open', 'must be one of Open, Closed, Liquidated'),
    row('perpsPositions', 0, 'closePrice', 'x', 'must be a number or null'), row('perpsPositions', 0, 'frozenMark', null, 'must be a number'),
  ],
  scriptActions: [
    missing('scriptActions', 0, 'status'), row('scriptActions', 0, 'action', 'hold', 'must be one of open, close, swap'),
    row('scriptActions', 0, 'params', 'BTC', 'must be an object'), row('scriptActions', 0, 'id', 1.5, 'must be an integer'),
    // A pending open still runs: its asset is upper-cased and its agent looked up.
    { what: 'a pending open with asset 5', change: (d) => { (d.tables.scriptActions![0]!.params as Row).asset = 5; }, message: fixed('tables.scriptActions[0].params.asset must be a string') },
    row('scriptActions', 0, 'agentId', null, 'must be a string'),
    {
      what: 'a pending open turned into a swap (no swap params)', change: set('scriptActions', 0, 'action', 'swap'),
      message: fixed('tables.scriptActions[0].params.fromToken is required'),
    },
  ],
  partners: [missing('partners', 0, 'name'), row('partners', 0, 'url', 5, 'must be a string or null')],
  competitionPartners: [
    row('competitionPartners', 0, 'position', 'first', 'must be a number'),
    { what: 'competitionPartners[0].id = "x"', change: set('competitionPartners', 0, 'id', 'x'), message: (g) => `tables.competitionPartners[0].id must be <competitionId>:<partnerId> (${JSON.stringify(`${String(g.tables.competitionPartners![0]!.competitionId)}:${String(g.tables.competitionPartners![0]!.partnerId)}`)}), got "x"` },
  ],
};

/** Names that are no tables, broken ids, sequences and aux states. */
const OTHER_CASES: Case[] = [
  { what: 'a table named toString', change: (d) => { Object.assign(d.tables, { toString: [] }); }, message: fixed("unknown table 'toString'") },
  {
    what: 'a repeated trade id', change: (d) => { d.tables.trades![1]!.id = d.tables.trades![0]!.id!; },
    message: (d) => `tables.trades[1].id "${String(d.tables.trades![0]!.id)}" is already the id of tables.trades[0]`,
  },
  {
    what: 'seqs.balances behind the largest balance id', change: (d) => { d.seqs.balances = 3; },
    message: (d) => `seqs.balances must be at least ${d.tables.balances!.length}, the largest id in tables.balances (got 3)`,
  },
  { what: 'aux.clock = "now"', change: (d) => { d.aux.clock = 'now'; }, message: fixed('aux.clock must be a number') },
  { what: 'aux.ids with two numbers of state', change: (d) => { (d.aux.ids as Row).state = [1, 2]; }, message: fixed('aux.ids.state must have at least 4 items') },
  { what: 'aux.ids of another generator', change: (d) => { d.aux.ids = { algorithm: 'dice', state: [1, 2, 3, 4] }; }, message: fixed('SeededIds: unknown state') },
  {
    what: 'a negative price override', change: (d) => { (d.aux.priceOverrides as Row[])[0]!.price = -1; },
    message: fixed('aux.priceOverrides[0].price must be >= 0'),
  },
  { what: 'a price override on no chain', change: (d) => { delete (d.aux.priceOverrides as Row[])[0]!.specificChain; }, message: fixed('aux.priceOverrides[0].specificChain is required') },
  { what: 'a tape key without a chain', change: (d) => { d.aux.priceTapes = { JUP: [[0, 1]] }; }, message: fixed('aux.priceTapes key "JUP" must be "<specificChain>:<address>"') },
  { what: 'a tape point with a text price', change: (d) => { d.aux.priceTapes = { 'svm:JUP': [[0, 'one']] }; }, message: fixed('aux.priceTapes["svm:JUP"][0][1] must be a number') },
  { what: 'an empty tape', change: (d) => { d.aux.priceTapes = { 'svm:JUP': [] }; }, message: fixed('aux.priceTapes["svm:JUP"] must have at least 1 item') },
  {
    what: 'a fault of an unknown kind', change: (d) => { ((d.aux.faults as Row).faults as Row[])[0]!.kind = 'meteor'; },
    message: fixed('aux.faults.faults[0].kind must be one of priceMissing, priceZero, priceStale, constraintFail, rateLimit, latency'),
  },
  { what: 'a price fault without its token', change: (d) => { delete ((d.aux.faults as Row).faults as Row[])[0]!.token; }, message: fixed('aux.faults.faults[0].token is required') },
  {
    what: 'a latency fault of a week', change: (d) => { ((d.aux.faults as Row).faults as Row[]).push({ id: 'fault-2', kind: 'latency', path: '/api', ms: 604_800_000 }); },
    message: fixed('aux.faults.faults[1].ms must be <= 120000'),
  },
  { what: 'faults without a counter', change: (d) => { delete (d.aux.faults as Row).next; }, message: fixed('aux.faults.next is required') },
  { what: 'a rate-limit window of two values', change: (d) => { d.aux.rateLimits = [['trade:k', 3]]; }, message: fixed('aux.rateLimits[0] must have at least 3 items') },
];

describe('POST /api/sim/load checks the contents of the document', function () {
  this.timeout(60_000);
  let rich: RichWorld;
  let good: Doc;
  before(async () => {
    rich = await buildRichWorld();
    good = rich.dump as unknown as Doc;
  });

  const admin = () => ({ authorization: `Bearer ${rich.t.admin}` });
  const load = (body: unknown) => rich.t.send({ method: 'POST', path: '/api/sim/load', query: {}, headers: admin(), body: body as Json });
  const dump = async () => (await rich.t.send({ method: 'GET', path: '/api/sim/dump', query: {}, headers: admin() })).body;

  it('has a row in every table to break', () => {
    for (const name of Object.keys(TABLES)) expect(good.tables[name], name).to.have.length.greaterThan(0);
    expect(Object.keys(ROW_CASES)).to.have.members(Object.keys(TABLES));
  });

  /** Loads each broken copy: 400 with the exact message, and the world answers the same dump afterwards. */
  async function refuses(cases: Case[]): Promise<void> {
    for (const c of cases) {
      const before = await dump();
      const doc = structuredClone(good);
      c.change(doc);
      const res = await load(doc);
      expect(res.status, `${c.what}: ${JSON.stringify(res.body)}`).to.equal(400);
      expect(res.body, c.what).to.deep.equal({ success: false, error: `Invalid world document: ${c.message(good)}` });
      expect(await dump(), `${c.what} changed the world`).to.deep.equal(before);
    }
  }

  for (const [table, cases] of Object.entries(ROW_CASES)) {
    it(`refuses broken rows of ${table}, naming the field, and changes nothing (400)`, () => refuses(cases));
  }

  it('refuses names that are no tables, repeated ids, a sequence behind its ids and broken aux states (400)', () => refuses(OTHER_CASES));

  it('refuses a table named __proto__: its JSON text in the body parser (400), its own key (as JSON.parse makes it) in world.load', async () => {
    const before = await dump();
    const doc = structuredClone(good);
    Object.defineProperty(doc.tables, '__proto__', { value: [{ id: 1 }], enumerable: true, configurable: true, writable: true });
    const res = await load(doc);
    expect([res.status, res.body]).to.deep.equal([400, { success: false, error: 'Invalid request body: a "__proto__" key is not allowed (at any depth)' }]);
    let refused: unknown;
    try {
      await rich.t.world.load(doc as never);
    } catch (err) {
      refused = err;
    }
    expect((refused as Error | undefined)?.message).to.equal("Invalid world document: unknown table '__proto__'");
    expect(await dump()).to.deep.equal(before);
  });

  it('loads the unbroken document (200), extra row fields included', async () => {
    const doc = structuredClone(good);
    doc.tables.trades![0]!.note = 'hand-edited';
    expect((await load(doc)).status).to.equal(200);
    expect((await dump() as unknown as Doc).tables.trades![0]!.note).to.equal('hand-edited');
    expect((await load(good)).body).to.deep.equal({ success: true, now: '2025-06-02T12:10:00.000Z' });
    expect(await dump()).to.deep.equal({ success: true, ...good });
  });

  it('is the check World.load applies too (SIM_BAD_DUMP)', async () => {
    const w = await createWorld({ seed: 'other' });
    const before = await w.dump();
    const doc = structuredClone(good);
    doc.tables.competitions![3]!.status = 7;
    let err: unknown;
    try {
      await w.load(doc as unknown as StoreDump);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(DomainError);
    expect((err as DomainError).code).to.equal('SIM_BAD_DUMP');
    expect((err as Error).message).to.equal('Invalid world document: tables.competitions[3].status must be one of pending, active, ending, ended');
    expect(await w.dump()).to.deep.equal(before);
  });
});

describe('dumps of real worlds load', function () {
  this.timeout(120_000);
  const ROOT = join(import.meta.dirname, '..', '..');

  /** Dumps `a` (as JSON crosses the wire), loads it into a fresh world and expects the same dump back. */
  async function roundTrip(a: Awaited<ReturnType<typeof createWorld>>, options: Parameters<typeof createWorld>[0] = {}): Promise<void> {
    const d = JSON.parse(JSON.stringify(await a.dump())) as StoreDump;
    const b = await createWorld({ seed: 'elsewhere', ...options });
    await b.load(d);
    expect(await b.dump()).to.deep.equal(d);
  }

  it('round-trips the demo world (fixtures/worlds/demo.json), before and after a day of trading time', async () => {
    const w = await createWorld({ fixture: DEMO });
    await roundTrip(w);
    await w.advance(86_400_000);
    await roundTrip(w);
  });

  it('round-trips a world with upstream rate limits and one on the system clock', async () => {
    const limited = await createWorld({ fixture: DEMO, rateLimits: 'upstream' });
    await limited.sim.gate({ method: 'GET', path: '/api/agents', principal: { kind: 'anonymous' }, ip: '10.0.0.1', headers: {} });
    expect((await limited.dump()).aux).to.have.property('rateLimits');
    // A load starts the windows afresh: the loaded world's dump is the document with none.
    const d = JSON.parse(JSON.stringify(await limited.dump())) as StoreDump;
    const b = await createWorld({ seed: 'elsewhere', rateLimits: 'upstream' });
    await b.load(d);
    expect(await b.dump()).to.deep.equal({ ...d, aux: { ...d.aux, rateLimits: [] } });
    await roundTrip(await createWorld({ fixture: DEMO, clock: 'system' }), { clock: 'system' });
  });

  it('loads into a file-backed world (--state): a refused document changes nothing, an accepted one survives a restart and state export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compsim-load-'));
    const quiet = { info: () => {}, warn: () => {} };
    try {
      const source = await createWorld({ fixture: DEMO });
      await source.advance(3_600_000);
      const d = JSON.parse(JSON.stringify(await source.dump())) as StoreDump;
      const p1 = await openServeState(dir, quiet);
      const w = await createWorld({ seed: 'persisted' }, p1);
      const before = await w.dump();
      const bad = structuredClone(d) as unknown as Doc;
      bad.tables.balances![0]!.amount = 'lots';
      let err: unknown;
      try {
        await w.load(bad as unknown as StoreDump);
      } catch (e) {
        err = e;
      }
      expect((err as Error).message).to.equal('Invalid world document: tables.balances[0].amount must be a number');
      expect(await w.dump()).to.deep.equal(before);
      await w.load(d);
      await p1.close();
      const p2 = await openServeState(dir, quiet);
      const reopened = await createWorld({ seed: 'persisted' }, p2);
      expect(await reopened.dump()).to.deep.equal(d);
      await p2.close();
      const out = join(dir, 'export.json');
      let text = '';
      expect(await stateMain(['export', dir, '--out', out], { out: { write: (t: string) => (text += t) }, err: { write: (t: string) => (text += t) } }), text).to.equal(0);
      const exported = JSON.parse(readFileSync(out, 'utf8')) as StoreDump;
      const fresh = await createWorld({ seed: 'fresh' });
      await fresh.load(exported);
      expect(await fresh.dump()).to.deep.equal(d);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the API version and synthetic tokens of a file-backed world across a restart (--state)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compsim-mode-'));
    const quiet = { info: () => {}, warn: () => {} };
    const odd = '0x1234567890abcdef1234567890abcdef12345678';
    try {
      const p1 = await openServeState(dir, quiet);
      const w = await createWorld({ seed: 5, apiVersion: '2025-10', unknownTokens: 'synthetic' }, p1);
      const price = w.deps.prices.price(odd, 'eth', w.deps.clock.now());
      expect(price).to.be.a('number');
      await p1.close();
      const p2 = await openServeState(dir, quiet);
      // Started again without the options: the directory keeps the world it was created with.
      const reopened = await createWorld({ seed: 5 }, p2);
      expect(reopened.config).to.include({ apiVersion: '2025-10', unknownTokens: 'synthetic' });
      expect(reopened.deps.prices.price(odd, 'eth', reopened.deps.clock.now())).to.equal(price);
      expect((await reopened.dump()).aux).to.deep.include({ mode: { apiVersion: '2025-10', unknownTokens: 'synthetic' } });
      await p2.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('round-trips the world of every scenario in scenarios/ after it ran', async () => {
    const files = findScenarioFiles([join(ROOT, 'scenarios')]);
    expect(files.length).to.be.greaterThan(10);
    for (const file of files) {
      const target = checkedInProcessTarget();
      const sc = loadScenario(file);
      const result = await runScenario(sc, target);
      expect(result.ok, relative(ROOT, file)).to.equal(true);
      const headers = { authorization: `Bearer ${IN_PROCESS_ADMIN_KEY}` };
      const d = await target.send({ method: 'GET', path: '/api/sim/dump', query: {}, headers });
      const res = await target.send({ method: 'POST', path: '/api/sim/load', query: {}, headers, body: d.body });
      expect(res.status, `${relative(ROOT, file)}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect((await target.send({ method: 'GET', path: '/api/sim/dump', query: {}, headers })).body, relative(ROOT, file)).to.deep.equal(d.body);
    }
  });
});
