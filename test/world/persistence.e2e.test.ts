// compsim serve --state across restarts: scenarios give the same response log through a kill -9; the lock, versions and the state commands.
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { scanFrames } from '../../src/adapters/file/frame.js';
import { listStateFiles } from '../../src/adapters/file/state-files.js';
import { runScenario } from '../../src/harness/runner.js';
import { loadScenario } from '../../src/harness/schema.js';
import { httpTarget, type Target, type TargetRequest } from '../../src/harness/targets.js';
import { parseServeArgs, UsageError } from '../../src/cli/args.js';
import { stateMain } from '../../src/cli/state.js';
import { CliPool, type Child } from '../helpers/cli-pool.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ADMIN = '0123456789abcdef_fedcba9876543210';
const auth = { headers: { authorization: `Bearer ${ADMIN}` } };
const serveArgs = (dir: string) => ['--port', '0', '--state', dir, '--sim-api', '--admin-key', ADMIN, '--log-level', 'warn'];

/** Scenarios covering the clock and scheduler, the RNG (slippage, ids), named snapshots, price overrides and faults. */
const SCENARIOS: [string, (req: TargetRequest, n: number, total: number) => boolean][] = [
  ['scenarios/simulation/fork-and-compare.scenario.json', (req) => /^\/api\/sim\/snapshots\/[^/]+\/restore$/.test(req.path)],
  ['scenarios/simulation/fault-injection.scenario.json', (_req, n, total) => n === Math.ceil(total / 2)],
  ['scenarios/competitions/scheduled.scenario.json', (_req, n, total) => n === Math.ceil(total / 2)],
  ['scenarios/simulation/snapshots-leaderboard.scenario.json', (_req, n, total) => n === Math.ceil(total / 3)],
];

/** `compsim state ...argv` in this process: exit code and output. */
async function state(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = { write: (t: string) => (out += t) };
  const code = await stateMain(argv, { out: sink, err: sink });
  return { code, out };
}

describe('compsim serve --state across restarts', function () {
  this.timeout(120_000);
  let pool: CliPool;
  const dirs: string[] = [];
  const running: Child[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'compsim-persist-'));
    dirs.push(d);
    return d;
  };
  const serve = async (dir: string) => {
    const s = await pool.serve(serveArgs(dir));
    running.push(s.child);
    return s;
  };
  const kill9 = async (c: Child) => {
    c.proc.kill('SIGKILL');
    await c.exited;
  };

  before(() => { pool = new CliPool(); });
  after(async () => {
    for (const c of running) c.proc.kill('SIGKILL');
    await pool.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('gives a scenario interrupted by kill -9 and a restart the same response log as an uninterrupted run', async () => {
    const dir = fresh();
    let srv = await serve(dir);
    for (const [file, restartBefore] of SCENARIOS) {
      const sc = loadScenario(join(ROOT, file));
      const base = await runScenario(sc, httpTarget(srv.url, { adminKey: ADMIN }));
      expect(base.ok, `${file}: ${JSON.stringify(base.failure)}`).to.equal(true);
      let n = 0;
      let restarts = 0;
      const target: Target = {
        label: 'restarting',
        begin: async () => ({ adminKey: ADMIN }),
        send: async (req) => {
          n += 1;
          if (restarts === 0 && restartBefore(req, n, base.requests)) {
            await kill9(srv.child);
            srv = await serve(dir);
            restarts += 1;
          }
          return httpTarget(srv.url, { adminKey: ADMIN }).send(req);
        },
        close: async () => undefined,
      };
      const again = await runScenario(sc, target);
      expect(restarts, file).to.equal(1);
      expect(again.log, file).to.equal(base.log);
    }
    await kill9(srv.child);
  });

  it('refuses a second server on the same directory (exit 1, naming the holder)', async () => {
    const dir = fresh();
    const srv = await serve(dir);
    const second = await pool.run(['serve', ...serveArgs(dir)]);
    expect(second.code).to.equal(1);
    expect(second.out).to.include(`compsim: state directory ${dir} is in use by process ${srv.child.proc.pid}`);
    await kill9(srv.child);
  });

  it('inspects, exports and compacts a directory; export equals GET /api/sim/dump and a restart keeps it', async () => {
    const dir = fresh();
    const srv = await serve(dir);
    await fetch(`${srv.url}/api/admin/users`, { method: 'POST', headers: { ...auth.headers, 'content-type': 'application/json' }, body: JSON.stringify({ walletAddress: `0x${'ab'.repeat(20)}`, agentName: 'Kept' }) });
    await fetch(`${srv.url}/api/sim/clock`, { method: 'POST', headers: { ...auth.headers, 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: 90_000 }) });
    const dump = await (await fetch(`${srv.url}/api/sim/dump`, auth)).json();
    expect((await state('compact', dir)).out).to.include(`state directory ${dir} is in use`);
    srv.child.proc.kill('SIGINT');
    expect(await srv.child.exited).to.equal(0);

    const inspect = await state('inspect', dir);
    expect(inspect.code, inspect.out).to.equal(0);
    expect(inspect.out).to.match(/format\s+compsim-state, version 1/);
    expect(inspect.out).to.match(/lock\s+free/);
    expect(inspect.out).to.match(/clock\s+2025-01-01T00:01:30\.000Z \(virtual\)/);
    expect(inspect.out).to.match(/rows\s+.*agents 1/);
    const exported = await state('export', dir);
    expect(JSON.parse(exported.out)).to.deep.equal(dump);

    const compact = await state('compact', dir);
    expect(compact.code, compact.out).to.equal(0);
    expect(listStateFiles(dir).snapshots).to.have.length(1);
    expect((await state('inspect', dir)).out).to.match(/snapshot\s+snapshot-\d+\.snap: records 1\.\.\d+/);
    const again = await serve(dir);
    expect(await (await fetch(`${again.url}/api/sim/dump`, auth)).json()).to.deep.equal(dump);
    await kill9(again.child);
  });

  it('refuses a directory of a newer format version and a damaged snapshot (exit 1, clear message)', async () => {
    const dir = fresh();
    const srv = await serve(dir);
    await kill9(srv.child);
    expect((await state('compact', dir)).code).to.equal(0);

    const newer = fresh();
    cpSync(dir, newer, { recursive: true });
    const journal = join(newer, listStateFiles(newer).journals[0]!.name);
    const buf = readFileSync(journal);
    buf.writeUInt16LE(7, 4);
    buf.writeUInt32LE(zlib.crc32(buf.subarray(0, 16)) >>> 0, 16);
    writeFileSync(journal, buf);
    const refused = await pool.run(['serve', ...serveArgs(newer)]);
    expect(refused.code).to.equal(1);
    expect(refused.out).to.include(`state file ${journal} was written by a newer compsim (format version 7; this build reads version 1)`);

    const snap = join(dir, listStateFiles(dir).snapshots[0]!.name);
    const sbuf = readFileSync(snap);
    const { frames } = scanFrames(sbuf, snap, false);
    sbuf[frames[2]!.offset + 25]! ^= 0x04;
    writeFileSync(snap, sbuf);
    const corrupt = await pool.run(['serve', ...serveArgs(dir)]);
    expect(corrupt.code).to.equal(1);
    expect(corrupt.out).to.include(`corrupt state file ${snap} at byte offset ${frames[2]!.offset}: payload checksum mismatch`);
    expect((await state('inspect', dir)).code).to.equal(1);
  });

  it('refuses a journal cut short of what it acknowledged (exit 1), which state inspect still reads', async () => {
    const dir = fresh();
    const srv = await serve(dir);
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${srv.url}/api/sim/clock`, { method: 'POST', headers: { ...auth.headers, 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: 60_000 }) });
      expect(res.status).to.equal(200);
    }
    await kill9(srv.child);
    const journal = join(dir, listStateFiles(dir).journals.at(-1)!.name);
    truncateSync(journal, Math.floor(statSync(journal).size / 2));
    const refused = await pool.run(['serve', ...serveArgs(dir)]);
    expect(refused.code, refused.out).to.equal(1);
    expect(refused.out).to.match(/the journal ends at record \d+, but records up to \d+ were acknowledged: records \d+\.\.\d+ are missing \(the file was truncated\)/);
    expect(refused.out).to.include(`corrupt state file ${journal} at byte offset`).and.include(`Run \`compsim state inspect ${dir}\``);
    const inspect = await state('inspect', dir);
    expect(inspect.code, inspect.out).to.equal(0);
    expect(inspect.out).to.match(/MISSING\s+.*records \d+\.\.\d+ are missing/);
  });
});

describe('compsim serve --state options', () => {
  it('parses --state and --state-compact-mb', () => {
    expect(parseServeArgs(['--state', 'data/world', '--state-compact-mb=0.5'])).to.include({ state: 'data/world', stateCompactMb: 0.5 });
    expect(parseServeArgs([])).to.not.have.property('state');
  });

  it('rejects a missing directory and a bad compaction size (usage errors)', () => {
    for (const args of [['--state'], ['--state-compact-mb', '0'], ['--state-compact-mb', 'lots']]) {
      expect(() => parseServeArgs(args), args.join(' ')).to.throw(UsageError);
    }
  });

  it('answers compsim state misuse with exit code 2 and a missing directory with 1', async () => {
    expect((await state('inspect')).code).to.equal(2);
    expect((await state('frobnicate', '/tmp')).code).to.equal(2);
    const missing = await state('inspect', join(tmpdir(), 'compsim-no-such-dir'));
    expect(missing.code).to.equal(1);
    expect(missing.out).to.include('no state directory at');
  });
});
