// compsim sweep: seed and --vary parsing, Kendall's tau, the CLI's outputs (deterministic, the same on any worker count), shard merge equal to the unsharded result, the report's layout.
import { expect } from 'chai';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sweepMain } from '../../src/cli/sweep.js';
import { renderSweepHtml, tauHistogram } from '../../src/research/sweep-report.js';
import { checkRunCount, MAX_RUNS, parseSeeds, parseVary, SweepInputError, variantAt, variants } from '../../src/research/sweep-input.js';
import { kendallTau, quantile, summarise, type SweepData, type SweepRun } from '../../src/research/sweep-stats.js';
import { SweepRunList } from '../../src/research/sweep.js';
import { pickShard } from '../../src/cli/shard.js';
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

    it('checks seed bounds before expanding a range, so ranges near the safe-integer limit are refused at once', () => {
      expect(thrown(() => parseSeeds('9007199254740990..9007199254740999'))).to.equal("--seeds: seeds must be safe integers (at most 9007199254740991 either side of 0), got '9007199254740990..9007199254740999'");
      expect(thrown(() => parseSeeds('1..99999999999999999999'))).to.match(/^--seeds: seeds must be safe integers/);
      expect(thrown(() => parseSeeds('0..9007199254740990'))).to.equal('--seeds: at most 100000 seeds');
      expect(thrown(() => parseSeeds('1..60000,70000..130000'))).to.equal('--seeds: at most 100000 seeds');
      expect(parseSeeds('9007199254740989..9007199254740991')).to.deep.equal([9007199254740989, 9007199254740990, 9007199254740991]);
    });

    it('caps seeds × variants with an error naming both, before building any run', () => {
      const vary = [parseVary(`maxTradePercentage=${Array.from({ length: 1000 }, (_, i) => 1 + i * 0.099).join(',')}`)];
      expect(thrown(() => checkRunCount(100_000, vary))).to.equal(`100000 seeds × 1000 variants = 100000000 runs, more than the ${MAX_RUNS} a sweep makes: use fewer seeds or --vary values, or --shard`);
      expect(() => checkRunCount(100, vary)).to.not.throw();
      // The run list makes each run from its number: a million-run list costs nothing until a run is asked for.
      const list = new SweepRunList(Array.from({ length: 1000 }, (_, i) => i + 1), vary, 7);
      expect([list.length, list.total]).to.deep.equal([1_000_001, 1_000_000]);
      expect(list.at(0)).to.deep.equal({ run: 0, variant: -1, seed: 7, values: [] });
      expect(list.at(1_000_000)).to.deep.equal({ run: 1_000_000, variant: 999, seed: 1000, values: [vary[0]!.values[999]] });
      expect(list.at(1_000_001)).to.equal(undefined);
    });

    it('deals the runs to shards as the round-robin of the sorted run numbers does', () => {
      const vary = [parseVary('slippage=upstream,none,expected')];
      const seeds = [5, 6, 7, 8, 9, 10, 11];
      const all = new SweepRunList(seeds, vary, 1);
      const runs = Array.from({ length: all.length - 1 }, (_, i) => all.at(i + 1)!);
      expect(runs.map((r) => [r.variant, r.seed])).to.deep.equal(variants(vary).flatMap((v) => seeds.map((s) => [v.index, s])));
      for (const count of [1, 2, 3, 4, 7, 25]) {
        for (let index = 1; index <= count; index++) {
          const list = new SweepRunList(seeds, vary, 1, { index, count });
          const mine = Array.from({ length: list.length - 1 }, (_, i) => list.at(i + 1)!);
          const width = String(runs.length).length;
          expect(mine, `${index}/${count}`).to.deep.equal(pickShard(runs, { index, count }, (r) => String(r.run).padStart(width, '0')));
        }
      }
    });

    it('looks --vary keys up in a table without a prototype: constructor, __proto__ and toString are unknown keys', () => {
      for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        expect(thrown(() => parseVary(`${key}=1`))).to.equal(`--vary: unknown key '${key}' (known: slippage, prices.volatility, prices.stepMs, maxTradePercentage, snapshotIntervalMs)`);
      }
      expect(variantAt([parseVary('slippage=upstream,none'), parseVary('maxTradePercentage=10,20,30')], 4)).to.deep.equal({ index: 4, values: ['none', 20], label: 'slippage=none maxTradePercentage=20' });
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
      expect(svgs).to.have.length(3);
      for (const svg of svgs.slice(1)) {
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

    it('draws the distribution of tau per variant, so a split between the base order and its reverse shows as two humps', () => {
      const order = (reversed: boolean) => ['A', 'B', 'C', 'D'].map((agent, i) => ({ agent, rank: reversed ? 4 - i : i + 1, value: 1, pnl: 0, pnlPercent: 0 }));
      const run = (n: number, reversed: boolean): SweepRun => ({
        run: n, variant: n === 0 ? -1 : 0, seed: n, ok: true, failure: '', steps: 1, stepsPassed: 1, requests: 1, hash: 'h',
        standings: [{ competition: 'Cup', agents: order(reversed) }],
      });
      // Five runs keep the base order, four reverse it: the median (1) says nothing of the four.
      const runs = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => run(n, n % 2 === 0));
      const data: SweepData = { source: 's', docHash: 'x', seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9], vary: [], base: run(0, false), runs };
      const { agents, taus } = summarise(data);
      expect(taus[0]).to.deep.include({ runs: 9, median: 1, min: -1, max: 1 });
      expect(taus[0]!.values).to.deep.equal([-1, -1, -1, -1, 1, 1, 1, 1, 1]);
      expect(tauHistogram(taus[0]!.values).map((c, i) => [i, c] as const).filter(([, c]) => c > 0)).to.deep.equal([[0, 4], [39, 5]]);
      const chart = renderSweepHtml(data, agents, taus).match(/<svg[^>]*aria-label="distribution of Kendall's tau per variant">[\s\S]*?<\/svg>/)![0];
      // One bar per non-empty bin: the one at -1 four fifths the height of the one at 1.
      const bars = [...chart.matchAll(/<rect x="([\d.]+)" y="[\d.]+" width="[\d.]+" height="([\d.]+)" class="hist"\/>/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
      expect(bars).to.have.length(2);
      expect(bars[0]![0]).to.be.below(bars[1]![0]);
      expect(bars[0]![1] / bars[1]![1]).to.be.closeTo(4 / 5, 0.01);
      expect(tauHistogram([-1, -0.95, 0, 0.1, 0.999, 1])).to.deep.equal(Object.assign(new Array(40).fill(0), { 0: 1, 1: 1, 20: 1, 22: 1, 39: 2 }));
    });
  });
});

