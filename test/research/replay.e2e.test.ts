// compsim replay as a child process: reproducible output files, a scenario compsim run passes, exit codes.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseReplayArgs } from '../../src/cli/replay.js';
import { UsageError } from '../../src/cli/args.js';
import { runToEnd } from '../harness/child.js';
import { ROOT, scratch } from '../helpers/paths.js';
import { inputs } from '../helpers/replay-inputs.js';

describe('compsim replay (child processes)', function () {
  this.timeout(120_000);

  it('is reproducible, writes its files under its own title, and its scenario runs with compsim run', async () => {
    const dir = scratch('replay-out');
    const f = inputs(dir);
    const out = join(dir, 'out');
    const base = ['replay', '--trades', relative(ROOT, f.trades), '--prices', relative(ROOT, f.tape), '--balances', relative(ROOT, f.balances), '--seed', '7'];
    const first = await runToEnd([...base, '--out', relative(ROOT, out)]);
    expect(first.code, first.stderr).to.equal(0);
    const hash = /outcome sha256 ([0-9a-f]{64})/.exec(first.stdout)![1]!;
    expect(first.stdout).to.include('refused trades:');
    expect((await runToEnd(base)).stdout).to.include(hash);
    for (const file of ['leaderboards.csv', 'balances.csv', 'trades.csv', 'outcome.json', 'report.html', 'summary.md']) {
      expect(readFileSync(join(out, file), 'utf8').length, file).to.be.greaterThan(0);
    }
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).to.include('<svg');
    expect(html).to.include(`<title>compsim replay of ${relative(ROOT, f.trades)}</title>`);
    expect(html).to.not.include('compsim run');
    expect(html).to.not.include('scenarios passed');
    expect(readFileSync(join(out, 'summary.md'), 'utf8').split('\n').slice(0, 3)).to.deep.equal([`# compsim replay of ${relative(ROOT, f.trades)}`, '', '## Replay (replay)']);
    expect(JSON.parse(readFileSync(join(out, 'outcome.json'), 'utf8')).hash).to.equal(hash);
    const again = await runToEnd(['run', relative(ROOT, join(out, 'replay.scenario.json'))]);
    expect(again.code, again.stdout).to.equal(0);
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
