// compsim sweep: seed and --vary parsing, Kendall's tau, the CLI's outputs (deterministic, the same on any worker count), shard merge equal to the unsharded result, the report's layout.
import { expect } from 'chai';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sweepMain } from '../../src/cli/sweep.js';
import { renderSweepHtml } from '../../src/research/sweep-report.js';
import { kendallTau, parseSeeds, parseVary, quantile, summarise, SweepInputError, type SweepData, type SweepRun } from '../../src/research/sweep.js';
import { generate, OUTPUT as DAY_FILE, render as renderDay } from '../../scenarios/generators/day-random-walk.js';
import { ROOT, scratch } from '../harness/child.js';

async function sweepHere(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await sweepMain(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

const OUTPUTS = ['summary.csv', 'tau.csv', 'runs.csv', 'ranks.csv', 'report.html', 'sweep.json'];
const read = (dir: string) => Object.fromEntries(OUTPUTS.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const thrown = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).to.be.instanceOf(SweepInputError);
    return (err as Error).message;
  }
  throw new Error('did not throw');
};

describe('compsim sweep', function () {
  this.timeout(300_000);

  describe('inputs and statistics', () => {
    it('reads seed lists and ranges, and refuses bad ones with a clear message', () => {
      expect(parseSeeds('1..5')).to.deep.equal([1, 2, 3, 4, 5]);
      expect(parseSeeds('3,7,1..2,-1')).to.deep.equal([3, 7, 1, 2, -1]);
      expect(thrown(() => parseSeeds('5..1'))).to.equal('--seeds: the range 5..1 runs backwards');
      expect(thrown(() => parseSeeds('1,x'))).to.equal("--seeds must be integers and ranges such as 1..200 or 1,5,9, got '1,x'");
      expect(thrown(() => parseSeeds('1..3,2'))).to.equal("--seeds: a seed is listed twice in '1..3,2'");
      expect(thrown(() => parseSeeds('0..100000'))).to.equal('--seeds: at most 100000 seeds');
    });

    it('reads --vary settings of known keys and refuses unknown keys and bad values', () => {
      expect(parseVary('slippage=upstream,expected')).to.deep.equal({ key: 'slippage', values: ['upstream', 'expected'] });
      expect(parseVary('prices.volatility=0.001,4e-3')).to.deep.equal({ key: 'prices.volatility', values: [0.001, 0.004] });
      expect(thrown(() => parseVary('gravity=1,2'))).to.equal("--vary: unknown key 'gravity' (known: slippage, prices.volatility, prices.stepMs, maxTradePercentage, snapshotIntervalMs)");
      expect(thrown(() => parseVary('slippage=upstream,fast'))).to.equal("slippage must be upstream, expected or none, got 'fast'");
      expect(thrown(() => parseVary('prices.volatility=0,0.1'))).to.equal("prices.volatility must be a number > 0 and <= 1, got '0'");
      expect(thrown(() => parseVary('snapshotIntervalMs=500'))).to.equal("snapshotIntervalMs must be an integer >= 1000, got '500'");
      expect(thrown(() => parseVary('slippage'))).to.equal("--vary must be key=value1,value2,... , got 'slippage'");
      expect(thrown(() => parseVary('slippage=none,none'))).to.equal("--vary slippage: a value is repeated in 'none,none'");
    });

    it("computes Kendall's tau-b (with ties) and type-7 quantiles", () => {
      expect(kendallTau([1, 2, 3, 4], [1, 2, 3, 4])).to.equal(1);
      expect(kendallTau([1, 2, 3, 4], [4, 3, 2, 1])).to.equal(-1);
      // 5 concordant, 1 discordant pair of 6: (5 - 1) / 6.
      expect(kendallTau([1, 2, 3, 4], [1, 2, 4, 3])).to.be.closeTo(4 / 6, 1e-12);
      // Ties: a = (1,1,2), b = (1,2,3): pairs (1,2) tied in a, (1,3) and (2,3) concordant -> 2 / sqrt(2 * 3).
      expect(kendallTau([1, 1, 2], [1, 2, 3])).to.be.closeTo(2 / Math.sqrt(6), 1e-12);
      expect(kendallTau([1], [1])).to.equal(null);
      expect(kendallTau([1, 1], [1, 2])).to.equal(null);
      expect(quantile([1, 2, 3, 4], 0.5)).to.equal(2.5);
      expect(quantile([1, 2, 3, 4], 0.25)).to.equal(1.75);
      expect(quantile([7], 0.75)).to.equal(7);
    });

    it('keeps the generated example scenario current', () => {
      expect(readFileSync(DAY_FILE, 'utf8')).to.equal(renderDay());
    });
  });

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
      ];
      for (const [args, message] of cases) {
        const r = await sweepHere(args);
        expect(r.code, args.join(' ')).to.equal(2);
        expect(r.stderr.split('\n')[0], args.join(' ')).to.equal(`compsim sweep: ${message}`);
      }
    });
  });

  describe('report.html', () => {
    it('draws 20 agents with long names sorted, labelled once each, with no two labels overlapping', () => {
      const names = Array.from({ length: 20 }, (_, i) => `A rather long agent name number ${String(i + 1).padStart(2, '0')} <&>`);
      const run = (n: number, seed: number): SweepRun => ({
        run: n, variant: n === 0 ? -1 : 0, seed, ok: true, failure: '', steps: 1, stepsPassed: 1, requests: 1, hash: 'h',
        standings: [{ competition: 'Cup', agents: names.map((agent, i) => ({ agent, rank: ((i + seed) % 20) + 1, value: 1000 + i * seed, pnl: (i - 10) * 37.5 * seed, pnlPercent: i - 10 })) }],
      });
      const data: SweepData = { source: 's.scenario.json', docHash: 'x', seeds: [1, 2, 3], vary: [], base: run(0, 0), runs: [run(1, 1), run(2, 2), run(3, 3)] };
      const { agents, taus } = summarise(data);
      const html = renderSweepHtml(data, agents, taus);
      expect(html).to.match(/^<!doctype html>/);
      expect(html).to.not.match(/<script|<link|<img|src="http/);
      const svgs = html.match(/<svg[\s\S]*?<\/svg>/g)!;
      expect(svgs).to.have.length(2);
      for (const svg of svgs) {
        const labels = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)" text-anchor="end" class="name">([^<]*)<\/text>/g)];
        expect(labels).to.have.length(20);
        // Sorted as the summary sorts, names cut to fit left of the plot, rows 20 px apart (11px text).
        expect(labels.map((x) => x[3])).to.deep.equal(agents.map((a) => `${a.agent.slice(0, 25)}…`));
        const ys = labels.map((l) => Number(l[2]));
        for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).to.be.at.least(14);
        const ticks = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle" class="tick">/g)].map((m) => Number(m[1]));
        expect(ticks.length).to.be.at.least(2);
        for (let i = 1; i < ticks.length; i++) expect(ticks[i]! - ticks[i - 1]!).to.be.at.least(56);
        // Labels end left of the plot area.
        for (const t of ticks) expect(t).to.be.greaterThan(170);
      }
      expect(html).to.include('<title>A rather long agent name number 01 &lt;&amp;&gt;: median');
    });
  });
});

