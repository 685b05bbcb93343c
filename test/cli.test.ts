// compsim serve as a child process: banner with working keys, HTTP calls, clean stop on SIGINT; bad options exit 2.
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
  });

  it('rejects bad values and unknown options', () => {
    for (const args of [['--port', '70000'], ['--port'], ['--admin-key', 'short'], ['--log-level', 'loud'], ['--frobnicate']]) {
      expect(() => parseServeArgs(args), args.join(' ')).to.throw(UsageError);
    }
  });
});
