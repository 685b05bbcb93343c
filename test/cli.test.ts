// compsim serve as a child process: banner with working keys, HTTP calls, clean stop on SIGINT, --sim-api and --rate-limits; bad options exit 2.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parseServeArgs, UsageError } from '../src/cli/args.js';

const ROOT = join(import.meta.dirname, '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

function waitFor(child: ChildProcess, output: () => string, re: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = output().match(re);
      if (m) resolve(m);
    };
    child.stdout!.on('data', check);
    child.on('exit', () => reject(new Error(`exited before ${re}: ${output()}`)));
    check();
  });
}

describe('compsim serve (child process)', function () {
  this.timeout(30_000);

  it('prints the URL and keys of the demo world, serves them, and stops cleanly on SIGINT', async () => {
    const p = run(['serve', '--port', '0', '--world', 'fixtures/worlds/demo.json', '--log-level', 'silent']);
    const [, url] = await waitFor(p.child, p.output, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitFor(p.child, p.output, /try:\n[\s\S]*curl -H/);
    const admin = p.output().match(/admin key: ([0-9a-f]{16}_[0-9a-f]{16})/)![1]!;
    const agentKey = p.output().match(/agent Momentum Max \(@momentum_max\): ([0-9a-f_]{33})/)![1]!;
    expect(p.output()).to.match(/competition Demo Spring Cup \[active\]/);
    expect(p.output()).to.match(/competition Demo Summer Open \[pending\]/);
    const health = await fetch(`${url}/api/health`);
    expect(health.status).to.equal(200);
    const price = await (await fetch(`${url}/api/price?token=So11111111111111111111111111111111111111112`, { headers: { authorization: `Bearer ${agentKey}` } })).json();
    expect(price).to.include({ success: true, symbol: 'SOL', specificChain: 'svm' });
    const agents = await (await fetch(`${url}/api/admin/agents`, { headers: { authorization: `Bearer ${admin}` } })).json() as { agents: unknown[] };
    expect(agents.agents).to.have.length(3);
    p.child.kill('SIGINT');
    expect(await p.exited).to.equal(0);
    expect(p.output()).to.match(/SIGINT received, stopping/);
  });

  it('serves /api/sim/* only with --sim-api, and applies --rate-limits upstream', async () => {
    const ADMIN = '0123456789abcdef_fedcba9876543210';
    const auth = { headers: { authorization: `Bearer ${ADMIN}` } };
    const off = run(['serve', '--port', '0', '--admin-key', ADMIN, '--log-level', 'silent']);
    const [, offUrl] = await waitFor(off.child, off.output, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const missing = await fetch(`${offUrl}/api/sim/clock`, auth);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ success: false, error: 'Cannot GET /api/sim/clock' });
    off.child.kill('SIGINT');
    expect(await off.exited).to.equal(0);

    const on = run(['serve', '--port', '0', '--admin-key', ADMIN, '--sim-api', '--rate-limits', 'upstream', '--log-level', 'silent']);
    const [, url] = await waitFor(on.child, on.output, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect(on.output()).to.include(`simulation control API: ${url}/api/sim/*`);
    const clock = await fetch(`${url}/api/sim/clock`, auth);
    expect(await clock.json()).to.deep.equal({ success: true, now: '2025-01-01T00:00:00.000Z' });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await fetch(`${url}/api/agents`)).status);
    expect(statuses.slice(0, 30).every((st) => st === 200)).to.equal(true);
    expect(statuses[30]).to.equal(429);
    on.child.kill('SIGINT');
    expect(await on.exited).to.equal(0);
  });

  it('exits 2 with a clear message on a bad option', async () => {
    const p = run(['serve', '--clock', 'sundial']);
    expect(await p.exited).to.equal(2);
    expect(p.output()).to.include("--clock must be manual or system, got 'sundial'");
  });
});

describe('compsim serve options', () => {
  it('parses every option with defaults', () => {
    expect(parseServeArgs([])).to.deep.equal({ port: 3000, host: '127.0.0.1', clock: 'manual', logLevel: 'info' });
    expect(parseServeArgs(['--port=0', '--host', '0.0.0.0', '--seed', '7', '--clock', 'system', '--world', 'w.json',
      '--admin-key', '0123456789abcdef_0123456789abcdef', '--log-level', 'warn'])).to.deep.equal({
      port: 0, host: '0.0.0.0', seed: 7, clock: 'system', world: 'w.json', adminKey: '0123456789abcdef_0123456789abcdef', logLevel: 'warn',
    });
    expect(parseServeArgs(['--seed', 'demo']).seed).to.equal('demo');
    expect(parseServeArgs(['--sim-api', '--rate-limits', 'upstream'])).to.include({ simApi: true, rateLimits: 'upstream' });
    expect(parseServeArgs(['--rate-limits=off']).rateLimits).to.equal('off');
  });

  it('rejects bad values and unknown options', () => {
    for (const args of [['--port', '70000'], ['--port'], ['--admin-key', 'short'], ['--log-level', 'loud'], ['--frobnicate'],
      ['--rate-limits', 'lots'], ['--rate-limits'], ['--sim-api=yes']]) {
      expect(() => parseServeArgs(args), args.join(' ')).to.throw(UsageError);
    }
  });
});
