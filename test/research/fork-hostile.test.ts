// compsim fork against a hostile source (a small node:http server the test starts): size caps, lying page counts, wrong types, redirects, Retry-After, the deadline, and no file outside --out.
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkMain } from '../../src/cli/fork.js';
import type { ForkIo } from '../../src/research/fork-fetch.js';
import { parseTrades } from '../../src/research/replay-input.js';
import { fakeIo } from '../helpers/fork-io.js';
import { textSink } from '../helpers/cli-io.js';

const COMP = 'c0ffee00-0000-4000-8000-000000000001';
const KEY = '0123456789abcdef_fedcba9876543210';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOL = 'So11111111111111111111111111111111111111112';
const START = '2025-06-02T12:00:00.000Z';
const END = '2025-06-02T13:00:00.000Z';

type Json = Record<string, unknown>;
/** What a route answers: a JSON body (status 200 unless given), or a function writing the answer itself. */
type Answer = { status?: number; headers?: Record<string, string>; body: unknown } | ((req: IncomingMessage, res: ServerResponse) => void);

const trade = (i: number, extra: Json = {}): Json => ({
  id: `t${i}`, competitionId: COMP, agentId: 'a1', fromToken: USDC, toToken: SOL, fromAmount: 10, toAmount: 0.1, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL',
  fromSpecificChain: 'svm', toSpecificChain: 'svm', tradeAmountUsd: 10, timestamp: '2025-06-02T12:30:00.000Z', reason: `trade ${i}`, ...extra,
});
const page = (total: number, n: number) => ({ total, limit: 100, offset: 0, hasMore: total > n });

/** A well-behaved competition of one agent and one trade, which each test spoils in one place. */
function answers(): Record<string, Answer> {
  return {
    [`/api/competitions/${COMP}`]: { body: { success: true, competition: { id: COMP, name: 'Hostile Cup', type: 'trading', status: 'ended', startDate: START, endDate: END } } },
    [`/api/competitions/${COMP}/rules`]: { body: { success: true, rules: {} } },
    [`/api/competitions/${COMP}/agents`]: { body: { success: true, agents: [{ id: 'a1', name: 'Agent One', handle: 'one', active: true, rank: 1, portfolioValue: 5000 }], pagination: page(1, 1) } },
    [`/api/competitions/${COMP}/trades`]: { body: { success: true, trades: [trade(1)], total: 1, pagination: page(1, 1) } },
    [`/api/competitions/${COMP}/timeline`]: { body: { success: true, timeline: [{ agentId: 'a1', agentName: 'Agent One', timeline: [{ timestamp: START, totalValue: 5000 }, { timestamp: END, totalValue: 5000 }] }] } },
    '/api/competitions/leaderboard': { status: 404, body: { success: false, error: 'Not found' } },
  };
}

/** A local source: answers by path; records every request (path, query, authorization). */
interface Source { url: string; server: Server; routes: Record<string, Answer>; seen: { path: string; query: string; auth: string | undefined }[]; close(): Promise<void> }

async function source(spoil: (routes: Record<string, Answer>) => void = () => undefined): Promise<Source> {
  const routes = answers();
  spoil(routes);
  const seen: Source['seen'] = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: u.pathname, query: u.search, auth: req.headers.authorization });
    const a = routes[u.pathname];
    if (a === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false,"error":"Route not found"}');
      return;
    }
    if (typeof a === 'function') return a(req, res);
    const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...a.headers }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, server, routes, seen, close: () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }) };
}


/** Runs `compsim fork` against `src` into a fresh directory under a fresh parent. */
async function fork(src: Source, extra: string[] = [], io: ForkIo & { sleeps: number[] } = fakeIo()) {
  const parent = mkdtempSync(join(tmpdir(), 'compsim-fork-hostile-'));
  const out = join(parent, 'out');
  const stdout = textSink();
  const stderr = textSink();
  const code = await forkMain(['--from', src.url, '--competition', COMP, '--out', out, '--api-key', KEY, '--concurrency', '1', ...extra], { stdout, stderr }, io);
  return { code, stdout: stdout.text, stderr: stderr.text, parent, out, io };
}

describe('compsim fork against a hostile source', function () {
  this.timeout(60_000);
  const parents: string[] = [];
  let src: Source | undefined;
  const run = async (spoil: (r: Record<string, Answer>) => void, extra: string[] = [], io?: ForkIo & { sleeps: number[] }) => {
    src = await source(spoil);
    const r = await fork(src, extra, io);
    parents.push(r.parent);
    return r;
  };
  const requestsTo = (suffix: string) => src!.seen.filter((s) => s.path.endsWith(suffix)).length;

  afterEach(async () => {
    await src?.close();
    src = undefined;
  });
  after(() => {
    for (const p of parents) rmSync(p, { recursive: true, force: true });
  });

  it('forks the well-behaved source (the baseline every other case spoils)', async () => {
    const r = await run(() => undefined);
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(readFileSync(join(r.out, 'fork.json'), 'utf8')).counts).to.deep.include({ agents: 1, trades: 1, tradePages: 1 });
  });

  describe('answer size', () => {
    const big = 'x'.repeat(2 * 1024 * 1024);
    it('refuses an answer over --max-answer-mb by its Content-Length, once, without retrying (exit 1)', async () => {
      const r = await run((routes) => {
        routes[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: [trade(1, { reason: big })], total: 1, pagination: page(1, 1) } };
      }, ['--max-answer-mb', '1']);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.equal(`compsim fork: GET ${src!.url}/api/competitions/${COMP}/trades?limit=100&offset=0: the answer is 2 MB, more than the 1 MB fork reads (--max-answer-mb)\n`);
      expect(requestsTo('/trades')).to.equal(1);
    });

    it('stops reading a streamed answer as soon as it passes the cap', async () => {
      let sent = 0;
      const r = await run((routes) => {
        routes[`/api/competitions/${COMP}/trades`] = (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          // An endless body: the fork must hang up, not read it all.
          const more = () => {
            while (sent < 64 * 1024 * 1024 && res.write('[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]'.repeat(1024))) sent += 41 * 1024;
            if (sent < 64 * 1024 * 1024) res.once('drain', more);
            else res.end();
          };
          res.on('error', () => undefined);
          more();
        };
      }, ['--max-answer-mb', '1']);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.equal(`compsim fork: GET ${src!.url}/api/competitions/${COMP}/trades?limit=100&offset=0: the answer is over 1 MB, more than the 1 MB fork reads (--max-answer-mb)\n`);
      expect(sent).to.be.below(32 * 1024 * 1024);
      expect(requestsTo('/trades')).to.equal(1);
    });
  });

  describe('page counts', () => {
    for (const total of [1e9, 1e12]) {
      it(`refuses a declared total of ${total} trades, above the cap, before asking for a second page`, async () => {
        const r = await run((routes) => {
          routes[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: [trade(1)], total, pagination: page(total, 1) } };
        });
        expect(r.code).to.equal(1);
        expect(r.stderr).to.equal(`compsim fork: the source declares ${total} trades (/api/competitions/${COMP}/trades), more than the 1000000 fork reads\n`);
        expect(requestsTo('/trades')).to.equal(1);
      });
    }

    it('reports a total that is not an integer as a schema problem naming the field', async () => {
      const cases: [string, string][] = [['"1e400"', 'must be integer'], ['1e400', 'must be <= 9007199254740991'], ['12.5', 'must be integer']];
      for (const [total, problem] of cases) {
        const r = await run((routes) => {
          routes[`/api/competitions/${COMP}/trades`] = { body: `{"success":true,"trades":[],"total":1,"pagination":{"total":${total},"limit":100,"offset":0,"hasMore":false}}` };
        });
        expect(r.code, total).to.equal(1);
        expect(r.stderr).to.equal(`compsim fork: GET ${src!.url}/api/competitions/${COMP}/trades?limit=100&offset=0: the answer does not fit the API: pagination.total ${problem}\n`);
        await src!.close();
      }
    });

    it('holds a source without totals, or with pages past the page size, to the cap on what it lists', async () => {
      const r = await run((routes) => {
        routes[`/api/competitions/${COMP}/agents`] = (req, res) => {
          const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset'));
          const agents = Array.from({ length: 10_000 }, (_, i) => ({ id: `a${offset * 100 + i}`, name: `Agent ${offset * 100 + i}` }));
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, agents }));
        };
      });
      expect(r.code).to.equal(1);
      expect(r.stderr).to.equal(`compsim fork: the source lists more than the 100000 participants fork reads (/api/competitions/${COMP}/agents)\n`);
      expect(requestsTo('/agents')).to.equal(11);
    });

    it('stops at a repeated page (a source that ignores offset) and at an empty one, whatever the total says', async () => {
      const full = Array.from({ length: 100 }, (_, i) => trade(i));
      const repeated = await run((routes) => {
        routes[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: full, total: 500, pagination: page(500, 100) } };
      });
      expect(repeated.code, repeated.stderr).to.equal(0);
      expect(requestsTo('/trades')).to.equal(2);
      expect(repeated.stdout).to.include('warning: the source reported 500 trades and listed 100 distinct ones');
      await src!.close();
      const empty = await run((routes) => {
        routes[`/api/competitions/${COMP}/trades`] = (req, res) => {
          const offset = new URL(req.url!, 'http://x').searchParams.get('offset');
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, trades: offset === '0' ? full : [], total: 300, pagination: page(300, 100) }));
        };
      });
      expect(empty.code, empty.stderr).to.equal(0);
      expect(requestsTo('/trades')).to.equal(2);
      expect(JSON.parse(readFileSync(join(empty.out, 'fork.json'), 'utf8')).counts).to.deep.include({ trades: 100, tradesReported: 300, tradePages: 1 });
    });
  });

  describe('wrong types', () => {
    const cases: [string, (routes: Record<string, Answer>) => void, string, string][] = [
      ['a null trade', (r) => void (r[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: [null], total: 1, pagination: page(1, 1) } }), '/trades?limit=100&offset=0', 'trades[0] must be object'],
      ['trades that are not a list', (r) => void (r[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: 'not an array', total: 1, pagination: page(1, 1) } }), '/trades?limit=100&offset=0', 'trades must be array'],
      ['a token symbol that is a number', (r) => void (r[`/api/competitions/${COMP}`] = { body: { success: true, competition: { id: COMP, name: 'Cup', status: 'ended', startDate: START, endDate: END, paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 5, amount: 1 }] } } }), '', 'competition.paperTradingInitialBalances[0].tokenSymbol must be string'],
      ['a time past the Date range', (r) => void (r[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: [trade(1, { timestamp: '+275760-09-13T00:00:00.001Z' })], total: 1, pagination: page(1, 1) } }), '/trades?limit=100&offset=0', 'trades[0].timestamp must match format "date-time"'],
      ['a negative amount', (r) => void (r[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: [trade(1, { fromAmount: -10 })], total: 1, pagination: page(1, 1) } }), '/trades?limit=100&offset=0', 'trades[0].fromAmount must be >= 0'],
      ['a missing trade id', (r) => void (r[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: [{ ...trade(1), id: undefined }], total: 1, pagination: page(1, 1) } }), '/trades?limit=100&offset=0', 'trades[0].id is missing'],
      ['an agent name of 101 characters', (r) => void (r[`/api/competitions/${COMP}/agents`] = { body: { success: true, agents: [{ id: 'a1', name: 'n'.repeat(101) }], pagination: page(1, 1) } }), '/agents?limit=100&offset=0&includeInactive=true', 'agents[0].name must NOT have more than 100 characters'],
      ['a timeline that is an object', (r) => void (r[`/api/competitions/${COMP}/timeline`] = { body: { success: true, timeline: {} } }), '/timeline?bucket=1', 'timeline must be array'],
    ];
    for (const [what, spoil, path, problem] of cases) {
      it(`reports ${what} as one error naming the request and the field (exit 1, no stack)`, async () => {
        const r = await run(spoil);
        expect(r.code).to.equal(1);
        expect(r.stderr).to.equal(`compsim fork: GET ${src!.url}/api/competitions/${COMP}${path}: the answer does not fit the API: ${problem}\n`);
      });
    }
  });

  describe('redirects and permanent failures', () => {
    it('refuses a redirect loop and a redirect out of HTTP at once, without retrying', async () => {
      const loop = await run((routes) => {
        routes[`/api/competitions/${COMP}/rules`] = { status: 302, headers: { location: '/elsewhere' }, body: '' };
        routes['/elsewhere'] = { status: 301, headers: { location: `/api/competitions/${COMP}/rules` }, body: '' };
      });
      expect(loop.code).to.equal(1);
      expect(loop.stderr).to.equal(`compsim fork: GET ${src!.url}/api/competitions/${COMP}/rules redirects in a loop (back to ${src!.url}/api/competitions/${COMP}/rules)\n`);
      expect(requestsTo('/rules')).to.equal(1);
      await src!.close();
      const file = await run((routes) => {
        routes[`/api/competitions/${COMP}/rules`] = { status: 307, headers: { location: 'file:///etc/passwd' }, body: '' };
      });
      expect(file.code).to.equal(1);
      expect(file.stderr).to.equal(`compsim fork: GET ${src!.url}/api/competitions/${COMP}/rules redirects to file: (file:///etc/passwd); fork follows http and https only\n`);
      expect(requestsTo('/rules')).to.equal(1);
      expect(file.io.sleeps).to.deep.equal([]);
    });

    it('refuses a redirect to another origin unless --follow-redirects; followed, it is recorded and the key stays home', async () => {
      const other = await source();
      try {
        const spoil = (routes: Record<string, Answer>) => {
          routes[`/api/competitions/${COMP}/timeline`] = { status: 302, headers: { location: `${other.url}/api/competitions/${COMP}/timeline?bucket=1` }, body: '' };
        };
        const refused = await run(spoil);
        expect(refused.code).to.equal(1);
        expect(refused.stderr).to.equal(`compsim fork: GET ${src!.url}/api/competitions/${COMP}/timeline?bucket=1 redirects to another origin, ${other.url}; pass --follow-redirects to follow it (the API key is not sent there)\n`);
        expect(other.seen).to.deep.equal([]);
        await src!.close();
        const followed = await run(spoil, ['--follow-redirects']);
        expect(followed.code, followed.stderr).to.equal(0);
        expect(other.seen).to.deep.equal([{ path: `/api/competitions/${COMP}/timeline`, query: '?bucket=1', auth: undefined }]);
        expect(src!.seen.filter((s) => s.path.endsWith('/trades')).map((s) => s.auth)).to.deep.equal([`Bearer ${KEY}`]);
        const manifest = JSON.parse(readFileSync(join(followed.out, 'fork.json'), 'utf8'));
        expect(manifest.redirects).to.deep.equal([{ from: `${src!.url}/api/competitions/${COMP}/timeline?bucket=1`, to: `${other.url}/api/competitions/${COMP}/timeline?bucket=1` }]);
        expect(followed.stdout).to.include(`warning: followed a redirect to another origin: ${src!.url}/api/competitions/${COMP}/timeline?bucket=1 -> ${other.url}/api/competitions/${COMP}/timeline?bucket=1`);
      } finally {
        await other.close();
      }
    });
  });

  describe('waiting', () => {
    it('backs off 1 s, 2 s ... after a Retry-After that is neither seconds nor a date (-5, soon)', async () => {
      let calls = 0;
      const r = await run((routes) => {
        routes[`/api/competitions/${COMP}/rules`] = (_req, res) => {
          calls++;
          if (calls <= 2) res.writeHead(429, { 'retry-after': calls === 1 ? '-5' : 'soon' }).end('{}');
          else res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"rules":{}}');
        };
      });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.io.sleeps).to.deep.equal([1000, 2000]);
    });

    it('warns of a wait over a minute and gives up when waiting would pass --deadline', async () => {
      const r = await run((routes) => {
        routes[`/api/competitions/${COMP}/rules`] = { status: 503, headers: { 'retry-after': '7200' }, body: { success: false, error: 'maintenance' } };
      }, ['--deadline', '25m']);
      expect(r.code).to.equal(1);
      // Ten minutes twice (Retry-After is cut to ten minutes), then a third would end after the 25 minutes.
      expect(r.io.sleeps).to.deep.equal([600_000, 600_000]);
      const url = `${src!.url}/api/competitions/${COMP}/rules`;
      expect(r.stderr).to.equal(
        `warning: the source answered GET ${url} with 503 and Retry-After: waiting 600 s\n`.repeat(2)
        + `compsim fork: the source answered GET ${url} with 503 and Retry-After: waiting 600 s more would run past the --deadline\n`,
      );
      expect(requestsTo('/rules')).to.equal(3);
    });

    it('refuses a bad --deadline or --max-answer-mb (exit 2)', async () => {
      const bad = async (argv: string[]) => {
        const stderr = textSink();
        const code = await forkMain(['--from', 'http://127.0.0.1:9', '--competition', COMP, '--out', 'x', ...argv], { stdout: textSink(), stderr }, fakeIo());
        return [code, stderr.text.split('\n')[0]];
      };
      expect(await bad(['--deadline', 'soon'])).to.deep.equal([2, "compsim fork: --deadline must be a duration such as 30m or 2h, got 'soon'"]);
      expect(await bad(['--max-answer-mb', '0'])).to.deep.equal([2, "compsim fork: --max-answer-mb must be a whole number of MB from 1 to 4096, got '0'"]);
    });
  });

  describe('files', () => {
    it('writes only its own files inside --out, whatever names the source gives, and keeps formula-like text readable', async () => {
      const reasons = ['=HYPERLINK("http://evil","click")', '@SUM(1)', 'line one\nline two, "quoted"', '-2+3+cmd|x'];
      const r = await run((routes) => {
        routes[`/api/competitions/${COMP}`] = { body: { success: true, competition: { id: COMP, name: '../../../escape\u001b[2J', type: 'trading', status: 'ended', startDate: START, endDate: END, description: '/etc/passwd' } } };
        routes[`/api/competitions/${COMP}/agents`] = { body: { success: true, agents: [{ id: '../../a1', name: '=cmd|/C calc', handle: '../..' }], pagination: page(1, 1) } };
        routes[`/api/competitions/${COMP}/trades`] = { body: { success: true, trades: reasons.map((reason, i) => trade(i, { agentId: '../../a1', reason, timestamp: `2025-06-02T12:3${i}:00.000Z` })), total: 4, pagination: page(4, 4) } };
        routes[`/api/competitions/${COMP}/timeline`] = { body: { success: true, timeline: [] } };
      });
      expect(r.code, r.stderr).to.equal(0);
      // The name reaches the terminal without its escape sequence.
      expect(r.stdout).to.include("forked '../../../escape\ufffd[2J' (ended)");
      expect(r.stdout).to.not.include('\u001b');
      expect(readdirSync(r.parent)).to.deep.equal(['out']);
      expect(readdirSync(r.out).sort()).to.deep.equal(['.fork-cache', 'competition.json', 'fork.json', 'leaderboard.csv', 'prices.json', 'source-trades.csv', 'timeline.csv', 'trades.csv', 'world.json']);
      expect(readdirSync(join(r.out, '.fork-cache')).sort()).to.deep.equal(['agents-0.json', 'competition.json', 'rules.json', 'source.json', 'timeline-1.json', 'trades-0.json']);
      const csv = readFileSync(join(r.out, 'trades.csv'), 'utf8');
      // No cell starts a formula in a spreadsheet; the trades read back with the reasons and the agent name as the source gave them.
      expect(csv).to.not.match(/(^|,)[=@+-][^,]*/m);
      const back = parseTrades(csv, 'trades.csv');
      expect(back.map((t) => t.reason)).to.deep.equal(reasons);
      expect(back.map((t) => t.agent)).to.deep.equal(reasons.map(() => '=cmd|/C calc'));
    });
  });
});
