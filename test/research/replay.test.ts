// compsim replay: input parsing, the generated scenario, hand-checked leaderboards and balance histories, counterfactuals, CLI exit codes.
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { IN_PROCESS_ADMIN_KEY, inProcessTarget } from '../../src/world/in-process-target.js';
import { ADMIN_KEY_PLACEHOLDER } from '../../src/harness/log.js';
import { parseReplayArgs, replayMain, runReplay } from '../../src/cli/replay.js';
import { UsageError } from '../../src/cli/args.js';
import { parseTapes, parseTrades, replayPlan, ReplayInputError, toCsv } from '../../src/research/replay.js';
import { runScenario } from '../../src/harness/runner.js';
import { validateScenario } from '../../src/harness/schema.js';
import { targetResponse, type Target } from '../../src/harness/targets.js';
import { ROOT, runToEnd, scratch } from '../harness/child.js';

const T0 = Date.UTC(2025, 5, 2, 12);
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** Input files of a small replay whose numbers are worked out by hand in the tests. */
function inputs(dir: string) {
  const trades = join(dir, 'trades.csv');
  writeFileSync(trades, [
    'timestamp,agent,fromToken,toToken,amount,reason',
    `2025-06-02T12:30:00Z,Bea,${USDC},${SOL},150,"second, at 150"`,
    `2025-06-02T12:00:00Z,Al,${USDC},${SOL},500,first`,
    `2025-06-02T12:40:00Z,Bea,${USDC},${SOL},99999,too big`,
  ].join('\n'));
  const tape = join(dir, 'tape.json');
  writeFileSync(tape, JSON.stringify({ [`svm:${SOL}`]: [['2025-06-02T12:00:00Z', 100], ['2025-06-02T13:00:00Z', 200]] }));
  const flat = join(dir, 'flat.json');
  writeFileSync(flat, JSON.stringify({ tapes: { [`svm:${SOL}`]: [[T0, 100]] } }));
  const balances = join(dir, 'balances.json');
  writeFileSync(balances, JSON.stringify([{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }]));
  return { trades, tape, flat, balances };
}

describe('compsim replay: inputs', () => {
  it('reads CSV (quoted commas, comments) and JSON trades, sorted by time (stable)', () => {
    const csv = parseTrades(`# recorded\ntimestamp,agent,fromToken,toToken,amount,reason\n${T0 + 10},b,x,y,1,"a, b"\n${T0},a,x,y,2,\n`, 't.csv');
    expect(csv.map((t) => [t.agent, t.timestamp, t.reason])).to.deep.equal([['a', T0, 'replay'], ['b', T0 + 10, 'a, b']]);
    const json = parseTrades(JSON.stringify({ trades: [{ timestamp: '2025-06-02T12:00:00Z', agent: 'a', fromToken: 'x', toToken: 'y', amount: 3, toSpecificChain: 'eth' }] }), 't.json');
    expect(json[0]).to.deep.include({ timestamp: T0, amount: '3', toSpecificChain: 'eth' });
  });

  it('names the file, line or field of bad input', () => {
    expect(() => parseTrades('timestamp,agent,fromToken,toToken,amount\nsoon,a,x,y,1\n', 't.csv')).to.throw(ReplayInputError, 't.csv:2.timestamp: not a time');
    expect(() => parseTrades('timestamp,agent\n1,a,extra\n', 't.csv')).to.throw(ReplayInputError, 't.csv:2: 3 cells, the header has 2');
    expect(() => parseTrades('[{"timestamp":1,"agent":"a","fromToken":"x","toToken":"y"}]', 't.json')).to.throw(ReplayInputError, 't.json: trades[0]: missing amount');
    expect(() => parseTrades('[{"timestamp":1,"agent":"a","fromToken":"x","toToken":"y","amount":1,"venue":"z"}]', 't.json')).to.throw(ReplayInputError, "unknown field 'venue'");
    expect(() => parseTapes('{"SOL": [[1, 2]]}', 'p.json')).to.throw(ReplayInputError, "p.json: key 'SOL' is not <chain>:<address>");
    expect(() => parseTapes('{"svm:x": [[1, -2]]}', 'p.json')).to.throw(ReplayInputError, 'p.json: svm:x[0]: expected [time, price >= 0]');
  });

  it('plans a scenario: agents as actors, start, balance reads, trades at their times, end', () => {
    const trades = parseTrades(`timestamp,agent,fromToken,toToken,amount\n${T0},a,x,y,1\n${T0 + 60_000},b,x,y,1\n`, 't.csv');
    const plan = replayPlan(trades, {}, { seed: 1, slippage: 'none', intervalMs: 300_000, rules: 'lenient' });
    expect(plan.agents).to.deep.equal(['a', 'b']);
    expect(Object.keys(plan.doc.actors!)).to.deep.equal(['agent1', 'agent2']);
    expect(plan.doc.steps.map((s) => Object.keys(s)[0])).to.deep.equal(['call', 'call', 'call', 'call', 'call', 'setTime', 'call']);
    expect(plan.tradeSteps).to.deep.equal([3, 4]);
    // A trade after the clock's time moves it as part of its call; one at the start time does not.
    expect(plan.doc.steps[3]).to.not.have.property('at');
    expect(plan.doc.steps[4]).to.include({ call: 'POST /api/trade/execute', as: 'agent2', at: new Date(T0 + 60_000).toISOString() });
    expect(plan.end).to.equal(T0 + 60_000 + 300_000);
    expect(() => replayPlan(trades, {}, { seed: 1, slippage: 'none', intervalMs: 1000, rules: 'lenient', endTime: T0 })).to.throw(ReplayInputError, 'must be after the last trade');
    expect(toCsv(['a', 'b'], [['x,y', null]])).to.equal('a,b\n"x,y",\n');
  });
});

describe('compsim replay: runs', function () {
  this.timeout(60_000);

  it('rebuilds leaderboards and balance histories that match a hand computation', async () => {
    const f = inputs(scratch('replay-hand'));
    const args = parseReplayArgs(['--trades', f.trades, '--prices', f.tape, '--balances', f.balances, '--slippage', 'none', '--interval', '30m']);
    const run = await runReplay(args, parseTapes(readFileSync(f.tape, 'utf8'), f.tape), 'none', 'replay', inProcessTarget());
    const o = run.outcome;
    // Al: 500 USDC -> 5 SOL at 100. Bea: 150 USDC -> 1 SOL at 150 (12:30); her 99,999 USDC order is refused.
    expect(o.trades.map((t) => [t.trade.agent, t.accepted, t.toAmount, t.error])).to.deep.equal([
      ['Al', true, 5, null], ['Bea', true, 1, null], ['Bea', false, null, 'Insufficient balance'],
    ]);
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
  });

  it('reads the same outcome from copied answers as from answers parsed from their JSON text, and the runner reports every logged exchange', async () => {
    const f = inputs(scratch('replay-answers'));
    const args = parseReplayArgs(['--trades', f.trades, '--prices', f.tape, '--balances', f.balances, '--slippage', 'expected', '--interval', '30m']);
    const tapes = parseTapes(readFileSync(f.tape, 'utf8'), f.tape);
    const direct = await runReplay(args, tapes, 'expected', 'replay', inProcessTarget());
    // A target whose answers are parsed again from their text, each time the body is read.
    const inner = inProcessTarget();
    const seen: [string, number, unknown][] = [];
    const bodyOnly: Target = {
      label: 'body only', begin: (sc) => inner.begin(sc), close: () => inner.close(),
      send: async (req) => {
        const res = await inner.send(req);
        return targetResponse(res.status, res.text, res.json);
      },
    };
    const parsed = await runReplay(args, tapes, 'expected', 'replay', bodyOnly);
    expect(parsed.result.hash).to.equal(direct.result.hash);
    expect(parsed.outcome).to.deep.equal(direct.outcome);
    expect(direct.outcome.trades.filter((t) => t.accepted).map((t) => t.tradeAmountUsd)).to.deep.equal([500, 150]);
    // onExchange: one call per log line, in order, with the line's position and answer.
    const doc = replayPlan(parseTrades(readFileSync(f.trades, 'utf8'), f.trades), tapes, { seed: 1, slippage: 'none', intervalMs: 1_800_000, rules: 'lenient' }).doc;
    const result = await runScenario({ file: 'r', name: 'r', doc: validateScenario(doc, 'r') }, inProcessTarget(), {
      onExchange: (at, res) => seen.push([at, res.status, res.body]),
    });
    const lines = result.log.trim().split('\n').map((l) => JSON.parse(l) as { at: string; response: { status: number; body?: unknown } });
    // The log differs only in redacting the admin key (the reset's answer holds it).
    const redacted = (body: unknown) => JSON.parse(JSON.stringify(body).split(IN_PROCESS_ADMIN_KEY).join(ADMIN_KEY_PLACEHOLDER)) as unknown;
    expect(seen.map(([at, status, body]) => ({ at, response: { status, ...(body !== undefined ? { body: redacted(body) } : {}) } })))
      .to.deep.equal(lines.map((l) => ({ at: l.at, response: l.response })));
    expect(seen.map(([at]) => at).slice(0, 4)).to.deep.equal(['reset', 'actors.agent1', 'actors.agent2', 'steps[0]']);
  });

  it('is reproducible, writes its files, and its scenario replays to the same hash with compsim run', async () => {
    const dir = scratch('replay-out');
    const f = inputs(dir);
    const out = join(dir, 'out');
    const base = ['replay', '--trades', relative(ROOT, f.trades), '--prices', relative(ROOT, f.tape), '--balances', relative(ROOT, f.balances), '--seed', '7'];
    const first = await runToEnd([...base, '--out', relative(ROOT, out)]);
    expect(first.code, first.stderr).to.equal(0);
    const hash = /sha256 ([0-9a-f]{64})/.exec(first.stdout)![1]!;
    expect(first.stdout).to.include('refused trades:');
    expect((await runToEnd(base)).stdout).to.include(hash);
    for (const file of ['leaderboards.csv', 'balances.csv', 'trades.csv', 'outcome.json', 'report.html', 'summary.md']) {
      expect(readFileSync(join(out, file), 'utf8').length, file).to.be.greaterThan(0);
    }
    expect(readFileSync(join(out, 'report.html'), 'utf8')).to.include('<svg');
    const again = await runToEnd(['run', relative(ROOT, join(out, 'replay.scenario.json'))]);
    expect(again.code, again.stdout).to.equal(0);
    expect(again.stdout).to.include(hash);
  });

  it('compares a counterfactual: slippage none keeps more value than expected slippage; a flat tape removes the gain', async () => {
    const f = inputs(scratch('replay-cf'));
    let stdout = '';
    const code = await replayMain(['--trades', f.trades, '--prices', f.tape, '--balances', f.balances, '--slippage', 'expected', '--vs-slippage', 'none', '--json'],
      { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: () => true } });
    expect(code).to.equal(0);
    const [withSlip, without] = JSON.parse(stdout) as { final: { agent: string; value: number }[] }[];
    for (const r of without!.final) expect(r.value).to.be.greaterThan(withSlip!.final.find((x) => x.agent === r.agent)!.value);
    const flat = await runReplay(parseReplayArgs(['--trades', f.trades, '--prices', f.flat, '--balances', f.balances, '--slippage', 'none']),
      parseTapes(readFileSync(f.flat, 'utf8'), f.flat), 'none', 'flat', inProcessTarget());
    expect(flat.outcome.final.map((r) => r.value)).to.deep.equal([1000, 1000]);
  });

  it('exits 2 on usage errors and 1 on unreadable input', async () => {
    expect(() => parseReplayArgs(['--trades', 'x'])).to.throw(UsageError, '--trades and --prices (or --fork) are required');
    expect(() => parseReplayArgs(['--trades', 'x', '--prices', 'y', '--slippage', 'some'])).to.throw(UsageError, '--slippage must be upstream, expected or none');
    const usage = await runToEnd(['replay', '--trades', 'x.csv']);
    expect(usage.code).to.equal(2);
    const missing = await runToEnd(['replay', '--trades', 'nope.csv', '--prices', 'fixtures/replay/tape.json']);
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.include('compsim replay: cannot read nope.csv');
  });
});
