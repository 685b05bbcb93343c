// compsim replay: input parsing, the plan and its scenario, hand-checked leaderboards and balance histories, in-process against served replays, counterfactuals, report titles, CLI exit codes.
import { expect } from 'chai';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkedInProcessTarget } from '../helpers/answers.js';
import { parseReplayArgs, replayMain, replayOnce } from '../../src/cli/replay.js';
import { toCsv } from '../../src/research/csv.js';
import { InputFileError, MAX_INPUT_BYTES, parseBalances, parseTapes, parseTrades, readForkManifest, readInput, ReplayInputError } from '../../src/research/replay-input.js';
import { replayPlan, replayScenario } from '../../src/research/replay-plan.js';
import { loadReplayPlan, runReplay } from '../../src/research/replay.js';
import { targetResponse, type Target } from '../../src/harness/targets.js';
import { ROOT, scratch } from '../helpers/paths.js';
import { inputs, T0 } from '../helpers/replay-inputs.js';
import { startTestServer, ADMIN_KEY } from '../helpers/server.js';
import { httpTarget } from '../../src/harness/targets.js';

describe('compsim replay: inputs', () => {
  it('reads CSV (quoted commas, comments) and JSON trades, sorted by time (stable)', () => {
    const csv = parseTrades(`# recorded\ntimestamp,agent,fromToken,toToken,amount,reason\n${T0 + 10},b,x,y,1,"a, b"\n${T0},a,x,y,2,\n`, 't.csv');
    expect(csv.map((t) => [t.agent, t.timestamp, t.reason])).to.deep.equal([['a', T0, 'replay'], ['b', T0 + 10, 'a, b']]);
    const json = parseTrades(JSON.stringify({ trades: [{ timestamp: '2025-06-02T12:00:00Z', agent: 'a', fromToken: 'x', toToken: 'y', amount: 3, toSpecificChain: 'eth' }] }), 't.json');
    expect(json[0]).to.deep.include({ timestamp: T0, amount: '3', toSpecificChain: 'eth' });
  });

  it('reads back what compsim writes: a reason with line breaks, quotes, commas, spaces and a formula', () => {
    const reasons = ['line one\nline two', 'say "hi", then\r\nleave', '  padded  ', '=HYPERLINK("http://x","y")', '@SUM(1)', "'quoted", '#not a comment'];
    const text = toCsv(['timestamp', 'agent', 'fromToken', 'toToken', 'amount', 'reason'], reasons.map((r, i) => [T0 + i, `agent ${i}`, 'x', 'y', '1', r]));
    expect(parseTrades(text, 't.csv').map((t) => t.reason)).to.deep.equal(reasons);
  });

  it('names the file, line or field of bad input', () => {
    expect(() => parseTrades('timestamp,agent,fromToken,toToken,amount\nsoon,a,x,y,1\n', 't.csv')).to.throw(ReplayInputError, 't.csv:2.timestamp: not a time');
    expect(() => parseTrades('timestamp,agent\n1,a,extra\n', 't.csv')).to.throw(ReplayInputError, 't.csv:2: 3 cells, the header has 2');
    expect(() => parseTrades('timestamp,agent,fromToken,toToken,amount\n1,a,x,"y,1\n', 't.csv')).to.throw(ReplayInputError, /^t\.csv: not valid CSV: Quote Not Closed/);
    expect(() => parseTrades('[{"timestamp":1,"agent":"a","fromToken":"x","toToken":"y"}]', 't.json')).to.throw(ReplayInputError, 't.json: trades[0]: missing amount');
    expect(() => parseTrades('[{"timestamp":1,"agent":"a","fromToken":"x","toToken":"y","amount":1,"venue":"z"}]', 't.json')).to.throw(ReplayInputError, "unknown field 'venue'");
    expect(() => parseTrades('[{"timestamp":1,"agent":{"name":"a"},"fromToken":"x","toToken":"y","amount":1}]', 't.json')).to.throw(ReplayInputError, 't.json: trades[0].agent: expected text, got {"name":"a"}');
    expect(() => parseTrades('[{"timestamp":9e15,"agent":"a","fromToken":"x","toToken":"y","amount":1}]', 't.json')).to.throw(ReplayInputError, 't.json: trades[0].timestamp: not a time (ISO 8601 or epoch ms): 9000000000000000');
    expect(() => parseTrades(`timestamp,agent,fromToken,toToken,amount,fromChain\n${T0},a,x,y,1,solana\n`, 't.csv')).to.throw(ReplayInputError, "t.csv:2.fromChain: must be evm or svm, got 'solana'");
    expect(() => parseTrades('{"trades": "not a list"}', 't.json')).to.throw(ReplayInputError, 't.json: expected an array of trades or {"trades": [...]}');
    expect(() => parseTapes('{"SOL": [[1, 2]]}', 'p.json')).to.throw(ReplayInputError, "p.json: key 'SOL' is not <chain>:<address>");
    expect(() => parseTapes('{"svm:x": [[1, -2]]}', 'p.json')).to.throw(ReplayInputError, 'p.json: svm:x[0]: expected [time, price >= 0]');
    expect(() => parseBalances('[{"specificChain":"svm","tokenSymbol":5,"amount":1}]', 'b.json')).to.throw(ReplayInputError, 'b.json: [0].tokenSymbol: expected text');
    expect(() => parseBalances('[{"specificChain":"svm","tokenSymbol":"usdc","amount":"lots"}]', 'b.json')).to.throw(ReplayInputError, 'b.json: [0].amount: expected a number >= 0');
  });

  it('reads a fork manifest only for files inside its directory', () => {
    const dir = scratch('replay-manifest');
    const manifest = (files: Record<string, unknown>, replay: Record<string, unknown> = {}) => writeFileSync(join(dir, 'fork.json'), JSON.stringify({
      files: { trades: 'trades.csv', prices: 'prices.json', ...files },
      replay: { start: '2025-06-02T12:00:00.000Z', end: '2025-06-02T14:00:00.000Z', intervalMs: 300_000, ...replay },
    }));
    manifest({ trades: '../../etc/passwd' });
    expect(() => readForkManifest(dir)).to.throw(ReplayInputError, `${join(dir, 'fork.json')}: files.trades must name a file inside the directory, got '../../etc/passwd'`);
    manifest({ prices: '/etc/hosts' });
    expect(() => readForkManifest(dir)).to.throw(ReplayInputError, "files.prices must name a file inside the directory, got '/etc/hosts'");
    manifest({}, { intervalMs: 5 });
    expect(() => readForkManifest(dir)).to.throw(ReplayInputError, 'replay.intervalMs must be an integer >= 1000, got 5');
    manifest({}, { agents: [1, 2] });
    expect(() => readForkManifest(dir)).to.throw(ReplayInputError, 'replay.agents must be a list of names');
    manifest({}, { end: 'soon' });
    expect(() => readForkManifest(dir)).to.throw(ReplayInputError, `${join(dir, 'fork.json')}: replay.end: not a time (ISO 8601 or epoch ms): "soon"`);
    manifest({});
    expect(readForkManifest(dir)).to.deep.include({ trades: join(dir, 'trades.csv'), prices: join(dir, 'prices.json'), intervalMs: 300_000 });
    expect(readForkManifest(dir)).to.deep.include({ start: Date.parse('2025-06-02T12:00:00.000Z'), end: Date.parse('2025-06-02T14:00:00.000Z') });
  });

  it('names a fork manifest too large to read once, with the reason apart from the path', () => {
    const dir = scratch('replay-manifest-large');
    const path = join(dir, 'fork.json');
    writeFileSync(path, '');
    truncateSync(path, MAX_INPUT_BYTES + 1); // sparse: refused by its size before any byte is read
    const reason = `${MAX_INPUT_BYTES + 1} bytes, more than the 256 MB an input file may hold`;
    expect(() => readInput(path)).to.throw(InputFileError, `${path}: ${reason}`).with.property('reason', reason);
    let message = '';
    try {
      readForkManifest(dir);
    } catch (err) {
      expect(err).to.be.instanceOf(ReplayInputError);
      message = (err as Error).message;
    }
    expect(message).to.equal(`${path}: cannot read it: ${reason}`);
    expect(message.split(path)).to.have.length(2);
    truncateSync(path, 0);
  });

  it('plans a replay, and its scenario: agents as actors, start, balance reads, trades at their times, end', () => {
    const trades = parseTrades(`timestamp,agent,fromToken,toToken,amount\n${T0},a,x,y,1\n${T0 + 60_000},b,x,y,1\n`, 't.csv');
    const plan = replayPlan(trades, {}, { seed: 1, slippage: 'none', intervalMs: 300_000, rules: 'lenient', name: 'Cup' });
    expect(plan.agents).to.deep.equal(['a', 'b']);
    expect(plan.create).to.deep.include({ name: 'Cup', tradingType: 'allow' });
    const { doc, tradeSteps, balanceSteps } = replayScenario(plan);
    expect(Object.keys(doc.actors!)).to.deep.equal(['agent1', 'agent2']);
    expect(doc.steps.map((s) => Object.keys(s)[0])).to.deep.equal(['call', 'call', 'call', 'call', 'call', 'setTime', 'call']);
    expect([balanceSteps, tradeSteps]).to.deep.equal([[1, 2], [3, 4]]);
    // A trade after the clock's time moves it as part of its call; one at the start time does not.
    expect(doc.steps[3]).to.not.have.property('at');
    expect(doc.steps[4]).to.include({ call: 'POST /api/trade/execute', as: 'agent2', at: new Date(T0 + 60_000).toISOString() });
    expect(plan.end).to.equal(T0 + 60_000 + 300_000);
    expect(() => replayPlan(trades, {}, { seed: 1, slippage: 'none', intervalMs: 1000, rules: 'lenient', endTime: T0 })).to.throw(ReplayInputError, 'must be after the last trade');
    // A window of ten years at one-second snapshots would make billions of rows: refused before any world is built.
    expect(() => replayPlan(trades, {}, { seed: 1, slippage: 'none', intervalMs: 1000, rules: 'lenient', endTime: T0 + 10 * 365 * 86_400_000 }))
      .to.throw(ReplayInputError, /^2 agents over .* make \d+ snapshot rows, more than 2000000: use a longer --interval$/);
    const long = parseTrades(`timestamp,agent,fromToken,toToken,amount\n${T0},${'n'.repeat(101)},x,y,1\n`, 't.csv');
    expect(() => replayPlan(long, {}, { seed: 1, slippage: 'none', intervalMs: 1000, rules: 'lenient' })).to.throw(ReplayInputError, `agent '${'n'.repeat(40)}': a name has 1 to 100 characters`);
  });
});

describe('compsim replay: runs', function () {
  this.timeout(120_000);

  const options = (f: ReturnType<typeof inputs>, slippage: 'none' | 'expected' | 'upstream', interval = '30m') =>
    parseReplayArgs(['--trades', f.trades, '--prices', f.tape, '--balances', f.balances, '--slippage', slippage, '--interval', interval]);
  const tapesOf = (file: string) => parseTapes(readFileSync(file, 'utf8'), file);

  it('rebuilds leaderboards and balance histories that match a hand computation', async () => {
    const f = inputs(scratch('replay-hand'));
    const run = await replayOnce(options(f, 'none'), tapesOf(f.tape), 'none', 'replay');
    const o = run.outcome;
    // Al: 500 USDC -> 5 SOL at 100. Bea: 150 USDC -> 1 SOL at 150 (12:30); her 99,999 USDC order is refused.
    expect(o.trades.map((t) => [t.trade.agent, t.accepted, t.toAmount, t.error])).to.deep.equal([
      ['Al', true, 5, null], ['Bea', true, 1, null], ['Bea', false, null, 'Insufficient balance'],
    ]);
    expect(o.trades[2]!.status).to.equal(400);
    expect(o.balances.map((b) => [b.agent, b.symbol, b.change, b.balance])).to.deep.equal([
      ['Al', 'USDC', -500, 500], ['Al', 'SOL', 5, 5], ['Bea', 'USDC', -150, 850], ['Bea', 'SOL', 1, 1],
    ]);
    // Snapshots at 12:00 (start), 12:30 (before Bea's trade: SOL 150), 13:10 (end: one interval after 12:40, SOL at the tape's last 200).
    const at = (h: number, m: number) => Date.UTC(2025, 5, 2, h, m);
    expect(o.leaderboards.map((r) => [r.timestamp, r.rank, r.agent, r.value])).to.deep.equal([
      [at(12, 0), 1, 'Al', 1000], [at(12, 0), 2, 'Bea', 1000],
      [at(12, 30), 1, 'Al', 1250], [at(12, 30), 2, 'Bea', 1000],
      [at(13, 0), 1, 'Al', 1500], [at(13, 0), 2, 'Bea', 1050],
      [at(13, 10), 1, 'Al', 1500], [at(13, 10), 2, 'Bea', 1050],
    ]);
    expect(o.final.map((r) => [r.agent, r.value, r.pnl])).to.deep.equal([['Al', 1500, 500], ['Bea', 1050, 50]]);
    expect(run.requests).to.equal(0);
  });

  it('gives the same outcome in-process (library API) as through the request path, in every slippage mode and whatever the seed', async () => {
    const tapes = tapesOf(join(ROOT, 'fixtures/replay/tape.json'));
    // A target whose answers are parsed again from their text, each time the body is read.
    const bodyOnly = (): Target => {
      const inner = checkedInProcessTarget();
      return {
        label: 'body only', begin: (sc) => inner.begin(sc), close: () => inner.close(),
        send: async (req) => {
          const res = await inner.send(req);
          return targetResponse(res.status, res.text, res.json);
        },
      };
    };
    for (const [slippage, seed] of [['upstream', 1], ['upstream', 'abc'], ['expected', 5], ['none', 9]] as const) {
      const plan = loadReplayPlan({ trades: join(ROOT, 'fixtures/replay/trades.csv') }, tapes, { seed, slippage, intervalMs: 300_000, rules: 'lenient' });
      const library = await runReplay(plan, { label: 'replay', source: 'fixture' });
      const served = await runReplay(plan, { label: 'replay', source: 'fixture', target: bodyOnly() });
      expect(served.outcome, `${slippage} ${seed}`).to.deep.equal(library.outcome);
      expect(served.hash).to.equal(library.hash);
      expect(served.requests).to.be.greaterThan(plan.trades.length);
      expect(library.outcome.trades.filter((t) => t.accepted).length).to.be.greaterThan(3);
    }
  });

  it('replays against a served world (--target) to the same outcome hash as in-process', async () => {
    const f = inputs(scratch('replay-served'));
    const srv = await startTestServer({ admin: { apiKey: ADMIN_KEY } }, { simApi: true });
    try {
      const args = parseReplayArgs(['--trades', f.trades, '--prices', f.tape, '--balances', f.balances, '--slippage', 'upstream', '--seed', '4', '--target', srv.url, '--admin-key', ADMIN_KEY]);
      const served = await replayOnce(args, tapesOf(f.tape), 'upstream', 'replay', httpTarget(srv.url, { adminKey: ADMIN_KEY }));
      const local = await replayOnce({ ...args, target: undefined, adminKey: undefined }, tapesOf(f.tape), 'upstream', 'replay');
      expect(served.hash).to.equal(local.hash);
      expect(served.outcome.final).to.deep.equal(local.outcome.final);
    } finally {
      await srv.close();
    }
  });

  it('compares a counterfactual: slippage none keeps more value than expected slippage; a flat tape removes the gain', async () => {
    const f = inputs(scratch('replay-cf'));
    let stdout = '';
    const code = await replayMain(['--trades', f.trades, '--prices', f.tape, '--balances', f.balances, '--slippage', 'expected', '--vs-slippage', 'none', '--json'],
      { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => true } });
    expect(code).to.equal(0);
    const [withSlip, without] = JSON.parse(stdout) as { final: { agent: string; value: number }[] }[];
    for (const r of without!.final) expect(r.value).to.be.greaterThan(withSlip!.final.find((x) => x.agent === r.agent)!.value);
    const flat = await replayOnce(options(f, 'none', '5m'), tapesOf(f.flat), 'none', 'flat');
    expect(flat.outcome.final.map((r) => r.value)).to.deep.equal([1000, 1000]);
  });
});
