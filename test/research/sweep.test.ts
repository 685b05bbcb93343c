// compsim sweep: seed and --vary parsing, Kendall's tau, run lists, the report's layout.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { renderSweepHtml, tauHistogram } from '../../src/research/sweep-report.js';
import { checkDistinctKeys, checkRunCount, MAX_RUNS, parseSeeds, parseVary, SweepInputError, variantAt, variants } from '../../src/research/sweep-input.js';
import { kendallTau, quantile, summarise, type SweepData, type SweepRun } from '../../src/research/sweep-stats.js';
import { SweepRunList } from '../../src/research/sweep.js';
import { pickShard } from '../../src/cli/shard.js';
import { OUTPUT as DAY_FILE, render as renderDay } from '../../scenarios/generators/day-random-walk.js';

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
      // The library refuses a key varied twice as the command does (runSweep checks it before anything runs).
      expect(thrown(() => checkDistinctKeys([parseVary('slippage=none'), parseVary('maxTradePercentage=10'), parseVary('slippage=upstream')]))).to.equal('--vary slippage is given twice');
      expect(() => checkDistinctKeys([parseVary('slippage=none'), parseVary('maxTradePercentage=10')])).to.not.throw();
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

