// `compsim run` in-process: options, the progress bar, results.
import { expect } from 'chai';
import { basename, join } from 'node:path';
import { logFileName, parseRunArgs } from '../../src/cli/run.js';
import { Progress } from '../../src/cli/run-output.js';
import { runResult } from '../../src/harness/report.js';
import type { ScenarioResult } from '../../src/harness/runner.js';
import { UsageError } from '../../src/cli/args.js';

describe('compsim run options', () => {
  it('parses paths and options', () => {
    expect(parseRunArgs(['a', 'b', '--json', '--report=out'])).to.deep.equal({ paths: ['a', 'b'], json: true, report: 'out' });
    expect(parseRunArgs(['a', '--target', 'http://h:1', '--admin-key', 'k'])).to.deep.equal({ paths: ['a'], json: false, target: 'http://h:1', adminKey: 'k' });
  });

  it('rejects missing paths, bad targets, a lone admin key and unknown options', () => {
    for (const args of [[], ['a', '--target', 'ftp://x'], ['a', '--target', 'nope'], ['a', '--admin-key', 'k'], ['a', '--report'], ['a', '--json=1'], ['a', '-x', '--zzz']]) {
      expect(() => parseRunArgs(args), args.join(' ')).to.throw(UsageError);
    }
  });
});

describe('compsim run progress', () => {
  const result: ScenarioResult = { file: 'a.scenario.json', name: 'a', seed: 1, ok: true, steps: 2, stepsPassed: 2, requests: 3, hash: 'f'.repeat(64), log: '' };

  it('draws a bar on a terminal and clears it before each result line', () => {
    let out = '';
    const p = new Progress({ write: (s: string) => (out += s), isTTY: true }, 2);
    p.begin(0, 'a.scenario.json');
    p.onEvent({ kind: 'step', index: 0, total: 2, verb: 'call', label: 'GET /api/health' });
    p.end(result);
    p.finish();
    expect(out).to.match(/^\r\x1b\[2K\[░{24}\] 1\/2 a\.scenario\.json/);
    expect(out).to.include('\r\x1b[2K\x1b[32m✓\x1b[39m a.scenario.json');
  });

  it('fills the bar by finished scenarios when several run at once and start out of order', () => {
    let out = '';
    const p = new Progress({ write: (s: string) => (out += s), isTTY: true }, 4);
    p.begin(3, 'd.scenario.json');
    p.begin(0, 'a.scenario.json');
    expect(out.split('\r\x1b[2K').filter((x) => x !== '')).to.deep.equal([`[${'░'.repeat(24)}] 1/4 d.scenario.json`, `[${'░'.repeat(24)}] 1/4 a.scenario.json`]);
    p.end(result, 12);
    out = '';
    p.begin(1, 'b.scenario.json');
    expect(out).to.equal(`\r\x1b[2K[${'█'.repeat(6)}${'░'.repeat(18)}] 2/4 b.scenario.json`);
  });

  it('prints plain lines elsewhere', () => {
    let out = '';
    const p = new Progress({ write: (s: string) => (out += s) }, 1);
    p.begin(0, 'a.scenario.json');
    p.onEvent({ kind: 'step', index: 0, total: 2, verb: 'call', label: 'GET /api/health' });
    p.end(result);
    p.finish();
    expect(out).to.match(/^✓ a\.scenario\.json {2}2\/2 steps · 3 requests · \d+ ms · sha256 f{64}\n$/);
  });
});

describe('compsim run results', () => {
  it('name log files after the scenario path, never as hidden files', () => {
    expect(logFileName('scenarios/simulation/snapshots-leaderboard.scenario.json')).to.equal('scenarios__simulation__snapshots-leaderboard.jsonl');
    expect(logFileName('../week.scenario.json')).to.equal('up__week.jsonl');
    expect(logFileName(join('..', basename(process.cwd()), 'x', 'week.scenario.json'))).to.equal('x__week.jsonl');
    expect(logFileName('./.hidden one.scenario.json')).to.equal('hidden__one.jsonl');
  });

  it('leave the log out of the JSON result without building its text', () => {
    let reads = 0;
    const result = {
      file: 'a.scenario.json', name: 'a', seed: 1, ok: true, steps: 1, stepsPassed: 1, requests: 1, hash: 'f'.repeat(64),
      get log() {
        reads += 1;
        return 'line\n';
      },
    } as ScenarioResult;
    const run = runResult('in-process', [result]);
    expect(run.scenarios).to.deep.equal([{ file: 'a.scenario.json', name: 'a', seed: 1, ok: true, steps: 1, stepsPassed: 1, requests: 1, hash: 'f'.repeat(64) }]);
    expect(reads).to.equal(0);
  });
});
