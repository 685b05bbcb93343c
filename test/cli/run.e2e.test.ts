// compsim run as a child process: exit codes, output, --json, --report, and the same hashes against a served child.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runMain } from '../../src/cli/run.js';
import { runToEnd, serveSim, SERVE_KEY } from '../harness/child.js';
import { ROOT, scratch } from '../helpers/paths.js';
import { captured } from '../helpers/cli-io.js';

const doc = (steps: unknown[]) => JSON.stringify({ seed: 1, startTime: '2025-06-02T12:00:00Z', world: {}, steps });

/** `compsim run` in this process with captured output (same code path as the CLI after argv). */
const runHere = (args: string[]) => captured(runMain, args);

describe('compsim run', function () {
  this.timeout(60_000);

  it('exits 0 and prints one line per scenario with its log hash', async () => {
    const r = await runToEnd(['run', 'scenarios/health', 'scenarios/price/price.scenario.json']);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.match(/✓ scenarios\/health\/health\.scenario\.json {2}5\/5 steps · 6 requests · \d+ ms · sha256 [0-9a-f]{64}/);
    expect(r.stdout).to.include('✓ scenarios/price/price.scenario.json');
    expect(r.stdout).to.include('2 scenarios: 2 passed, 0 failed (target: in-process)');
    expect(r.stdout).to.not.include('\r'); // no progress bar when stdout is not a terminal
  });

  it('exits 1 on a failing step and shows the scenario, the step, the request and an expected/actual diff', async () => {
    const dir = scratch('run-fail');
    writeFileSync(join(dir, 'bad.scenario.json'), doc([
      { call: 'GET /api/health', expect: { status: 200 } },
      { call: 'POST /api/admin/users', as: 'admin', body: { walletAddress: '0x123' }, expect: { status: 201, body: { success: true } } },
    ]));
    const r = await runToEnd(['run', relative(ROOT, dir)]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include('✗ test/artifacts/run-fail/bad.scenario.json  1/2 steps');
    expect(r.stdout).to.include('  at steps[1] (call): status: expected status 201, got 400; body.success: expected true, got false');
    expect(r.stdout).to.include('  request: POST /api/admin/users as admin\n    {\n      "walletAddress": "0x123"\n    }');
    expect(r.stdout).to.include('  response: 400\n  - expected  + actual\n    {\n  -   "success": true\n  +   "success": false\n    }');
    expect(r.stdout).to.include('1 scenario: 0 passed, 1 failed');
  });

  it('exits 1 on an invalid scenario file, naming the file, the step and the key, and still runs the others', async () => {
    const dir = scratch('run-invalid');
    writeFileSync(join(dir, 'a-invalid.scenario.json'), doc([{ call: 'GET /api/health', expct: {} }]));
    writeFileSync(join(dir, 'b-valid.scenario.json'), doc([{ call: 'GET /api/health' }]));
    const r = await runHere([relative(ROOT, dir)]);
    expect(r.code).to.equal(1);
    expect(r.stdout).to.include("✗ test/artifacts/run-invalid/a-invalid.scenario.json  0/0 steps · 0 requests");
    expect(r.stdout).to.include("\n  test/artifacts/run-invalid/a-invalid.scenario.json: steps[0] (call): unknown key 'expct'\n");
    expect(r.stdout).to.include('✓ test/artifacts/run-invalid/b-valid.scenario.json');
  });

  it('exits 2 on usage errors', async () => {
    const child = await runToEnd(['run', 'no/such/folder']);
    expect(child.code).to.equal(2);
    expect(child.stderr).to.match(/^compsim run: no such file or folder: no\/such\/folder\n\nUsage: compsim run/);
    for (const args of [[], ['scenarios', '--target', 'http://127.0.0.1:1'], ['src/cli']]) {
      const r = await runHere(args);
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.stderr).to.match(/^compsim run: /);
      expect(r.stderr).to.include('Usage: compsim run');
    }
    const unknown = await runHere(['scenarios', '--frobnicate']);
    expect(unknown).to.deep.include({ code: 2, stderr: "compsim run: unknown option '--frobnicate'\nRun 'compsim run --help' for the options.\n" });
    const help = await runHere(['--help']);
    expect([help.code, help.stdout.startsWith('Usage: compsim run')]).to.deep.equal([0, true]);
  });

  it('--json prints the JSON result on stdout and the progress on stderr', async () => {
    const r = await runHere(['scenarios/health', '--json']);
    expect(r.code).to.equal(0);
    const result = JSON.parse(r.stdout);
    expect(result).to.deep.include({ format: 'compsim-run', version: 1, target: 'in-process', ok: true, summary: { scenarios: 1, passed: 1, failed: 0 } });
    expect(result.scenarios[0]).to.include({ file: 'scenarios/health/health.scenario.json', name: 'health', ok: true, steps: 5, stepsPassed: 5, requests: 6 });
    expect(result.scenarios[0].hash).to.match(/^[0-9a-f]{64}$/);
    expect(r.stderr).to.include('✓ scenarios/health/health.scenario.json');
  });

  it('--report writes result.json, summary.md, report.html with an SVG chart and leaderboard, and the response logs', async () => {
    const dir = scratch('run-report');
    const r = await runHere(['scenarios/simulation/snapshots-leaderboard.scenario.json', '--report', relative(ROOT, dir)]);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    const sc = result.scenarios[0];
    expect(sc.report.problems).to.deep.equal([]);
    const cup = sc.report.competitions.find((c: { name: string }) => c.name === 'Tape Cup');
    expect(cup.series).to.have.length(3);
    expect(cup.series[0].points.length).to.be.greaterThan(40);
    expect(cup.leaderboard.map((l: { rank: number; agentName: string }) => [l.rank, l.agentName])).to.deep.equal([[1, 'bob'], [2, 'carol'], [3, 'alice']]);
    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).to.include('| scenarios/simulation/snapshots-leaderboard.scenario.json | pass | 14/14 | 18 |');
    expect(md).to.include('### Tape Cup (ended)');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).to.match(/^<!doctype html>/);
    expect(html).to.include('<svg xmlns="http://www.w3.org/2000/svg"').and.include('<polyline').and.include('<td>bob</td>');
    expect(html).to.not.match(/<script|<link|src="http/);
    const logs = readdirSync(join(dir, 'logs'));
    expect(logs).to.deep.equal(['scenarios__simulation__snapshots-leaderboard.jsonl']);
    const log = readFileSync(join(dir, 'logs', logs[0]!), 'utf8');
    expect(createHash('sha256').update(log).digest('hex')).to.equal(sc.hash);
    expect(r.stdout).to.include(`sha256 ${sc.hash}`);
  });

  it('gives the same hashes in-process and against a compsim serve --sim-api child process', async () => {
    const server = await serveSim();
    try {
      const files = ['scenarios/simulation', 'scenarios/trading'];
      const local = JSON.parse((await runHere([...files, '--json'])).stdout);
      const remote = JSON.parse((await runHere([...files, '--json', '--target', server.url, '--admin-key', SERVE_KEY])).stdout);
      expect(remote.target).to.equal(server.url);
      expect(remote.ok && local.ok).to.equal(true);
      const hashes = (r: { scenarios: { file: string; hash: string }[] }) => r.scenarios.map((s) => [s.file, s.hash]);
      expect(hashes(remote)).to.deep.equal(hashes(local));
    } finally {
      await server.stop();
    }
  });
});
