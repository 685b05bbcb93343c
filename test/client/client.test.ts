// compsim/client against a served world: typed paths and answers, errors as the envelope, the conveniences, msw in place of a socket, and the example bot run as a program.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { createClient, parseDuration, type CompsimClient } from '../../src/client/index.js';
import { handlers } from '../../src/http/adapters/msw.js';
import { createWorld } from '../../src/world/world.js';
import type { WorldFixture } from '../../src/world/fixture.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { checkMswAnswers } from '../helpers/answers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture;
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const BASE_USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';

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

  it('trade(): POST /api/trade/execute with the body as given (200)', async () => {
    const { data, response } = await bot.trade({ fromToken: USDC, toToken: SOL, amount: 150, reason: 'client test', competitionId });
    expect(response.status).to.equal(200);
    expect(data!.success).to.equal(true);
    expect(data!.transaction).to.include({ fromToken: USDC, toToken: SOL, fromAmount: 150, reason: 'client test' });
    expect(sent).to.deep.equal(['POST /api/trade/execute']);
  });

  it('surfaces every error answer as the typed envelope: 401 without a key, 400 for a trade the server refuses', async () => {
    const anonymous = await createClient({ baseUrl: s.url }).trade({ fromToken: USDC, toToken: SOL, amount: 1, reason: 'no key' });
    expect(anonymous.response.status).to.equal(401);
    expect(anonymous.data).to.equal(undefined);
    expect(anonymous.error).to.deep.equal({
      success: false, error: '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY',
    });
    const refused = await bot.trade({ fromToken: 'x', toToken: 'y', amount: 1, reason: 'unknown tokens' });
    expect(refused.response.status).to.equal(400);
    expect(refused.error!.success).to.equal(false);
    expect(refused.error!.error).to.equal('Unable to determine price for tokens');
  });

  it('balances(): the given competition\'s balances, and the 400 of a malformed id', async () => {
    const given = await bot.balances(competitionId);
    expect(given.data!.competitionId).to.equal(competitionId);
    expect(given.data!.balances.find((b) => b.tokenAddress === SOL)!.symbol).to.equal('SOL');
    const bad = await bot.balances('nope');
    expect(bad.response.status).to.equal(400);
    expect(bad.error).to.deep.equal({ success: false, error: 'Invalid request: competitionId (invalid UUID)' });
    expect(sent).to.deep.equal([`GET /api/agent/balances?competitionId=${competitionId}`, 'GET /api/agent/balances?competitionId=nope']);
  });

  it('price(): a parent chain as chain, a specific chain as chain=evm&specificChain (200)', async () => {
    const sol = await bot.price(SOL);
    expect(sol.data).to.include({ success: true, symbol: 'SOL', chain: 'svm' });
    const base = await bot.price(BASE_USDC, 'base');
    expect(base.data).to.include({ success: true, symbol: 'USDC', chain: 'evm', specificChain: 'base' });
    await bot.price(SOL, 'svm');
    expect(sent).to.deep.equal([`GET /api/price?token=${SOL}`, `GET /api/price?token=${BASE_USDC}&chain=evm&specificChain=base`, `GET /api/price?token=${SOL}&chain=svm`]);
  });

  it('sim.advance(): moves the virtual clock by a duration and runs due jobs; sim.now() reads it', async () => {
    const before = (await control.sim.now()).data!.now;
    const moved = await control.sim.advance('5m');
    expect(moved.data!.now).to.equal(new Date(Date.parse(before) + 300_000).toISOString());
    expect(moved.data!.ran).to.deep.equal({ snapshot: 1 });
    expect((await control.sim.advance(1000)).data!.now).to.equal(new Date(Date.parse(before) + 301_000).toISOString());
    const denied = await bot.sim.advance('1h');
    expect(denied.response.status).to.equal(401);
    expect(denied.error!.error).to.equal('Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
  });

  it('sim.advance() rejects a malformed duration before sending anything', async () => {
    const before = (await control.sim.now()).data!.now;
    let caught: unknown;
    await bot.sim.advance('5 minutes').catch((e: unknown) => { caught = e; });
    expect(caught).to.be.instanceOf(RangeError);
    expect((caught as Error).message).to.equal("invalid duration: '5 minutes' (use e.g. 250ms, 30s, 5m, 1h30m, 1d)");
    expect(sent).to.deep.equal([]);
    expect((await control.sim.now()).data!.now).to.equal(before);
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
      const price = await client.price(SOL);
      expect(price.data).to.include({ success: true, symbol: 'SOL' });
      const admin = createClient({ baseUrl: 'https://api.example', apiKey: ADMIN_KEY });
      expect((await admin.sim.advance('1h')).data!.now).to.equal('2025-06-02T13:00:00.000Z');
    } finally {
      msw.close();
    }
  });
});

describe('examples/momentum-bot.ts', function () {
  this.timeout(180_000);

  it('trades every 5 virtual minutes for a virtual day against a served world and prints its rank', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, fixture: DEMO });
    try {
      const agent = s.world.fixture.agents[0]!;
      const competition = s.world.fixture.competitions.find((c) => c.status === 'active')!;
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'examples', 'momentum-bot.ts')], {
        cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, COMPSIM_URL: s.url, COMPSIM_AGENT_KEY: agent.apiKey, COMPSIM_ADMIN_KEY: ADMIN_KEY },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, out).to.equal(0);

      const lines = out.trim().split('\n');
      expect(lines[0]).to.equal(`Momentum Max in competition ${competition.id}, from 2025-06-02T12:00:00.000Z`);
      expect(lines).to.include('288 trades, 0 refused, until 2025-06-03T12:00:00.000Z');
      const trades = await s.world.deps.store.read((tx) => tx.all('trades'));
      expect(trades.filter((t) => t.agentId === agent.id && t.competitionId === competition.id)).to.have.length(288);
      const board = await s.call('GET', `/api/competitions/${competition.id}/agents`, { query: { limit: '100' } });
      const me = (board.body.agents as { id: string; rank: number; portfolioValue: number }[]).find((a) => a.id === agent.id)!;
      expect(lines.at(-1)).to.equal(`rank ${me.rank} of ${board.body.agents.length}`);
      expect(lines.at(-2)).to.match(new RegExp(`^portfolio \\$${me.portfolioValue.toFixed(2).replace('.', '\\.')} \\(-?\\d+\\.\\d{2}%\\)$`));
    } finally {
      await s.close();
    }
  });
});
