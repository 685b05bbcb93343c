// `compsim run --workers`, `--shard` and `--junit`: the same per-file hashes as a serial run, shards that cover the suite exactly once, well-formed JUnit XML.
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runMain, shardKey } from '../../src/cli/run.js';
import { pickShard } from '../../src/cli/shard.js';
import { renderJunit, xmlEscape } from '../../src/cli/junit.js';
import { findScenarioFiles } from '../../src/harness/files.js';
import { parseXml, type XmlElement } from '../helpers/xml.js';
import { ROOT, scratch } from '../helpers/paths.js';
import { captured } from '../helpers/cli-io.js';

const runHere = (args: string[]) => captured(runMain, args);

type Row = { file: string; ok: boolean; hash: string; requests: number };
const rows = (json: string): Row[] => (JSON.parse(json) as { scenarios: Row[] }).scenarios.map(({ file, ok, hash, requests }) => ({ file, ok, hash, requests }));
const doc = (steps: unknown[]) => JSON.stringify({ seed: 1, startTime: '2025-06-02T12:00:00Z', world: {}, steps });
const SUITE = ['scenarios/competitions', 'scenarios/trading', 'scenarios/legacy', 'scenarios/health'];

describe('compsim run --workers, --shard, --junit', function () {
  this.timeout(300_000);
  let serial: Row[];

  before(async () => {
    const r = await runHere([...SUITE, '--workers', '1', '--json']);
    expect(r.code, r.stderr).to.equal(0);
    serial = rows(r.stdout);
    expect(serial.map((s) => s.file)).to.deep.equal(findScenarioFiles(SUITE));
  });

  it('gives the same per-file results and hashes on 2 and 3 workers as one after another, listed in file order', async () => {
    for (const workers of ['2', '3']) {
      const r = await runHere([...SUITE, '--workers', workers, '--json']);
      expect(r.code, r.stderr).to.equal(0);
      expect(rows(r.stdout), `--workers ${workers}`).to.deep.equal(serial);
      // The progress lines come out in file order too.
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('✓ ')).map((l) => l.slice(2).split('  ')[0]);
      expect(lines).to.deep.equal(serial.map((s) => s.file));
    }
  });

  it('splits the suite into shards that together run every file exactly once, with the serial hashes', async () => {
    const seen: Row[] = [];
    for (let i = 1; i <= 3; i++) {
      const r = await runHere([...SUITE, '--shard', `${i}/3`, '--json']);
      expect(r.code, r.stderr).to.equal(0);
      const got = rows(r.stdout);
      expect(r.stderr).to.include(`shard ${i}/3: ${got.length} of ${serial.length} scenario files`);
      expect(got.length).to.be.within(Math.floor(serial.length / 3), Math.ceil(serial.length / 3));
      seen.push(...got);
    }
    expect([...seen].sort((a, b) => (a.file < b.file ? -1 : 1))).to.deep.equal([...serial].sort((a, b) => (a.file < b.file ? -1 : 1)));
  });

  it('deals files to shards by sorted path: every n partitions the list, whatever order the files come in', () => {
    const files = findScenarioFiles(['scenarios']);
    const reversed = [...files].reverse();
    for (let n = 1; n <= 7; n++) {
      const parts = Array.from({ length: n }, (_, i) => pickShard(files, { index: i + 1, count: n }, shardKey));
      expect(parts.flat().sort(), `n=${n}`).to.deep.equal([...files].sort());
      for (const [i, part] of parts.entries()) {
        expect(part.length).to.be.within(Math.floor(files.length / n), Math.ceil(files.length / n));
        expect(pickShard(reversed, { index: i + 1, count: n }, shardKey).sort()).to.deep.equal([...part].sort());
        // Each shard keeps the files' own order.
        expect(part).to.deep.equal(files.filter((f) => part.includes(f)));
      }
    }
    expect(shardKey('./scenarios\\a/./b.scenario.json')).to.equal('scenarios/a/b.scenario.json');
  });

  it('an empty shard runs nothing and passes', async () => {
    const dir = scratch('run-shard-empty');
    writeFileSync(join(dir, 'only.scenario.json'), doc([{ call: 'GET /api/health' }]));
    const junit = join(dir, 'out', 'junit.xml');
    const r = await runHere([relative(ROOT, dir), '--shard', '2/2', '--junit', relative(ROOT, junit)]);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.include('shard 2/2: 0 of 1 scenario files').and.include('0 scenarios: 0 passed, 0 failed');
    const root = parseXml(readFileSync(junit, 'utf8'));
    expect(root.attrs).to.include({ tests: '0', failures: '0', errors: '0' });
  });

  it('--junit writes testsuites/testsuite/testcase XML with failures carrying the step, the request and the diff, escaped', async () => {
    const dir = scratch('run-junit');
    const weird = 'say <"hi"> & \'bye\' ]]> \u0001';
    writeFileSync(join(dir, 'a-pass.scenario.json'), doc([{ call: 'GET /api/health' }]));
    writeFileSync(join(dir, 'b&<fail>.scenario.json'), doc([
      { call: 'GET /api/health' },
      { call: 'POST /api/admin/users', as: 'admin', body: { walletAddress: weird }, expect: { status: 201, body: { success: true } } },
    ]));
    writeFileSync(join(dir, 'c-invalid.scenario.json'), doc([{ call: 'GET /api/health', expct: {} }]));
    const junit = join(dir, 'junit.xml');
    const r = await runHere([relative(ROOT, dir), '--workers', '2', '--junit', relative(ROOT, junit)]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include(`junit: ${relative(ROOT, junit)}`);
    const root = parseXml(readFileSync(junit, 'utf8'));
    // The usual JUnit shape: testsuites > testsuite > testcase, counts as attributes.
    const num = (e: XmlElement, a: string) => {
      expect(e.attrs[a], `${e.name}@${a}`).to.match(/^\d+(\.\d+)?$/);
      return Number(e.attrs[a]);
    };
    expect(root.name).to.equal('testsuites');
    expect([num(root, 'tests'), num(root, 'failures'), num(root, 'errors')]).to.deep.equal([3, 1, 1]);
    num(root, 'time');
    const suites = root.children.filter((c) => c.name === 'testsuite');
    expect(suites).to.have.length(1);
    const suite = suites[0]!;
    expect(suite.attrs.name).to.equal('compsim run');
    expect([num(suite, 'tests'), num(suite, 'failures'), num(suite, 'errors'), num(suite, 'skipped')]).to.deep.equal([3, 1, 1, 0]);
    const cases = suite.children.filter((c) => c.name === 'testcase');
    const base = relative(ROOT, dir);
    expect(cases.map((c) => c.attrs.name)).to.deep.equal([`${base}/a-pass.scenario.json`, `${base}/b&<fail>.scenario.json`, `${base}/c-invalid.scenario.json`]);
    for (const c of cases) {
      expect(c.attrs.classname).to.equal(base.split('/').join('.'));
      num(c, 'time');
    }
    expect(cases[0]!.children.map((c) => c.name)).to.deep.equal(['properties', 'system-out']);
    const failure = cases[1]!.children.find((c) => c.name === 'failure')!;
    expect(failure.attrs.message).to.equal('at steps[1] (call): status: expected status 201, got 400; body.success: expected true, got false');
    expect(failure.attrs.type).to.equal('call');
    // The request body reads back exactly as the runner prints it (JSON, so the control character is \u0001).
    expect(failure.text).to.include(`request: POST /api/admin/users as admin\n  {\n    "walletAddress": ${JSON.stringify(weird)}\n  }`);
    expect(failure.text).to.include('response: 400\n- expected  + actual\n  {\n-   "success": true\n+   "success": false\n  }');
    const error = cases[2]!.children.find((c) => c.name === 'error')!;
    expect(error.attrs).to.include({ message: 'invalid scenario file', type: 'invalid' });
    expect(error.text).to.equal(`${base}/c-invalid.scenario.json: steps[0] (call): unknown key 'expct'`);
    const props = (c: XmlElement) => Object.fromEntries(c.children.find((x) => x.name === 'properties')!.children.map((p) => [p.attrs.name, p.attrs.value]));
    expect(props(cases[0]!).seed).to.equal('1');
    expect(props(cases[0]!).sha256).to.match(/^[0-9a-f]{64}$/);
  });

  it('escapes XML text: markup characters as entities, characters XML cannot hold as U+FFFD, line breaks in attributes kept', () => {
    expect(xmlEscape('a<b>&"c"\'d\' ]]> \u0001\u001f\ud800 \ud83d\ude00')).to.equal('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos; ]]&gt; \ufffd\ufffd\ufffd \ud83d\ude00');
    const xml = renderJunit('s"<', [{ result: { file: 'x/y.scenario.json', name: 'y', seed: 1, ok: false, steps: 1, stepsPassed: 0, requests: 1, hash: 'h', failure: { at: 'steps[0]', index: 0, verb: 'call', message: 'line 1\nline 2\t<x>' } }, ms: 1500 }], 'in-process');
    const root = parseXml(xml);
    expect(root.attrs).to.include({ name: 's"<', time: '1.500' });
    expect(root.children[0]!.children[1]!.children.find((c) => c.name === 'failure')!.attrs.message).to.equal('at steps[0] (call): line 1\nline 2\t<x>');
  });

  it('refuses bad --shard and --workers values, and --workers above 1 with --target-world (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['--shard', '0/3'], "--shard must be i/n with 1 <= i <= n (e.g. 1/4), got '0/3'"],
      [['--shard', '4/3'], "--shard must be i/n with 1 <= i <= n (e.g. 1/4), got '4/3'"],
      [['--shard', 'half'], "--shard must be i/n with 1 <= i <= n (e.g. 1/4), got 'half'"],
      [['--workers', '0'], "--workers must be an integer 1-256, got '0'"],
      [['--workers', 'many'], "--workers must be an integer 1-256, got 'many'"],
      [['--workers', '2', '--target', 'http://127.0.0.1:1', '--admin-key', 'k', '--target-world', 'default'], '--workers above 1 does not go with --target-world (every file resets that one world)'],
    ];
    for (const [args, message] of cases) {
      const r = await runHere(['scenarios/health', ...args]);
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.stderr).to.match(new RegExp(`^compsim run: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n\nUsage: compsim run`));
    }
  });
});
