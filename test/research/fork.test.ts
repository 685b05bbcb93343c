// compsim fork: a served competition read over HTTP and replayed to the same final leaderboard; resume, Retry-After, rate limit, bad input.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkMain } from '../../src/cli/fork.js';
import { decimal } from '../../src/research/fork-write.js';
import { pool, retryAfterMs, type ForkIo } from '../../src/research/fork-fetch.js';
import { replayMain } from '../../src/cli/replay.js';
import { registerUser } from '../../src/domain/agents/users.js';
import { startCompetition } from '../../src/domain/competitions/lifecycle.js';
import { executeTrade } from '../../src/domain/trading/trade.js';
import { runScenario } from '../../src/harness/runner.js';
import { validateScenario } from '../../src/harness/schema.js';
import { httpTarget } from '../../src/harness/targets.js';
import type { ScenarioDoc, Step } from '../../src/harness/types.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createWorld } from '../../src/world/world.js';
import { fakeIo } from '../helpers/fork-io.js';
import { textSink } from '../helpers/cli-io.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const USDT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const JUP = 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN';
const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';
const WIF = 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm';
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const USDC_ETH = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const LINK = '0x514910771AF9Ca656af840dff83E8264EcF986CA';
const WETH_BASE = '0x4200000000000000000000000000000000000006';
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';


const scratch = () => mkdtempSync(join(tmpdir(), 'compsim-fork-test-'));

/**
 * The source competition: six agents (one never trades) over two hours of a random-walk market
 * without slippage, trading across chains and tokens; two trades share an instant and one runs at
 * a snapshot instant.
 */
function sourceScenario(slippage: 'none' | 'upstream' = 'none'): ScenarioDoc {
  const at = (hhmm: string) => `2025-06-02T${hhmm}:00.000Z`;
  const trade = (actor: string, time: string, fromToken: string, toToken: string, amount: string, extra: Record<string, string> = {}): Step => ({
    call: 'POST /api/trade/execute', as: actor, at: at(time),
    body: { competitionId: '${comp.id}', fromToken, toToken, amount, reason: `${actor} ${time}`, ...extra }, expect: { status: 200 },
  });
  const agents = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'];
  return {
    seed: 11, startTime: at('12:00'),
    world: { prices: { kind: 'randomWalk', stepMs: 60_000, volatility: 0.004 }, slippage, snapshotIntervalMs: 300_000 },
    actors: Object.fromEntries(agents.map((a, i) => [a, { register: { agentName: `Agent ${['One', 'Two', 'Three', 'Four', 'Five', 'Six'][i]}` } }])),
    steps: [
      {
        call: 'POST /api/admin/competition/start', as: 'admin', expect: { status: 200 }, save: { comp: 'competition' },
        body: { name: 'Fork Cup', agentIds: agents.map((a) => `\${${a}.id}`), tradingType: 'allow', paperTradingConfig: { maxTradePercentage: 100 }, endDate: at('14:00'),
          tradingConstraints: { minimumPairAgeHours: 0, minimum24hVolumeUsd: 0, minimumLiquidityUsd: 0, minimumFdvUsd: 0 } },
      },
      trade('a1', '12:03', USDC, SOL, '1000'),
      trade('a2', '12:07', USDC_ETH, WETH, '2000'),
      trade('a3', '12:11', USDC_BASE, WETH_BASE, '1500'),
      trade('a5', '12:15', USDC, WIF, '500'),
      trade('a4', '12:20', SOL, WETH, '2', { toSpecificChain: 'eth' }),
      trade('a3', '12:30', USDC, JUP, '300'),
      trade('a4', '12:40', USDT, BONK, '200'),
      trade('a2', '12:50', WETH, USDC_ETH, '0.2'),
      trade('a5', '12:55', USDC_ETH, LINK, '700'),
      trade('a1', '13:00', USDC, SOL, '750.5'),
      trade('a5', '13:00', USDC, SOL, '250'),
      trade('a1', '13:10', SOL, USDC, '3'),
      trade('a5', '13:30', WIF, SOL, '100'),
      trade('a3', '13:47', JUP, USDC, '120.25'),
      { setTime: at('14:00') },
      { call: 'POST /api/admin/competition/end', as: 'admin', body: { competitionId: '${comp.id}' }, expect: { status: 200 } },
    ],
  };
}

/** A server that ran the source scenario: its competition id and the first agent's key. */
async function serveSource(slippage: 'none' | 'upstream'): Promise<{ srv: TestServer; comp: string; key: string }> {
  const srv = await startTestServer({ admin: { apiKey: ADMIN_KEY } }, { simApi: true });
  let comp = '';
  let key = '';
  const doc = validateScenario(sourceScenario(slippage), 'fork-source');
  const r = await runScenario({ file: 'fork-source', name: 'fork-source', doc }, httpTarget(srv.url, { adminKey: ADMIN_KEY }), {
    onExchange: (_at, res) => {
      const body = res.body as { competition?: { id?: string }; agent?: { apiKey?: string } } | undefined;
      if (body?.competition?.id) comp = body.competition.id;
      if (key === '' && body?.agent?.apiKey) key = body.agent.apiKey;
    },
  });
  expect(r.ok, JSON.stringify(r.failure)).to.equal(true);
  expect(comp).to.not.equal('');
  expect(key).to.not.equal('');
  return { srv, comp, key };
}

/** Forks `comp` into a new directory, replays it without slippage; the source's and the replay's final leaderboards. */
async function forkAndReplay(srv: TestServer, comp: string, key: string) {
  const dir = scratch();
  try {
    const io = fakeIo();
    const err = textSink();
    const code = await forkMain(['--from', srv.url, '--competition', comp, '--out', dir, '--api-key', key], { stdout: textSink(), stderr: err }, io);
    expect(code, err.text).to.equal(0);
    expect(err.text).to.equal('');
    expect(io.sleeps).to.deep.equal([]);
    const manifest = JSON.parse(readFileSync(join(dir, 'fork.json'), 'utf8'));
    const times = (f: string) => readFileSync(join(dir, f), 'utf8').trim().split('\n').slice(1).map((l) => Date.parse(l.split(',')[f === 'trades.csv' ? 0 : 1]!));
    const recorded = times('source-trades.csv');
    const shifts = times('trades.csv').map((t, i) => t - recorded[i]!);
    const files = ['world.json', 'trades.csv', 'prices.json', 'balances.json', 'leaderboard.csv', 'timeline.csv', 'source-trades.csv', 'competition.json', 'fork.json'].filter((f) => existsSync(join(dir, f)));
    const source = await srv.call('GET', `/api/competitions/${comp}/agents`, { query: { limit: '100' } });
    const want = (source.body.agents as { name: string; rank: number; portfolioValue: number }[]).map((a) => ({ agent: a.name, rank: a.rank, value: a.portfolioValue }));
    const rOut = textSink();
    const rErr = textSink();
    expect(await replayMain(['--fork', dir, '--slippage', 'none', '--json'], { stdout: rOut, stderr: rErr }), rErr.text).to.equal(0);
    const [run] = JSON.parse(rOut.text) as { final: { agent: string; rank: number; value: number }[]; trades: { accepted: boolean }[] }[];
    return { manifest, files, want, run: run!, shifts };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ranks exact, values within 1e-9 relative. */
function expectSameLeaderboard(got: { agent: string; rank: number; value: number }[], want: { agent: string; rank: number; value: number }[]): void {
  expect(want).to.have.length(6);
  expect(got.map((r) => [r.rank, r.agent])).to.deep.equal(want.map((w) => [w.rank, w.agent]));
  for (const w of want) {
    const g = got.find((r) => r.agent === w.agent)!;
    expect(Math.abs(g.value - w.value) / w.value, w.agent).to.be.below(1e-9);
  }
  // The values moved over the two hours (the check is not comparing starting balances).
  expect(new Set(want.map((w) => w.value.toFixed(6))).size).to.be.greaterThan(4);
}

describe('compsim fork', function () {
  this.timeout(120_000);
  let srv: TestServer;
  let comp = '';
  let key = '';

  before(async () => {
    ({ srv, comp, key } = await serveSource('none'));
  });

  after(async () => {
    await srv.close();
  });

  it('reads a served competition and the replay without slippage gives its final leaderboard', async () => {
    const { manifest, files, want, run, shifts } = await forkAndReplay(srv, comp, key);
    expect(shifts).to.deep.equal(new Array(14).fill(0));
    expect(files).to.have.length(9);
    expect(manifest.counts).to.deep.include({ agents: 6, trades: 14, tradesReported: 14, tradePages: 1 });
    expect(manifest.replay).to.deep.include({ start: '2025-06-02T12:00:00.000Z', end: '2025-06-02T14:00:00.000Z', intervalMs: 300_000 });
    expect(manifest.prices).to.deep.include({ movedTrades: 0, negative: 0 });
    expect(manifest.prices.maxRelativeResidual).to.be.below(1e-12);
    expect(manifest.notExposed.map((n: { field: string }) => n.field)).to.include("the source's slippage model");
    expect(manifest.hashes['trades.csv']).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(run.trades.filter((t) => !t.accepted)).to.deep.equal([]);
    expectSameLeaderboard(run.final, want);
  });

  it('reproduces a source that ran with slippage too: fills at the prices they got, clashing trades a millisecond apart', async () => {
    const slipped = await serveSource('upstream');
    try {
      const { manifest, want, run, shifts } = await forkAndReplay(slipped.srv, slipped.comp, slipped.key);
      // Fills at snapshot instants (and a1 and a5 buying SOL in one millisecond) got other prices than the market's: they run a millisecond or two later.
      expect(manifest.prices.movedTrades).to.be.greaterThan(1);
      expect(shifts.filter((d) => d !== 0)).to.have.length(manifest.prices.movedTrades);
      expect(Math.max(...shifts)).to.be.within(1, 3);
      expect(run.trades.filter((t) => !t.accepted)).to.deep.equal([]);
      expectSameLeaderboard(run.final, want);
    } finally {
      await slipped.srv.close();
    }
  });

  it('writes a world fixture that serve loads: the agents in the active competition with its starting balances and the tape', async () => {
    const dir = scratch();
    let served: TestServer | undefined;
    try {
      expect(await forkMain(['--from', srv.url, '--competition', comp, '--out', dir, '--api-key', key], { stdout: textSink(), stderr: textSink() }, fakeIo())).to.equal(0);
      const fixture = JSON.parse(readFileSync(join(dir, 'world.json'), 'utf8'));
      served = await startTestServer({ fixture });
      const [c] = served.world.fixture.competitions;
      expect(c).to.deep.include({ name: 'Fork Cup', status: 'active' });
      expect(served.world.fixture.agents.map((a) => a.name).sort()).to.deep.equal(['Agent Five', 'Agent Four', 'Agent One', 'Agent Six', 'Agent Three', 'Agent Two']);
      const detail = await served.call('GET', `/api/competitions/${c!.id}`);
      expect(detail.body.competition.paperTradingInitialBalances).to.deep.equal(JSON.parse(readFileSync(join(dir, 'balances.json'), 'utf8')));
      expect(detail.body.competition.startDate).to.equal('2025-06-02T12:00:00.000Z');
      // The SOL price at a trade's instant is the price the source traded at (12:03, a1 bought SOL with 1000 USDC).
      const line = readFileSync(join(dir, 'source-trades.csv'), 'utf8').split('\n').find((l) => l.includes('2025-06-02T12:03:00.000Z'))!;
      const toAmount = Number(line.split(',')[7]);
      const solAt = fixture.prices.tapes[`svm:${SOL}`].find((p: [number, number]) => p[0] === Date.UTC(2025, 5, 2, 12, 3))[1];
      expect(1000 / solAt).to.equal(toAmount);
      expect(fixture.snapshotIntervalMs).to.equal(300_000);
    } finally {
      await served?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('world fixtures carry the snapshot interval and slippage model (options given to the world win)', async () => {
    const fromFile = await createWorld({ fixture: { snapshotIntervalMs: 60_000, slippage: 'none' } });
    expect([fromFile.deps.config.snapshotIntervalMs, fromFile.deps.config.slippage]).to.deep.equal([60_000, 'none']);
    const given = await createWorld({ fixture: { snapshotIntervalMs: 60_000, slippage: 'none' }, snapshotIntervalMs: 120_000, slippage: 'expected' });
    expect([given.deps.config.snapshotIntervalMs, given.deps.config.slippage]).to.deep.equal([120_000, 'expected']);
  });

  it('shows a progress bar on a terminal only', async () => {
    const dirs = [scratch(), scratch()];
    try {
      const tty = textSink(true);
      expect(await forkMain(['--from', srv.url, '--competition', comp, '--out', dirs[0]!, '--api-key', key], { stdout: textSink(), stderr: tty }, fakeIo())).to.equal(0);
      expect(tty.text).to.match(/\rfork \[#{24}\] 6\/6 answers\n$/);
      const plain = textSink(false);
      expect(await forkMain(['--from', srv.url, '--competition', comp, '--out', dirs[1]!, '--api-key', key], { stdout: textSink(), stderr: plain }, fakeIo())).to.equal(0);
      expect(plain.text).to.equal('');
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  });

  it('refuses bad input with a clear message and exit code', async () => {
    const dir = scratch();
    try {
      const run = async (argv: string[], io = fakeIo()) => {
        const err = textSink();
        const code = await forkMain(argv, { stdout: textSink(), stderr: err }, io);
        return { code, err: err.text };
      };
      const badUrl = await run(['--from', 'ftp://example.com', '--competition', comp, '--out', dir]);
      expect(badUrl.code).to.equal(2);
      expect(badUrl.err).to.match(/^compsim fork: --from must be an http\(s\) URL, got 'ftp:\/\/example.com'\n/);
      const notUrl = await run(['--from', 'not a url', '--competition', comp, '--out', dir]);
      expect(notUrl.code).to.equal(2);
      expect(notUrl.err).to.match(/^compsim fork: --from must be a URL such as http:\/\/127.0.0.1:3000, got 'not a url'\n/);
      const missing = await run(['--from', srv.url, '--out', dir]);
      expect([missing.code, missing.err.split('\n')[0]]).to.deep.equal([2, 'compsim fork: --from, --competition and --out are required']);
      const conc = await run(['--from', srv.url, '--competition', comp, '--out', dir, '--concurrency', '8']);
      expect([conc.code, conc.err.split('\n')[0]]).to.deep.equal([2, "compsim fork: --concurrency must be 1, 2, 3 or 4, got '8'"]);
      const rate = await run(['--from', srv.url, '--competition', comp, '--out', dir, '--rate', '0']);
      expect([rate.code, rate.err.split('\n')[0]]).to.deep.equal([2, "compsim fork: --rate must be a positive number of requests per second, got '0'"]);

      const unknown = await run(['--from', srv.url, '--competition', '00000000-0000-4000-8000-000000000000', '--out', join(dir, 'u'), '--api-key', key]);
      expect(unknown).to.deep.equal({ code: 1, err: "compsim fork: the source has no competition '00000000-0000-4000-8000-000000000000' (404 Competition not found)\n" });
      const notUuid = await run(['--from', srv.url, '--competition', 'cup-1', '--out', join(dir, 'v'), '--api-key', key]);
      expect(notUuid).to.deep.equal({ code: 1, err: `compsim fork: GET ${srv.url}/api/competitions/cup-1 answered 400: Invalid UUID\n` });
      const noKey = await run(['--from', srv.url, '--competition', comp, '--out', join(dir, 'k')]);
      expect(noKey.code).to.equal(1);
      expect(noKey.err).to.equal('compsim fork: the source lists a competition\'s trades only to an agent or admin key: pass --api-key '
        + '(401 [AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY)\n');

      // Nothing listens there: a few retries (on the fake clock), then a clear failure.
      const io = fakeIo(async () => {
        throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      });
      const down = await run(['--from', 'http://127.0.0.1:9', '--competition', comp, '--out', join(dir, 'd')], io);
      expect(down).to.deep.equal({ code: 1, err: `compsim fork: cannot reach http://127.0.0.1:9/api/competitions/${comp}: ECONNREFUSED\n` });
      expect(io.sleeps).to.deep.equal([1000, 2000, 4000, 8000, 16000, 32000]);

      // A directory holding another fork's answers is not mixed up with this one.
      const other = await run(['--from', srv.url, '--competition', '00000000-0000-4000-8000-000000000000', '--out', join(dir, 'd')]);
      expect(other.code).to.equal(1);
      expect(other.err).to.match(/holds answers of another fork .*; pass --fresh or another --out\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('waits for Retry-After on 429 and 503 (seconds or a date) and spaces requests under --rate', async () => {
    const dir = scratch();
    try {
      let tradeCalls = 0;
      let agentCalls = 0;
      let dateWait = 0;
      const io = fakeIo(async (input, init) => {
        const url = String(input);
        if (url.includes('/trades') && tradeCalls++ === 0) return new Response(JSON.stringify({ success: false, error: 'Too many requests' }), { status: 429, headers: { 'retry-after': '7' } });
        if (url.includes('/agents') && agentCalls++ === 0) {
          const date = new Date(io.clock.t + 3000).toUTCString();
          dateWait = Date.parse(date) - io.clock.t;
          return new Response('busy', { status: 503, headers: { 'retry-after': date } });
        }
        return fetch(input, init);
      });
      const starts: number[] = [];
      const timed: ForkIo = { ...io, fetch: (i, init) => (starts.push(io.clock.t), io.fetch(i, init)) };
      const err = textSink();
      expect(await forkMain(['--from', srv.url, '--competition', comp, '--out', dir, '--api-key', key, '--rate', '4', '--concurrency', '1'], { stdout: textSink(), stderr: err }, timed), err.text).to.equal(0);
      expect(io.sleeps).to.include(7000);
      expect(dateWait).to.be.within(2001, 3000);
      expect(io.sleeps).to.include(dateWait);
      // Request starts are at least 250 ms apart (4 per second), retries included.
      expect(starts.length).to.equal(8);
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!, `request ${i}`).to.be.at.least(250);
      const manifest = JSON.parse(readFileSync(join(dir, 'fork.json'), 'utf8'));
      expect(manifest.counts).to.deep.include({ requests: 8, retries: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a capped timeline again with the bucket the source suggests, and says so in the manifest', async () => {
    const dir = scratch();
    try {
      const asked: string[] = [];
      const tooLarge = (suggest: number) => new Response(JSON.stringify({ success: false, error: `Timeline too large: 99999 points in all with bucket=1 (limit 20000). Ask for fewer points with a larger bucket (minutes, up to 1440), e.g. bucket=${suggest}` }), { status: 400 });
      const io = fakeIo(async (input, init) => {
        const url = String(input);
        if (url.includes('/timeline')) asked.push(url.slice(url.indexOf('?')));
        if (url.endsWith('/timeline?bucket=1')) return tooLarge(5);
        if (url.endsWith('/timeline?bucket=5')) return tooLarge(10);
        return fetch(input, init);
      });
      const err = textSink();
      expect(await forkMain(['--from', srv.url, '--competition', comp, '--out', dir, '--api-key', key], { stdout: textSink(), stderr: err }, io), err.text).to.equal(0);
      expect(asked).to.deep.equal(['?bucket=1', '?bucket=5', '?bucket=10']);
      const manifest = JSON.parse(readFileSync(join(dir, 'fork.json'), 'utf8'));
      expect(manifest.notExposed).to.deep.include({ field: 'every portfolio snapshot', instead: 'the source caps its timeline: read with bucket=10, the latest snapshot per 10 minutes (the solved prices rest on those instants only)' });
      // One point per 10 minutes of the two hours, and the end.
      expect(manifest.counts.snapshotInstants).to.equal(13);
      // A suggestion that does not grow the bucket is not followed.
      const stuck = fakeIo(async (input, init) => (String(input).includes('/timeline') ? tooLarge(1) : fetch(input, init)));
      const err2 = textSink();
      expect(await forkMain(['--from', srv.url, '--competition', comp, '--out', dir, '--api-key', key, '--fresh'], { stdout: textSink(), stderr: err2 }, stuck)).to.equal(1);
      expect(err2.text).to.equal(`compsim fork: GET ${srv.url}/api/competitions/${comp}/timeline?bucket=1 answered 400: Timeline too large: 99999 points in all with bucket=1 (limit 20000). Ask for fewer points with a larger bucket (minutes, up to 1440), e.g. bucket=1\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('resume', () => {
    let big: TestServer;
    let bigComp = '';
    let bigKey = '';

    before(async () => {
      // 350 trades (four pages), built through the domain.
      big = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: Date.UTC(2025, 5, 2, 12) });
      const deps = big.world.deps;
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await registerUser(deps, { walletAddress: `0x${(i + 1).toString(16).padStart(40, '0')}`, agentName: `Resumer ${i}` });
        ids.push(r.agent!.id);
        if (i === 0) bigKey = r.apiKey!;
      }
      const started = await startCompetition(deps, { agentIds: ids, create: { name: 'Resume Cup', tradingType: 'allow', paperTradingConfig: { maxTradePercentage: 100 } } });
      bigComp = started.competition.id;
      for (let i = 0; i < 350; i++) {
        const agentId = ids[i % 3]!;
        await big.world.advance(60_000);
        await executeTrade(deps, { kind: 'agent', agentId, ownerId: '', generation: 'current' }, {
          competitionId: bigComp, fromToken: i % 2 === 0 ? USDC : SOL, toToken: i % 2 === 0 ? SOL : USDC, amount: i % 2 === 0 ? '15' : '0.05', reason: `t${i}`,
        });
      }
    });

    after(async () => {
      await big.close();
    });

    it('an interrupted fork, run again, fetches only the pages it lacks and writes what an uninterrupted one does', async () => {
      const dir = scratch();
      const whole = scratch();
      try {
        const args = (out: string) => ['--from', big.url, '--competition', bigComp, '--out', out, '--api-key', bigKey, '--concurrency', '1'];
        // First run: the connection drops after two pages of trades.
        let pages = 0;
        const cut = fakeIo(async (input, init) => {
          if (String(input).includes('/trades') && ++pages > 2) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
          return fetch(input, init);
        });
        const err = textSink();
        expect(await forkMain(args(dir), { stdout: textSink(), stderr: err }, cut)).to.equal(1);
        expect(err.text).to.match(/^compsim fork: cannot reach .*\/trades\?limit=100&offset=200: ECONNRESET\n$/);
        expect(existsSync(join(dir, 'fork.json'))).to.equal(false);

        // Second run: only the rest.
        const asked: string[] = [];
        const again = fakeIo(async (input, init) => {
          asked.push(String(input).slice(big.url.length));
          return fetch(input, init);
        });
        const out = textSink();
        expect(await forkMain(args(dir), { stdout: out, stderr: textSink() }, again)).to.equal(0);
        expect(asked).to.deep.equal([
          `/api/competitions/${bigComp}/trades?limit=100&offset=200`,
          `/api/competitions/${bigComp}/trades?limit=100&offset=300`,
          `/api/competitions/${bigComp}/timeline?bucket=1`,
          `/api/competitions/leaderboard?competitionId=${bigComp}`,
        ]);
        expect(out.text).to.contain('4 requests, 5 answers from the cache');

        expect(await forkMain(args(whole), { stdout: textSink(), stderr: textSink() }, fakeIo())).to.equal(0);
        const manifest = JSON.parse(readFileSync(join(dir, 'fork.json'), 'utf8'));
        const fresh = JSON.parse(readFileSync(join(whole, 'fork.json'), 'utf8'));
        expect(manifest.counts.trades).to.equal(350);
        expect(manifest.counts.tradePages).to.equal(4);
        expect(manifest.hashes).to.deep.equal(fresh.hashes);

        // --fresh fetches everything again.
        const all: string[] = [];
        expect(await forkMain([...args(dir), '--fresh'], { stdout: textSink(), stderr: textSink() }, fakeIo((i, init) => (all.push(String(i)), fetch(i, init))))).to.equal(0);
        expect(all).to.have.length(9);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(whole, { recursive: true, force: true });
      }
    });
  });

  it('runs pages at most n at once, starts none after a failure and reports it once the others settled', async () => {
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const task = (i: number, fail = false) => async () => {
      running++;
      most = Math.max(most, running);
      events.push(`start ${i}`);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      events.push(`end ${i}`);
      if (fail) throw new Error(`page ${i} failed`);
      return i;
    };
    expect(await pool(3, [0, 1, 2, 3, 4, 5, 6].map((i) => task(i)))).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
    expect(most).to.equal(3);
    events.length = 0;
    let caught: unknown;
    await pool(2, [task(0), task(1, true), task(2), task(3)]).catch((err: unknown) => (caught = err));
    expect((caught as Error).message).to.equal('page 1 failed');
    expect(events).to.deep.equal(['start 0', 'start 1', 'end 0', 'start 2', 'end 1', 'end 2']);
  });

  it('reads Retry-After as seconds or an HTTP date, capped at ten minutes', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(retryAfterMs('7', now)).to.equal(7000);
    expect(retryAfterMs('0.5', now)).to.equal(500);
    expect(retryAfterMs(new Date(now + 30_000).toUTCString(), now)).to.equal(30_000);
    expect(retryAfterMs(new Date(now - 30_000).toUTCString(), now)).to.equal(0);
    expect(retryAfterMs('86400', now)).to.equal(600_000);
    expect(retryAfterMs('soon', now)).to.equal(undefined);
    expect(retryAfterMs(null, now)).to.equal(undefined);
  });

  it('writes amounts as plain decimals that parse back exactly', () => {
    for (const x of [1e-7, 1.5e-9, 123.456, 5.304518664047151, 1e21, 2.5e-30]) {
      const s = decimal(x);
      expect(s, String(x)).to.not.match(/e/i);
      expect(Number(s), String(x)).to.equal(x);
    }
  });
});
