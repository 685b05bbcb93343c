// compsim/client against a served world: typed paths and answers, raw errors as the envelope, shortcuts that throw CompsimError, the sim and worlds helpers, msw in place of a socket, and the example bot run as a program.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { CompsimError, createClient, parseDuration, type CompsimClient, type TradeRequest } from '../../src/client/index.js';
import { handlers } from '../../src/http/adapters/msw.js';
import { createWorld } from '../../src/world/world.js';
import type { WorldFixture } from '../../src/world/fixture.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { checkMswAnswers } from '../helpers/answers.js';
import { SERVER_KEY, startHostServer } from '../helpers/worlds.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture;
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const BASE_USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';

/** What `p` rejects with (a CompsimError in most tests); fails the test when it resolves. */
async function caught(p: Promise<unknown>): Promise<CompsimError> {
  try {
    await p;
  } catch (err) {
    return err as CompsimError;
  }
  throw new Error('expected a rejection');
}

describe('compsim/client', function () {
  this.timeout(60_000);
  let s: TestServer;
  let agentKey: string;
  let competitionId: string;
  let bot: CompsimClient;
  let control: CompsimClient;
  /** URLs the bot client sent, through its `fetch` option. */
  const sent: string[] = [];

  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, fixture: DEMO });
    agentKey = s.world.fixture.agents[0]!.apiKey;
    competitionId = s.world.fixture.competitions.find((c) => c.status === 'active')!.id;
    bot = createClient({ baseUrl: `${s.url}/`, apiKey: agentKey, fetch: (req) => { sent.push(`${req.method} ${req.url.slice(s.url.length)}`); return fetch(req); } });
    control = createClient({ baseUrl: s.url, apiKey: ADMIN_KEY });
  });
  after(() => s.close());
  beforeEach(() => { sent.length = 0; });

  it('calls any documented path with typed parameters and answers the typed body (200)', async () => {
    const { data, error, response } = await bot.GET('/api/competitions/{competitionId}', { params: { path: { competitionId } } });
    expect(response.status).to.equal(200);
    expect(error).to.equal(undefined);
    expect(data!.competition.name).to.equal('Demo Spring Cup');
    expect(sent).to.deep.equal([`GET /api/competitions/${competitionId}`]);
  });

  it('trade(): POST /api/trade/execute with the body as given, resolving to the 200 body', async () => {
    const answer = await bot.trade({ fromToken: USDC, toToken: SOL, amount: 150, reason: 'client test', competitionId });
    expect(answer.success).to.equal(true);
    expect(answer.transaction).to.include({ fromToken: USDC, toToken: SOL, fromAmount: 150, reason: 'client test' });
    expect(sent).to.deep.equal(['POST /api/trade/execute']);
  });

  it('raw calls keep { data, error, response }: the typed envelope of a 401 and of a refused trade', async () => {
    const anonymous = await createClient({ baseUrl: s.url }).POST('/api/trade/execute', { body: { fromToken: USDC, toToken: SOL, amount: 1, reason: 'no key' } });
    expect(anonymous.response.status).to.equal(401);
    expect(anonymous.data).to.equal(undefined);
    expect(anonymous.error).to.deep.equal({
      success: false, error: '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY',
    });
    const refused = await bot.POST('/api/trade/execute', { body: { fromToken: 'x', toToken: 'y', amount: 1, reason: 'unknown tokens' } });
    expect(refused.response.status).to.equal(400);
    expect(refused.error!.success).to.equal(false);
    expect(refused.error!.error).to.equal('Unable to determine price for tokens');
  });

  it('the shortcuts throw a CompsimError (status, the server\'s message, details) for every answer outside 2xx', async () => {
    const anonymous = await caught(createClient({ baseUrl: s.url }).trade({ fromToken: USDC, toToken: SOL, amount: 1, reason: 'no key' }));
    expect(anonymous).to.be.instanceOf(CompsimError);
    expect(anonymous).to.deep.include({
      name: 'CompsimError', status: 401, request: 'POST /api/trade/execute', details: undefined,
      message: '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY',
    });
    const typo = await caught(bot.trade({ formToken: USDC, toToken: SOL, amount: 1, reason: 'typo', competitionId } as unknown as TradeRequest));
    expect(typo).to.deep.include({ status: 400, message: 'Missing required parameters: fromToken, toToken, amount' });
    expect(typo.details).to.deep.equal({ rule: 'required', missing: ['fromToken'], unknown: ['formToken'], didYouMean: { formToken: 'fromToken' } });
    expect(typo.body).to.deep.include({ success: false, error: typo.message });
    expect(typo.response.status).to.equal(400);
    const denied = await caught(bot.sim.advance('1h'));
    expect(denied).to.deep.include({
      status: 401, request: 'POST /api/sim/clock',
      message: 'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.',
    });
  });

  it('a shortcut against a server without --sim-api throws the 404 that says how to turn it on', async () => {
    const off = await startTestServer({ admin: { apiKey: ADMIN_KEY } }, { simApi: false });
    try {
      const err = await caught(createClient({ baseUrl: off.url, apiKey: ADMIN_KEY }).sim.advance('1h'));
      expect(err).to.deep.include({
        status: 404, request: 'POST /api/sim/clock',
        message: 'Cannot POST /api/sim/clock (the simulation control API is off: start compsim serve with --sim-api)',
      });
    } finally {
      await off.close();
    }
  });

  it('a CompsimError from an answer that is not JSON carries the status line and the text', async () => {
    const proxy = createClient({ baseUrl: 'http://proxy.example', fetch: async () => new Response('upstream down', { status: 502, statusText: 'Bad Gateway' }) });
    const err = await caught(proxy.price(SOL));
    expect(err).to.deep.include({ status: 502, message: '502 Bad Gateway: upstream down', body: 'upstream down', request: 'GET /api/price', details: undefined });
  });

  it('balances(): the given competition\'s balances, and a CompsimError for a malformed id (400)', async () => {
    const given = await bot.balances(competitionId);
    expect(given.competitionId).to.equal(competitionId);
    expect(given.balances.find((b) => b.tokenAddress === SOL)!.symbol).to.equal('SOL');
    const bad = await caught(bot.balances('nope'));
    expect(bad).to.deep.include({ status: 400, message: 'Invalid request: competitionId (invalid UUID)' });
    expect(sent).to.deep.equal([`GET /api/agent/balances?competitionId=${competitionId}`, 'GET /api/agent/balances?competitionId=nope']);
  });

  it('price(): a parent chain as chain, a specific chain as chain=evm&specificChain (200)', async () => {
    expect(await bot.price(SOL)).to.include({ success: true, symbol: 'SOL', chain: 'svm' });
    expect(await bot.price(BASE_USDC, 'base')).to.include({ success: true, symbol: 'USDC', chain: 'evm', specificChain: 'base' });
    await bot.price(SOL, 'svm');
    expect(sent).to.deep.equal([`GET /api/price?token=${SOL}`, `GET /api/price?token=${BASE_USDC}&chain=evm&specificChain=base`, `GET /api/price?token=${SOL}&chain=svm`]);
  });

  it('sim.advance() moves the virtual clock by a duration and runs due jobs; sim.now() reads it; sim.setTime() moves it to an instant', async () => {
    const before = (await control.sim.now()).now;
    const moved = await control.sim.advance('5m');
    expect(moved.now).to.equal(new Date(Date.parse(before) + 300_000).toISOString());
    expect(moved.ran).to.deep.equal({ snapshot: 1 });
    expect((await control.sim.advance(1000)).now).to.equal(new Date(Date.parse(before) + 301_000).toISOString());
    const at = new Date(Date.parse(before) + 3_600_000).toISOString();
    expect((await control.sim.setTime(at)).now).to.equal(at);
    expect((await caught(control.sim.setTime(before))).message).to.equal(`Invalid request: set (time only moves forward: ${before} is before now, ${at})`);
  });

  it('sim.setPrice(), sim.setBalance(), sim.snapshot() and sim.restore() set prices and balances and rewind them', async () => {
    const agentId = s.world.fixture.agents[0]!.id;
    const { id } = await control.sim.snapshot();
    expect((await control.sim.setPrice(SOL, 321, 'svm')).overrides).to.deep.include({ token: SOL, specificChain: 'svm', price: 321 });
    expect((await bot.price(SOL, 'svm')).price).to.equal(321);
    const set = await control.sim.setBalance({ agentId, competitionId, balances: [{ token: SOL, specificChain: 'svm', amount: 42 }] });
    expect(set.balances.find((b) => b.tokenAddress === SOL)).to.include({ amount: 42, specificChain: 'svm' });
    expect((await bot.balances(competitionId)).balances.find((b) => b.tokenAddress === SOL)!.amount).to.equal(42);
    await control.sim.restore(id);
    expect((await bot.price(SOL, 'svm')).price).to.not.equal(321);
    expect((await bot.balances(competitionId)).balances.find((b) => b.tokenAddress === SOL)!.amount).to.not.equal(42);
    expect(await caught(control.sim.restore('snap-99'))).to.deep.include({ status: 404, message: 'Snapshot not found: snap-99', request: 'POST /api/sim/snapshots/snap-99/restore' });
  });

  it('sim.reset() rebuilds the world from its seed (another seed when given)', async () => {
    const world = await createWorld({ seed: 4, admin: { apiKey: ADMIN_KEY } });
    const msw = setupServer(...handlers(world, { baseUrl: 'https://reset.example' }));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const admin = createClient({ baseUrl: 'https://reset.example', apiKey: ADMIN_KEY });
      await admin.sim.advance('1d');
      expect(await admin.sim.reset()).to.deep.include({ seed: 4, now: '2025-01-01T00:00:00.000Z' });
      expect((await admin.sim.reset({ seed: 9 })).seed).to.equal(9);
      expect((await caught(admin.sim.reset({ options: { fixture: 'nope' } }))).message)
        .to.equal("Invalid request: options.fixture (unknown bundled world 'nope'; bundled worlds: demo)");
    } finally {
      msw.close();
    }
  });

  it('worlds.create() answers the new world with clients bound to it and to its agents\' keys; worlds.list() and worlds.delete()', async () => {
    const host = await startHostServer();
    try {
      const server = createClient({ baseUrl: host.url, apiKey: SERVER_KEY });
      const world = await server.worlds.create({ fixture: 'demo' });
      expect(world).to.deep.include({ id: 'w1', basePath: '/worlds/w1', seed: 2025 });
      expect(world.agents.map((a) => a.handle)).to.deep.equal(['momentum_max', 'mean_reverter', 'hodl_hannah']);
      const cup = world.competitions.find((c) => c.status === 'active')!;
      // The agent's client trades in the new world; the admin's client moves that world's clock only.
      const max = world.agents[0]!;
      expect((await max.client.balances(cup.id)).agentId).to.equal(max.id);
      expect((await world.client.sim.advance('1h')).now).to.equal('2025-06-02T13:00:00.000Z');
      expect((await createClient({ baseUrl: host.url, apiKey: ADMIN_KEY }).sim.now()).now).to.equal('2025-01-01T00:00:00.000Z');
      expect((await server.worlds.list()).worlds.map((w) => w.id)).to.deep.equal(['default', 'w1']);
      expect(await server.worlds.delete('w1')).to.deep.equal({ success: true });
      expect(await caught(world.client.sim.now())).to.deep.include({ status: 404, message: 'World not found: w1' });
      expect(await caught(server.worlds.delete('w1'))).to.deep.include({ status: 404, message: 'World not found: w1', request: 'DELETE /api/sim/worlds/w1' });
      expect(await caught(server.worlds.create({ fixture: 'nope' }))).to.deep.include({ status: 400, message: "Invalid request: fixture (unknown bundled world 'nope'; bundled worlds: demo)" });
    } finally {
      await host.close();
    }
  });

  it('sim.advance() rejects a malformed duration before sending anything', async () => {
    const before = (await control.sim.now()).now;
    const err = await caught(bot.sim.advance('5 minutes'));
    expect(err).to.be.instanceOf(RangeError);
    expect(err.message).to.equal("invalid duration: '5 minutes' (use e.g. 250ms, 30s, 5m, 1h30m, 1d)");
    expect(sent).to.deep.equal([]);
    expect((await control.sim.now()).now).to.equal(before);
  });

  it('parseDuration(): units ms, s, m, h, d, w, summed; numbers are ms', () => {
    expect(parseDuration('250ms')).to.equal(250);
    expect(parseDuration('30s')).to.equal(30_000);
    expect(parseDuration('5m')).to.equal(300_000);
    expect(parseDuration('1h30m')).to.equal(5_400_000);
    expect(parseDuration('1.5h')).to.equal(5_400_000);
    expect(parseDuration('1d')).to.equal(86_400_000);
    expect(parseDuration('2w')).to.equal(1_209_600_000);
    expect(parseDuration(42)).to.equal(42);
    expect(parseDuration(' 5m ')).to.equal(300_000);
    for (const bad of ['', '5', 'm', '-5m', '5x', '5 m']) expect(() => parseDuration(bad), bad).to.throw(RangeError);
    expect(() => parseDuration(-1)).to.throw(RangeError, 'invalid duration: -1 (a finite number of ms, 0 or more)');
    expect(() => parseDuration(Number.NaN)).to.throw(RangeError);
  });

  it('works through msw handlers in place of a socket (any origin serving the API)', async () => {
    const world = await createWorld({ admin: { apiKey: ADMIN_KEY }, fixture: DEMO });
    const msw = setupServer(...handlers(world, { baseUrl: 'https://api.example' }));
    checkMswAnswers(msw);
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const client = createClient({ baseUrl: 'https://api.example', apiKey: world.fixture.agents[1]!.apiKey });
      expect(await client.price(SOL)).to.include({ success: true, symbol: 'SOL' });
      const admin = createClient({ baseUrl: 'https://api.example', apiKey: ADMIN_KEY });
      expect((await admin.sim.advance('1h')).now).to.equal('2025-06-02T13:00:00.000Z');
    } finally {
      msw.close();
    }
  });
});
