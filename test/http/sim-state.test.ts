// Simulation control API: manual prices and tapes, snapshots that fork identical runs, dump and load between servers.
import { expect } from 'chai';
import { createAgent, expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { TOK } from '../helpers/trading.js';
import { startDemo } from '../helpers/sim.js';

const WETH_L2 = '0x4200000000000000000000000000000000000006'; // optimism and base
const T0 = Date.UTC(2025, 0, 1);

describe('/api/sim/prices', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());
  afterEach(() => s.call('DELETE', '/api/sim/prices', { key: ADMIN_KEY }));
  const price = (token: string, specificChain?: string) =>
    s.call('GET', '/api/price', { key: ADMIN_KEY, query: { token, ...(specificChain ? { specificChain } : {}) } }).then((r) => r.body);
  const set = (prices: unknown) => s.call('POST', '/api/sim/prices', { key: ADMIN_KEY, body: { prices } });

  it('sets overrides on the default chains: svm, else every EVM chain that lists the token, else eth (200)', async () => {
    const res = await set([{ token: TOK.SOL, price: 99 }, { token: WETH_L2, price: 4000 }, { token: '0x' + '7'.repeat(40), price: 2, symbol: 'SEVEN' }]);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true,
      overrides: [
        { token: TOK.SOL, specificChain: 'svm', price: 99 },
        { token: WETH_L2, specificChain: 'optimism', price: 4000 },
        { token: WETH_L2, specificChain: 'base', price: 4000 },
        { token: '0x' + '7'.repeat(40), specificChain: 'eth', price: 2, symbol: 'SEVEN' },
      ],
    });
    expect((await price(TOK.SOL)).price).to.equal(99);
    expect((await price(WETH_L2, 'optimism')).price).to.equal(4000);
    expect(await price('0x' + '7'.repeat(40))).to.include({ success: true, price: 2, symbol: 'SEVEN', specificChain: 'eth' });
  });

  it('sets an override on an explicit chain only, and lists overrides (200)', async () => {
    await set([{ token: WETH_L2, specificChain: 'base', price: 1234 }]);
    expect((await price(WETH_L2, 'base')).price).to.equal(1234);
    expect((await price(WETH_L2, 'optimism')).price).to.equal(3000);
    const list = await s.call('GET', '/api/sim/prices', { key: ADMIN_KEY });
    expect(list.body).to.deep.equal({ success: true, overrides: [{ token: WETH_L2, specificChain: 'base', price: 1234 }], tapes: [] });
  });

  it('clears every override and tape with DELETE (200)', async () => {
    await set([{ token: TOK.SOL, price: 1 }]);
    expect((await s.call('DELETE', '/api/sim/prices', { key: ADMIN_KEY })).body).to.deep.equal({ success: true });
    expect((await price(TOK.SOL)).price).to.equal(150);
  });

  it('rejects a missing price, a negative price and an unknown chain (400)', async () => {
    expectError(await set([{ token: TOK.SOL }]), 400, 'Invalid request: prices.0.price (required)');
    expectError(await set([{ token: TOK.SOL, price: -1 }]), 400, 'Invalid request: prices.0.price (must be >= 0)');
    expectError(await set([{ token: TOK.SOL, price: 1, specificChain: 'moon' }]), 400,
      'Invalid request: prices.0.specificChain (must be equal to one of the allowed values: eth, polygon, bsc, arbitrum, optimism, avalanche, base, linea, zksync, scroll, mantle, svm)');
    expectError(await s.call('POST', '/api/sim/prices', { key: ADMIN_KEY, body: {} }), 400, 'Invalid request: prices (required)');
  });

  it('loads a tape that taped tokens follow with interpolation while others keep the feed (200)', async () => {
    const res = await s.call('POST', '/api/sim/prices/tape', {
      key: ADMIN_KEY, body: { tapes: { [`svm:${TOK.SOL}`]: [[T0, 100], ['2025-01-01T00:01:00Z', 200]] } },
    });
    expect(res.body).to.deep.equal({ success: true, tapes: [`svm:${TOK.SOL}`] });
    expect((await price(TOK.SOL)).price).to.equal(100);
    await s.world.advance(30_000);
    expect((await price(TOK.SOL)).price).to.equal(150);
    await s.world.advance(60_000);
    expect((await price(TOK.SOL)).price).to.equal(200);
    expect((await price(TOK.JUP)).price).to.equal(0.8);
    await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} });
  });

  it('names a bad tape key or point (400)', async () => {
    const tape = (tapes: unknown) => s.call('POST', '/api/sim/prices/tape', { key: ADMIN_KEY, body: { tapes } });
    expectError(await tape({ 'moon:abc': [[T0, 1]] }), 400, `Invalid request: tapes (tape key 'moon:abc' is not "<specificChain>:<address>")`);
    expectError(await tape({ [`svm:${TOK.SOL}`]: [['soon', 1]] }), 400, `Invalid request: tapes.svm:${TOK.SOL}.0 (not an epoch-ms number or ISO time: "soon")`);
    expectError(await tape({ [`svm:${TOK.SOL}`]: [[T0, -3]] }), 400, `Invalid request: tapes (tape 'svm:${TOK.SOL}' has a bad point [${T0},-3] (want [epochMs, price from 0 to 1000000000000]))`);
    expectError(await tape({ [`svm:${TOK.SOL}`]: [] }), 400, `Invalid request: tapes.svm:${TOK.SOL} (must NOT have fewer than 1 items)`);
  });
});

describe('/api/sim/snapshots', () => {
  let s: TestServer;
  before(async () => { s = await startDemo({ slippage: 'upstream' }); });
  after(() => s.close());

  /** One run from the snapshot: a new agent, a manual price, a trade with random slippage, an hour of jobs. */
  async function run(id: string) {
    const restored = await s.call('POST', `/api/sim/snapshots/${id}/restore`, { key: ADMIN_KEY });
    expect(restored.body).to.deep.equal({ success: true, now: '2025-06-02T12:00:00.000Z' });
    const agent = (await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: '0x' + 'f'.repeat(40), agentName: 'Forker' } })).body;
    await s.call('POST', '/api/sim/prices', { key: ADMIN_KEY, body: { prices: [{ token: TOK.SOL, price: 175 }] } });
    const trader = s.world.fixture.agents[0]!.apiKey;
    const trade = await s.call('POST', '/api/trade/execute', {
      key: trader, body: { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '100', reason: 'fork', competitionId: s.world.fixture.competitions[0]!.id },
    });
    expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
    await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 3_600_000 } });
    return { agent, trade: trade.body, dump: (await s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body };
  }

  it('forks identical runs from one snapshot, any number of times (200)', async () => {
    const snap = await s.call('POST', '/api/sim/snapshots', { key: ADMIN_KEY });
    expect(snap.body).to.deep.equal({ success: true, id: 'snap-1' });
    const first = await run('snap-1');
    const second = await run('snap-1');
    expect(second).to.deep.equal(first);
    expect(first.dump.aux.priceOverrides).to.deep.equal([{ address: TOK.SOL, specificChain: 'svm', price: 175 }]);
  });

  it('answers an unknown snapshot with 404', async () => {
    expectError(await s.call('POST', '/api/sim/snapshots/snap-99/restore', { key: ADMIN_KEY }), 404, 'Snapshot not found: snap-99');
  });

  it('forgets snapshots on reset (404 afterwards)', async () => {
    const { body } = await s.call('POST', '/api/sim/snapshots', { key: ADMIN_KEY });
    await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} });
    expectError(await s.call('POST', `/api/sim/snapshots/${body.id}/restore`, { key: ADMIN_KEY }), 404, `Snapshot not found: ${body.id}`);
  });
});

describe('GET /api/sim/dump and POST /api/sim/load', () => {
  let a: TestServer;
  let b: TestServer;
  beforeEach(async () => {
    a = await startDemo();
    b = await startTestServer({ seed: 'other', admin: { apiKey: ADMIN_KEY } });
  });
  afterEach(async () => { await a.close(); await b.close(); });
  const load = (s: TestServer, body: unknown) => s.call('POST', '/api/sim/load', { key: ADMIN_KEY, body });

  it("dumps the world as a versioned 'compsim-world' document (200)", async () => {
    const res = await a.call('GET', '/api/sim/dump', { key: ADMIN_KEY });
    expect(res.body).to.include({ success: true, format: 'compsim-world', version: 1 });
    expect(res.body.tables.agents).to.have.length(3);
    expect(res.body.aux).to.have.keys('clock', 'ids', 'priceOverrides', 'priceTapes', 'faults', 'mode');
    expect(res.body.aux.mode).to.deep.equal({ apiVersion: 'spec', unknownTokens: 'refuse' });
  });

  it('loads a dump into a fresh server, which then answers exactly as the original (200)', async () => {
    await createAgent(a, ADMIN_KEY, 'Before Dump');
    await a.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 600_000 } });
    const dump = (await a.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
    const res = await load(b, dump);
    expect(res.body).to.deep.equal({ success: true, now: '2025-06-02T12:10:00.000Z' });
    expect((await b.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body).to.deep.equal(dump);
    const wallet = '0x' + 'd'.repeat(40);
    const next = (s: TestServer) => s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: wallet, agentName: 'After Dump' } });
    const [ra, rb] = [await next(a), await next(b)];
    expect(rb.status).to.equal(201);
    expect(rb.body).to.deep.equal(ra.body);
    const key = ra.body.agent.apiKey as string;
    expect((await b.call('GET', '/api/agent/balances', { key })).body).to.deep.equal((await a.call('GET', '/api/agent/balances', { key })).body);
  });

  it('names what is wrong with a bad document and leaves the world alone (400)', async () => {
    const before = (await b.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
    const good = (await a.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
    expectError(await load(b, { format: 'nope' }), 400, `Invalid world document: format must be 'compsim-world', got "nope"`);
    expectError(await load(b, { ...good, version: 9 }), 400, 'Invalid world document: unsupported version 9 (this build reads 1)');
    expectError(await load(b, { ...good, tables: { ...good.tables, unicorns: [] } }), 400, "Invalid world document: unknown table 'unicorns'");
    expectError(await load(b, { ...good, tables: { ...good.tables, agents: [{ name: 'no id' }] } }), 400, 'Invalid world document: tables.agents[0] needs a string or number id');
    expectError(await load(b, { ...good, aux: { ...good.aux, ids: { algorithm: 'dice' } } }), 400, 'Invalid world document: SeededIds: unknown state');
    expectError(await load(b, []), 400, 'Invalid world document: expected a JSON object');
    expect((await b.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body).to.deep.equal(before);
  });

  it('accepts a document over 1 MB on load only (200; 413 elsewhere)', async () => {
    const dump = (await a.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
    dump.tables.arenas[0].padding = 'x'.repeat(2_000_000);
    expect((await load(b, dump)).status).to.equal(200);
    expectError(await b.call('POST', '/api/sim/prices', { key: ADMIN_KEY, body: { prices: [], padding: 'x'.repeat(2_000_000) } }), 413,
      'Request body too large (limit 1 MB)');
  });
});
