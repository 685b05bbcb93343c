// Large outputs through a pipe: every printing command finishes writing before the process exits (a pipe used to get the first 64 KiB only).
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { openapiMain } from '../../src/cli/openapi.js';
import { openServeState } from '../../src/cli/state.js';
import type { WorldFixture } from '../../src/world/fixture.js';
import { createWorld } from '../../src/world/world.js';
import { childCommand } from '../helpers/cli-build.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture;
/** A pipe's buffer: an output cut at exit was exactly this long. */
const PIPE_BUFFER = 65_536;

/** Runs the compiled CLI with standard output piped; resolves with its exit code and every byte it printed. */
function cliThroughPipe(argv: string[]): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const main = resolve(childCommand()[0]!, '..', '..', '..', 'src', 'cli', 'main.js');
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, [main, ...argv], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => chunks.push(d));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('error', fail);
    proc.on('close', (code) => done({ code, stdout: Buffer.concat(chunks), stderr }));
  });
}

/** What `write` receives, as text. */
function sink(): { stream: Writable; text: () => string } {
  let text = '';
  return { stream: new Writable({ write: (c, _e, next) => { text += String(c); next(); } }), text: () => text };
}

describe('CLI output through a pipe', function () {
  this.timeout(120_000);

  it('compsim openapi prints the whole document (over 1 MB, valid JSON, byte for byte what the command writes)', async () => {
    const r = await cliThroughPipe(['openapi']);
    expect(r.code, r.stderr).to.equal(0);
    const expected = sink();
    expect(await openapiMain([], expected.stream)).to.equal(0);
    expect(r.stdout.length).to.be.greaterThan(15 * PIPE_BUFFER);
    expect(r.stdout.length).to.equal(Buffer.byteLength(expected.text()));
    expect(JSON.parse(r.stdout.toString('utf8')).openapi).to.equal('3.1.0');
  });

  it('compsim state export and state inspect --json print whole JSON documents', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compsim-pipe-'));
    try {
      const state = await openServeState(dir, { info: () => {}, warn: () => {} });
      const world = await createWorld({ fixture: DEMO }, state);
      // A day of five-minute snapshots makes a dump far larger than a pipe's buffer.
      await world.advance(24 * 3_600_000);
      const dump = JSON.stringify(await world.dump());
      await state.close();
      const exported = await cliThroughPipe(['state', 'export', dir]);
      expect(exported.code, exported.stderr).to.equal(0);
      expect(exported.stdout.length).to.be.greaterThan(2 * PIPE_BUFFER);
      expect(JSON.parse(exported.stdout.toString('utf8'))).to.deep.equal({ success: true, ...JSON.parse(dump) });
      const inspected = await cliThroughPipe(['state', 'inspect', dir, '--json']);
      expect(inspected.code, inspected.stderr).to.equal(0);
      expect(JSON.parse(inspected.stdout.toString('utf8'))).to.be.an('object');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compsim run --json prints the whole result, a failure holding a large answer included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compsim-pipe-'));
    try {
      // A day of the demo world, then a dump with a wrong expectation: the failure carries the whole answer.
      const file = join(dir, 'big.scenario.json');
      const steps = [{ advance: '1d' }, { call: 'GET /api/sim/dump', as: 'admin', expect: { status: 201 } }];
      writeFileSync(file, JSON.stringify({ seed: 1, startTime: '2025-06-02T12:00:00Z', world: { fixture: DEMO }, steps }));
      const r = await cliThroughPipe(['run', file, '--json']);
      expect(r.code, r.stderr).to.equal(1);
      expect(r.stdout.length).to.be.greaterThan(2 * PIPE_BUFFER);
      const result = JSON.parse(r.stdout.toString('utf8')) as { format: string; ok: boolean; scenarios: unknown[] };
      expect(result).to.include({ format: 'compsim-run', ok: false });
      expect(result.scenarios).to.have.length(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('compsim replay --json prints every run\'s whole outcome (the replay and its counterfactual)', async () => {
    // A ranking every minute over the demo input's two hours, twice: more than a pipe's buffer.
    const r = await cliThroughPipe(['replay', '--trades', 'fixtures/replay/trades.csv', '--prices', 'fixtures/replay/tape.json', '--interval', '1m', '--vs-slippage', 'none', '--json']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout.length).to.be.greaterThan(PIPE_BUFFER);
    const runs = JSON.parse(r.stdout.toString('utf8')) as { label: string; leaderboards: unknown[] }[];
    expect(runs.map((x) => x.label)).to.have.length(2);
    expect(runs[0]!.leaderboards.length).to.be.greaterThan(100);
  });
});
