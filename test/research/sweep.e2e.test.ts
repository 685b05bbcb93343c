// compsim sweep on worker threads: deterministic outputs on any worker count, shard merge equal to the unsharded result, fork directories.
import { expect } from 'chai';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sweepMain } from '../../src/cli/sweep.js';
import { MAX_RUNS } from '../../src/research/sweep-input.js';
import { generate } from '../../scenarios/generators/day-random-walk.js';
import { ROOT, scratch } from '../helpers/paths.js';
import { captured } from '../helpers/cli-io.js';

const sweepHere = (args: string[]) => captured(sweepMain, args);

const OUTPUTS = ['summary.csv', 'tau.csv', 'runs.csv', 'ranks.csv', 'report.html', 'sweep.json'];
const read = (dir: string) => Object.fromEntries(OUTPUTS.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('compsim sweep (worker threads)', function () {
  this.timeout(300_000);

  describe('the command', () => {
    let scenario: string;
    let serial: Record<string, string>;
    const dir = scratch('sweep');

    before(async () => {
      scenario = relative(ROOT, join(dir, 'day5.scenario.json'));
      writeFileSync(join(ROOT, scenario), `${JSON.stringify(generate(5), null, 2)}\n`);
      const r = await sweepHere([scenario, '--seeds', '1..6', '--vary', 'slippage=upstream,none', '--workers', '1', '--out', relative(ROOT, join(dir, 'serial'))]);
      expect(r.code, r.stderr + r.stdout).to.equal(0);
      expect(r.stdout).to.include(`sweep ${scenario}: 6 seeds × 2 variants = 12 runs, plus the base run`);
      serial = read(join(dir, 'serial'));
    });

    it('writes one runs.csv row per run with its seed, and summary.csv rows per agent and variant', () => {
      const runs = serial['runs.csv']!.trimEnd().split('\n');
      expect(runs[0]).to.equal('run,variant,slippage,seed,ok,failure,steps_passed,steps,requests,log_sha256,competition,agents,winner,tau_vs_base');
      expect(runs).to.have.length(14);
      expect(runs[1]).to.match(/^0,base \(as written\),,2025,true,,\d+,\d+,\d+,[0-9a-f]{64},Random Walk Day,5,Agent \d\d,1\.0000$/);
      expect(runs.slice(2).map((l) => l.split(',').slice(0, 4).join(','))).to.deep.equal([
        ...[1, 2, 3, 4, 5, 6].map((s) => `${s},slippage=upstream,upstream,${s}`), ...[1, 2, 3, 4, 5, 6].map((s) => `${s + 6},slippage=none,none,${s}`),
      ]);
      const summary = serial['summary.csv']!.trimEnd().split('\n');
      expect(summary[0]).to.equal('variant,slippage,competition,agent,runs,base_rank,rank_median,rank_q1,rank_q3,rank_iqr,rank_min,rank_max,p_rank1,p_top3,pnl_median,pnl_q1,pnl_q3,pnl_iqr,pnl_percent_median');
      expect(summary).to.have.length(11);
      const rows = summary.slice(1).map((l) => l.split(','));
      for (const variant of ['slippage=upstream', 'slippage=none']) {
        const mine = rows.filter((r) => r[0] === variant);
        expect(mine.map((r) => r[3]).sort()).to.deep.equal(['Agent 01', 'Agent 02', 'Agent 03', 'Agent 04', 'Agent 05']);
        // Every run ranks one agent first and three in the top 3.
        expect(mine.reduce((s, r) => s + Number(r[12]), 0)).to.be.closeTo(1, 1e-3);
        expect(mine.reduce((s, r) => s + Number(r[13]), 0)).to.be.closeTo(3, 1e-3);
        // Sorted by median rank.
        const medians = mine.map((r) => Number(r[6]));
        expect(medians).to.deep.equal([...medians].sort((a, b) => a - b));
        for (const r of mine) expect(r[4]).to.equal('6');
      }
      const ranks = serial['ranks.csv']!.trimEnd().split('\n');
      expect(ranks).to.have.length(1 + 13 * 5);
      expect(serial['tau.csv']!.trimEnd().split('\n')).to.have.length(3);
    });

    it('gives byte-identical outputs when run again, and on 3 workers', async () => {
      const again = await sweepHere([scenario, '--seeds', '1..6', '--vary', 'slippage=upstream,none', '--workers', '3', '--out', relative(ROOT, join(dir, 'parallel'))]);
      expect(again.code, again.stderr).to.equal(0);
      expect(read(join(dir, 'parallel'))).to.deep.equal(serial);
    });

    it('merges shards into exactly the unsharded result, byte for byte', async () => {
      const shards: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const out = relative(ROOT, join(dir, `shard${i}`));
        const r = await sweepHere([scenario, '--seeds', '1..6', '--vary', 'slippage=upstream,none', '--shard', `${i}/3`, '--workers', '2', '--out', out]);
        expect(r.code, r.stderr).to.equal(0);
        expect(r.stdout).to.include(`(shard ${i}/3: 4 of 12)`);
        expect(read(join(ROOT, out))['runs.csv']!.trimEnd().split('\n')).to.have.length(1 + 1 + 4);
        shards.push(out);
      }
      const merged = relative(ROOT, join(dir, 'merged'));
      const m = await sweepHere(['merge', shards[2]!, shards[0]!, shards[1]!, '--out', merged]);
      expect(m.code, m.stderr).to.equal(0);
      expect(read(join(ROOT, merged))).to.deep.equal(serial);

      const missing = await sweepHere(['merge', shards[0]!, shards[2]!, '--out', merged]);
      expect(missing.code).to.equal(2);
      expect(missing.stderr).to.match(/^compsim sweep: missing shard 2\/3\n/);
      const twice = await sweepHere(['merge', shards[0]!, shards[0]!, shards[1]!, shards[2]!, '--out', merged]);
      expect(twice.stderr).to.match(/^compsim sweep: shard 1\/3 is given twice\n/);
    });

    it('refuses a shard of another sweep in a merge', async () => {
      const a = relative(ROOT, join(dir, 'other1'));
      const b = relative(ROOT, join(dir, 'other2'));
      await sweepHere([scenario, '--seeds', '1..2', '--shard', '1/2', '--out', a]);
      await sweepHere([scenario, '--seeds', '1..3', '--shard', '2/2', '--out', b]);
      const r = await sweepHere(['merge', a, b, '--out', relative(ROOT, join(dir, 'nope'))]);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.match(new RegExp(`^compsim sweep: ${b} is a sweep of another scenario, seed list or --vary than ${a}\n`));
    });

    it('sweeps a directory written by compsim fork: its trades and tape replayed, the base run without slippage', async () => {
      const fork = join(dir, 'fork');
      mkdirSync(fork, { recursive: true });
      copyFileSync(join(ROOT, 'fixtures/replay/trades.csv'), join(fork, 'trades.csv'));
      copyFileSync(join(ROOT, 'fixtures/replay/tape.json'), join(fork, 'prices.json'));
      writeFileSync(join(fork, 'fork.json'), JSON.stringify({
        files: { world: 'world.json', trades: 'trades.csv', prices: 'prices.json', balances: 'balances.json' },
        replay: { start: '2025-06-02T12:00:00.000Z', end: '2025-06-02T14:00:00.000Z', intervalMs: 300_000, agents: [], rules: 'lenient' },
      }));
      const out = join(dir, 'fork-out');
      const r = await sweepHere([relative(ROOT, fork), '--seeds', '1..3', '--vary', 'slippage=none,upstream', '--out', relative(ROOT, out)]);
      expect(r.code, r.stderr + r.stdout).to.equal(0);
      const runs = readFileSync(join(out, 'runs.csv'), 'utf8').trimEnd().split('\n').map((l) => l.split(','));
      expect(runs.map((x) => [x[0], x[1], x[3], x[4], x[10]])).to.deep.equal([
        ['run', 'variant', 'seed', 'ok', 'competition'], ['0', 'base (as written)', '1', 'true', 'Replay'],
        ...[1, 2, 3].map((s) => [String(s), 'slippage=none', String(s), 'true', 'Replay']), ...[1, 2, 3].map((s) => [String(s + 3), 'slippage=upstream', String(s), 'true', 'Replay']),
      ]);
      // Without slippage the seed changes nothing: the same ranking as the base run, and the same log as the base run with seed 1.
      expect(runs.slice(2, 5).map((x) => x[13])).to.deep.equal(['1.0000', '1.0000', '1.0000']);
      expect(runs[2]![9]).to.equal(runs[1]![9]);
      const bad = join(dir, 'bad-fork');
      mkdirSync(bad, { recursive: true });
      writeFileSync(join(bad, 'fork.json'), '{"files": {}}');
      const refused = await sweepHere([relative(ROOT, bad), '--seeds', '1', '--out', relative(ROOT, join(dir, 'x'))]);
      expect(refused.code).to.equal(2);
      expect(refused.stderr.split('\n')[0]).to.equal(`compsim sweep: ${relative(ROOT, join(bad, 'fork.json'))}: not a fork manifest (files.trades, files.prices, replay.start, replay.end, replay.intervalMs)`);
    });

    it('refuses unknown --vary keys, random-walk keys on other feeds and missing options (exit 2)', async () => {
      const constant = join(dir, 'constant.scenario.json');
      writeFileSync(constant, JSON.stringify({ ...generate(2), world: {} }));
      const cases: [string[], string][] = [
        [[scenario, '--seeds', '1..2', '--vary', 'weather=sunny', '--out', 'x'], "--vary: unknown key 'weather' (known: slippage, prices.volatility, prices.stepMs, maxTradePercentage, snapshotIntervalMs)"],
        [[relative(ROOT, constant), '--seeds', '1..2', '--vary', 'prices.volatility=0.01', '--out', 'x'], "--vary prices.volatility needs a randomWalk price feed, and the scenario's world has none (constant prices)"],
        [[scenario, '--vary', 'slippage=none', '--out', 'x'], '--seeds is required (e.g. --seeds 1..200)'],
        [[scenario, '--seeds', '1'], '--out is required'],
        [[scenario, '--seeds', '1', '--vary', 'slippage=none', '--vary', 'slippage=upstream', '--out', 'x'], '--vary slippage is given twice'],
        [['no/such.scenario.json', '--seeds', '1', '--out', 'x'], 'no such file or folder: no/such.scenario.json'],
        [[relative(ROOT, dir), '--seeds', '1', '--out', 'x'], `${relative(ROOT, dir)} holds 2 scenario files (constant.scenario.json, day5.scenario.json); name one of them`],
        [[scenario, '--seeds', '1..100000', '--vary', 'slippage=none,upstream', '--out', 'x'], `100000 seeds × 2 variants = 200000 runs, more than the ${MAX_RUNS} a sweep makes: use fewer seeds or --vary values, or --shard`],
        [[scenario, '--seeds', '9007199254740990..9007199254740999', '--out', 'x'], "--seeds: seeds must be safe integers (at most 9007199254740991 either side of 0), got '9007199254740990..9007199254740999'"],
        [[scenario, '--seeds', '1', '--vary', 'constructor=1', '--out', 'x'], "--vary: unknown key 'constructor' (known: slippage, prices.volatility, prices.stepMs, maxTradePercentage, snapshotIntervalMs)"],
      ];
      for (const [args, message] of cases) {
        const r = await sweepHere(args);
        expect(r.code, args.join(' ')).to.equal(2);
        expect(r.stderr.split('\n')[0], args.join(' ')).to.equal(`compsim sweep: ${message}`);
      }
    });
  });
});
