// compsim serve as a child process (banner with working keys, HTTP calls, clean stop on SIGINT, --sim-api and --rate-limits), and every command's usage errors: exit 2 with their exact messages.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseServeArgs, USAGE, UsageError } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { OPENAPI_USAGE } from '../../src/cli/openapi.js';
import { RECORD_USAGE } from '../../src/cli/record.js';
import { REPLAY_USAGE } from '../../src/cli/replay.js';
import { FORK_USAGE } from '../../src/cli/fork.js';
import { RUN_USAGE } from '../../src/cli/run.js';
import { SIGN_USAGE } from '../../src/cli/sign.js';
import { STATE_USAGE } from '../../src/cli/state.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
/** tsx's loader by URL, so a child started in another directory finds it too. */
const TSX = import.meta.resolve('tsx');

function run(args: string[], cwd = ROOT): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', TSX, MAIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
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

  it('serves /api/sim/* only with --sim-api, and applies --rate-limits upstream, --api-version and --unknown-tokens', async () => {
    const ADMIN = '0123456789abcdef_fedcba9876543210';
    const auth = { headers: { authorization: `Bearer ${ADMIN}` } };
    const off = run(['serve', '--port', '0', '--admin-key', ADMIN, '--log-level', 'silent']);
    const [, offUrl] = await waitFor(off.child, off.output, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const missing = await fetch(`${offUrl}/api/sim/clock`, auth);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ success: false, error: 'Cannot GET /api/sim/clock (the simulation control API is off: start compsim serve with --sim-api)' });
    off.child.kill('SIGINT');
    expect(await off.exited).to.equal(0);

    const on = run(['serve', '--port', '0', '--admin-key', ADMIN, '--sim-api', '--rate-limits', 'upstream', '--log-level', 'silent', '--api-version', '2025-10', '--unknown-tokens', 'synthetic']);
    const [, url] = await waitFor(on.child, on.output, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect(on.output()).to.include(`simulation control API: ${url}/api/sim/*`);
    expect(on.output()).to.include('API version: 2025-10 (team keys: the team era); unknown tokens: synthetic prices\n');
    const clock = await fetch(`${url}/api/sim/clock`, auth);
    expect(await clock.json()).to.deep.equal({ success: true, now: '2025-01-01T00:00:00.000Z' });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await fetch(`${url}/api/agents`)).status);
    expect(statuses.slice(0, 30).every((st) => st === 200)).to.equal(true);
    expect(statuses[30]).to.equal(429);
    expect(await (await fetch(`${url}/api/health/detailed`)).json()).to.include({ apiVersion: '2025-10', unknownTokens: 'synthetic' });
    on.child.kill('SIGINT');
    expect(await on.exited).to.equal(0);
  });

  it('without --admin-key prints how to get an admin key, and the printed setup call gives a working one', async () => {
    const p = run(['serve', '--port', '0', '--sim-api', '--log-level', 'silent']);
    try {
      const [, url] = await waitFor(p.child, p.output, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      await waitFor(p.child, p.output, /try:/);
      expect(p.output()).to.include('admin key: none yet. Get one (answered as admin.apiKey) with\n');
      expect(p.output()).to.include('  or restart with --admin-key <16 hex>_<16 hex>\n');
      const [, body, setupUrl] = p.output().match(/curl -X POST -H "Content-Type: application\/json" -d '(.+)' (\S+)\n/)!;
      expect(setupUrl).to.equal(`${url}/api/admin/setup`);
      const setup = await fetch(setupUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(setup.status).to.equal(201);
      const { admin } = await setup.json() as { admin: { apiKey: string } };
      const clock = await fetch(`${url}/api/sim/clock`, { headers: { authorization: `Bearer ${admin.apiKey}` } });
      expect(clock.status).to.equal(200);
      p.child.kill('SIGINT');
      expect(await p.exited).to.equal(0);
    } finally {
      p.child.kill();
    }
  });

  it('takes a bundled world by name from any directory (--world demo), and names the bundled ones for an unknown name', async () => {
    const p = run(['serve', '--port', '0', '--world', 'demo', '--log-level', 'silent'], tmpdir());
    try {
      const [, url] = await waitFor(p.child, p.output, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      await waitFor(p.child, p.output, /try:/);
      const competitions = await (await fetch(`${url}/api/competitions?status=pending`)).json() as { competitions: { name: string }[] };
      expect(competitions.competitions.map((c) => c.name)).to.deep.equal(['Demo Summer Open']);
      expect(p.output()).to.match(/agent Momentum Max \(@momentum_max\): [0-9a-f]{16}_[0-9a-f]{16}/);
      expect(p.output()).to.match(/competition Demo Spring Cup \[active\]/);
      p.child.kill('SIGINT');
      expect(await p.exited).to.equal(0);
    } finally {
      p.child.kill();
    }
    const unknown = run(['serve', '--port', '0', '--world', 'nope'], tmpdir());
    expect(await unknown.exited).to.equal(2);
    expect(unknown.output()).to.include("unknown world 'nope': not a file, nor a bundled world (demo)");
    const missing = run(['serve', '--port', '0', '--world', 'worlds/nope.json'], tmpdir());
    expect(await missing.exited).to.equal(2);
    expect(missing.output()).to.include("cannot read world file 'worlds/nope.json'");
  });

  it('--print-keys json prints one JSON line of URL, keys and ids, and --keys-file writes the same document once the server answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compsim-keys-'));
    const file = join(dir, 'keys.json');
    writeFileSync(file, '{"stale": true}');
    const p = run(['serve', '--port', '0', '--world', 'demo', '--sim-api', '--print-keys', 'json', '--keys-file', file, '--log-level', 'silent']);
    try {
      const [line] = await waitFor(p.child, p.output, /^\{.*\}\n/);
      const keys = JSON.parse(line!) as Record<string, unknown> & {
        url: string; adminKey: string; serverKey: string; agents: { name: string; handle: string; apiKey: string }[]; competitions: unknown[];
      };
      expect(JSON.parse(readFileSync(file, 'utf8'))).to.deep.equal(keys);
      expect(keys).to.deep.include({ version: '0.1.0', seed: 2025, clock: 'manual', apiVersion: 'spec', adminKey: 'f59090edab8dcdcd_b615b8d49c84bdce' });
      expect(keys.agents.map(({ name, handle, apiKey }) => ({ name, handle, apiKey }))).to.deep.equal([
        { name: 'Momentum Max', handle: 'momentum_max', apiKey: 'b98ebb472b7ef260_a2f263475061c28b' },
        { name: 'Mean Reverter', handle: 'mean_reverter', apiKey: '7240512f6de8f7e2_18f07d0b875bfef5' },
        { name: 'HODL Hannah', handle: 'hodl_hannah', apiKey: '0b78c73657a207ef_5d078692b7528eb5' },
      ]);
      expect(keys.competitions).to.deep.equal([
        { id: '4421a217-5d98-4571-8eff-0af24dd26304', name: 'Demo Spring Cup', status: 'active' },
        { id: '623550bc-3017-4b16-9c68-c1cc04bdc5f1', name: 'Demo Summer Open', status: 'pending' },
      ]);
      expect(keys.serverKey).to.match(/^[0-9a-f]{16}_[0-9a-f]{16}$/);
      expect(p.output()).to.not.include('try:');
      // The keys work as read: the server key creates a world, the admin key moves the clock.
      const created = await fetch(`${keys.url}/api/sim/worlds`, { method: 'POST', headers: { authorization: `Bearer ${keys.serverKey}` } });
      expect(created.status).to.equal(201);
      expect((await fetch(`${keys.url}/api/sim/clock`, { headers: { authorization: `Bearer ${keys.adminKey}` } })).status).to.equal(200);
      p.child.kill('SIGINT');
      expect(await p.exited).to.equal(0);
    } finally {
      p.child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
    const bad = run(['serve', '--port', '0', '--print-keys', 'yaml']);
    expect(await bad.exited).to.equal(2);
    expect(bad.output()).to.include("compsim: --print-keys must be text or json, got 'yaml'");
    const unwritable = run(['serve', '--port', '0', '--log-level', 'silent', '--keys-file', join(tmpdir(), 'compsim-no-such-dir', 'keys.json')]);
    expect(await unwritable.exited).to.equal(1);
    expect(unwritable.output()).to.match(/^compsim: cannot write --keys-file '.*keys\.json': ENOENT/m);
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
    expect(parseServeArgs(['--api-version', '2026-08', '--unknown-tokens', 'synthetic'])).to.include({ apiVersion: '2026-08', unknownTokens: 'synthetic' });
  });

  it('rejects bad values and unknown options', () => {
    for (const args of [['--port', '70000'], ['--port'], ['--admin-key', 'short'], ['--log-level', 'loud'], ['--frobnicate'],
      ['--rate-limits', 'lots'], ['--rate-limits'], ['--sim-api=yes']]) {
      expect(() => parseServeArgs(args), args.join(' ')).to.throw(UsageError);
    }
  });
});

describe('compsim usage errors (exit 2, the message and the usage text on stderr)', () => {
  /** `compsim <argv>` in this process: exit code, stdout and stderr. */
  async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const text = { stdout: '', stderr: '' };
    const into = (k: keyof typeof text) => new Writable({ write(chunk, _enc, cb) { text[k] += String(chunk); cb(); } });
    const code = await main(argv, { stdout: into('stdout'), stderr: into('stderr') });
    return { code, ...text };
  }

  const ADDR = `0x${'a'.repeat(40)}`;
  const CASES: [string, string[], string, string][] = [
    // command usage, argv, stderr prefix, message
    [USAGE, ['serve', '--port'], 'compsim', '--port needs a value'],
    [USAGE, ['serve', '--port', '--host', 'h'], 'compsim', '--port needs a value'],
    [USAGE, ['serve', '--port', '70000'], 'compsim', "--port must be an integer 0-65535, got '70000'"],
    [USAGE, ['serve', '--port=1.5'], 'compsim', "--port must be an integer 0-65535, got '1.5'"],
    [USAGE, ['serve', '--sim-api=yes'], 'compsim', '--sim-api takes no value'],
    [USAGE, ['serve', '--clock', 'sundial'], 'compsim', "--clock must be manual or system, got 'sundial'"],
    [USAGE, ['serve', '--log-level', 'loud'], 'compsim', "--log-level must be one of trace, debug, info, warn, error, fatal, silent, got 'loud'"],
    [USAGE, ['serve', '--admin-key', 'short'], 'compsim', '--admin-key must be 16 lower-case hex, "_", 16 lower-case hex'],
    [USAGE, ['serve', '--rate-limits', 'lots'], 'compsim', "--rate-limits must be upstream or off, got 'lots'"],
    [USAGE, ['serve', '--inference-signer', ADDR, '--inference-signer', 'nope'], 'compsim', "--inference-signer must be an address (0x + 40 hex), got 'nope'"],
    [USAGE, ['serve', '--state-compact-mb', '0'], 'compsim', "--state-compact-mb must be a positive number, got '0'"],
    [USAGE, ['serve', '--api-version', '2024-01'], 'compsim', "--api-version must be spec, 2026-08 or 2025-10, got '2024-01'"],
    [USAGE, ['serve', '--unknown-tokens', 'guess'], 'compsim', "--unknown-tokens must be refuse or synthetic, got 'guess'"],
    [RUN_USAGE, ['run'], 'compsim run', 'name at least one scenario file or folder'],
    [RUN_USAGE, ['run', 'a', '--report'], 'compsim run', '--report needs a value'],
    [RUN_USAGE, ['run', 'a', '--json=1'], 'compsim run', '--json takes no value'],
    [RUN_USAGE, ['run', 'a', '--target', 'nope'], 'compsim run', "--target must be a URL such as http://127.0.0.1:3000, got 'nope'"],
    [RUN_USAGE, ['run', 'a', '--target', 'ftp://x'], 'compsim run', "--target must be an http(s) URL, got 'ftp://x'"],
    [RUN_USAGE, ['run', 'a', '--target', 'http://h:1'], 'compsim run', '--target needs --admin-key (the admin key the server was started with)'],
    [RUN_USAGE, ['run', 'a', '--admin-key', 'k'], 'compsim run', '--admin-key only goes with --target'],
    [RECORD_USAGE, ['record', '--out', 'f'], 'compsim record', '--target is required'],
    [RECORD_USAGE, ['record', '--target', 'http://h'], 'compsim record', '--out is required'],
    [RECORD_USAGE, ['record', '--target', 'http://h', '--out', 'f', '--seed', '1'], 'compsim record', '--seed needs --admin-key (the reset is made with it)'],
    [RECORD_USAGE, ['record', '--target', 'http://h', '--out', 'f', '--port', 'x'], 'compsim record', "--port must be an integer 0-65535, got 'x'"],
    [RECORD_USAGE, ['record', '--out'], 'compsim record', '--out needs a value'],
    [REPLAY_USAGE, ['replay', '--trades', 'x'], 'compsim replay', '--trades and --prices (or --fork) are required'],
    [REPLAY_USAGE, ['replay', '--fork', 'no-such-dir'], 'compsim replay', "--fork: no-such-dir/fork.json: cannot read it: ENOENT: no such file or directory, open 'no-such-dir/fork.json'"],
    [FORK_USAGE, ['fork', '--from', 'http://h', '--competition', 'c'], 'compsim fork', '--from, --competition and --out are required'],
    [FORK_USAGE, ['fork', '--from', 'h', '--competition', 'c', '--out', 'd'], 'compsim fork', "--from must be a URL such as http://127.0.0.1:3000, got 'h'"],
    [FORK_USAGE, ['fork', '--from', 'http://h', '--competition', 'a/b', '--out', 'd'], 'compsim fork', "--competition must be a competition id, got 'a/b'"],
    [FORK_USAGE, ['fork', '--from', 'http://h', '--competition', 'c', '--out', 'd', '--concurrency', '0'], 'compsim fork', "--concurrency must be 1, 2, 3 or 4, got '0'"],
    [FORK_USAGE, ['fork', '--from', 'http://h', '--competition', 'c', '--out', 'd', '--rate', 'fast'], 'compsim fork', "--rate must be a positive number of requests per second, got 'fast'"],
    [FORK_USAGE, ['fork', '--fresh=1'], 'compsim fork', '--fresh takes no value'],
    [REPLAY_USAGE, ['replay', '--trades', 'x', '--prices', 'y', '--target', 'http://h'], 'compsim replay', '--target and --admin-key go together'],
    [REPLAY_USAGE, ['replay', '--slippage', 'some'], 'compsim replay', "--slippage must be upstream, expected or none, got 'some'"],
    [REPLAY_USAGE, ['replay', '--vs-slippage', 'some'], 'compsim replay', "--vs-slippage must be upstream, expected or none, got 'some'"],
    [REPLAY_USAGE, ['replay', '--rules', 'loose'], 'compsim replay', "--rules must be lenient or strict, got 'loose'"],
    [REPLAY_USAGE, ['replay', '--interval', 'soon'], 'compsim replay', "--interval must be a duration such as 5m or 300000, got 'soon'"],
    [REPLAY_USAGE, ['replay', '--interval', '999'], 'compsim replay', '--interval must be at least 1s'],
    [REPLAY_USAGE, ['replay', '--start', 'monday'], 'compsim replay', "--start must be an ISO 8601 time, got 'monday'"],
    [REPLAY_USAGE, ['replay', '--end', 'later'], 'compsim replay', "--end must be an ISO 8601 time, got 'later'"],
    [REPLAY_USAGE, ['replay', '--trades'], 'compsim replay', '--trades needs a value'],
    [REPLAY_USAGE, ['replay', '--json=no'], 'compsim replay', '--json takes no value'],
    [OPENAPI_USAGE, ['openapi', '--server-url'], 'compsim openapi', '--server-url needs a value'],
    [OPENAPI_USAGE, ['openapi', '--no-sim=1'], 'compsim openapi', '--no-sim takes no value'],
    [SIGN_USAGE, ['sign-wallet', '--key'], 'compsim sign-wallet', '--key needs a value'],
    [SIGN_USAGE, ['sign-wallet', '--api-key', 'k'], 'compsim sign-wallet', '--key is required'],
    [SIGN_USAGE, ['sign-wallet', '--key', 'k'], 'compsim sign-wallet', '--api-key is required'],
    [SIGN_USAGE, ['sign-inference', '--key', 'k', '--model', 'm', '--output', 'o'], 'compsim sign-inference', '--prompt is required'],
    [SIGN_USAGE, ['sign-inference', '--chain-id', 'x'], 'compsim sign-inference', '--chain-id must be a decimal number'],
  ];
  for (const [usage, argv, prefix, message] of CASES) {
    it(`compsim ${argv.join(' ')}: ${message}`, async () => {
      expect(await cli(argv)).to.deep.equal({ code: 2, stdout: '', stderr: `${prefix}: ${message}\n\n${usage}\n` });
    });
  }

  // An unknown option or a stray argument: the message, a did-you-mean when one is close, and a pointer to --help instead of the usage text.
  const UNKNOWN: [string[], string, string, string][] = [
    // argv, stderr prefix, message, help command
    [['serve', '--prot', '3001'], 'compsim', "unknown option '--prot' (did you mean --port?)", 'compsim serve --help'],
    [['serve', '--sim'], 'compsim', "unknown option '--sim' (did you mean --sim-api?)", 'compsim serve --help'],
    [['serve', '--Admin-Key', 'k'], 'compsim', "unknown option '--Admin-Key' (did you mean --admin-key?)", 'compsim serve --help'],
    [['serve', '--frobnicate'], 'compsim', "unknown option '--frobnicate'", 'compsim serve --help'],
    [['serve', '--frobnicate=1'], 'compsim', "unknown option '--frobnicate=1'", 'compsim serve --help'],
    [['serve', '-x'], 'compsim', "unknown option '-x'", 'compsim serve --help'],
    [['serve', 'stray'], 'compsim', "unexpected argument 'stray'", 'compsim serve --help'],
    [['serve', 'port', '3001'], 'compsim', "unexpected argument 'port' (did you mean --port?)", 'compsim serve --help'],
    [['run', 'a', '--frobnicate'], 'compsim run', "unknown option '--frobnicate'", 'compsim run --help'],
    [['run', 'a', '--worker', '2'], 'compsim run', "unknown option '--worker' (did you mean --workers?)", 'compsim run --help'],
    [['record', 'f'], 'compsim record', "unexpected argument 'f'", 'compsim record --help'],
    [['replay', '--speed', '2'], 'compsim replay', "unknown option '--speed' (did you mean --seed?)", 'compsim replay --help'],
    [['openapi', '--bogus'], 'compsim openapi', "unknown option '--bogus'", 'compsim openapi --help'],
    [['openapi', 'out.json'], 'compsim openapi', "unexpected argument 'out.json'", 'compsim openapi --help'],
    [['sign-wallet', '--bogus'], 'compsim sign-wallet', "unknown option '--bogus'", 'compsim sign-wallet --help'],
    [['sign-inference', '--json', 'x'], 'compsim sign-inference', "unexpected argument 'x'", 'compsim sign-inference --help'],
    [['sweep', 'a', '--seed', '1..2'], 'compsim sweep', "unknown option '--seed' (did you mean --seeds?)", 'compsim sweep --help'],
    [['fork', '--form', 'http://h'], 'compsim fork', "unknown option '--form' (did you mean --from?)", 'compsim fork --help'],
  ];
  for (const [argv, prefix, message, help] of UNKNOWN) {
    it(`compsim ${argv.join(' ')}: ${message}, then a pointer to ${help}`, async () => {
      expect(await cli(argv)).to.deep.equal({ code: 2, stdout: '', stderr: `${prefix}: ${message}\nRun '${help}' for the options.\n` });
    });
  }

  it('an unknown command: a did-you-mean when one is close and a pointer to compsim --help (exit 2)', async () => {
    expect(await cli(['srve', '--port', '1'])).to.deep.equal({ code: 2, stdout: '', stderr: "compsim: unknown command 'srve' (did you mean serve?)\nRun 'compsim --help' for the commands.\n" });
    expect(await cli(['frobnicate'])).to.deep.equal({ code: 2, stdout: '', stderr: "compsim: unknown command 'frobnicate'\nRun 'compsim --help' for the commands.\n" });
    expect((await cli(['mpc'])).stderr).to.equal("compsim: unknown command 'mpc' (did you mean mcp?)\nRun 'compsim --help' for the commands.\n");
  });

  it('compsim state: a missing or unknown subcommand, a missing directory and options of another subcommand', async () => {
    expect(await cli(['state'])).to.deep.equal({ code: 2, stdout: `${STATE_USAGE}\n`, stderr: '' });
    const misuse = (m: string) => ({ code: 2, stdout: '', stderr: `compsim state: ${m}\n\n${STATE_USAGE}\n` });
    expect(await cli(['state', 'frobnicate', 'd'])).to.deep.equal(misuse("unknown subcommand 'frobnicate'"));
    for (const argv of [['inspect'], ['inspect', 'a', 'b'], ['compact', 'd', '--json'], ['export', 'd', '--out'], ['inspect', 'd', '--out', 'f'], ['inspect', 'd', '--json=1']]) {
      expect(await cli(['state', ...argv]), argv.join(' ')).to.deep.equal(misuse('expected one state directory and the options shown'));
    }
  });

  it('prints each command\'s help on stdout with exit 0', async () => {
    for (const [argv, usage] of [[['serve', '-h'], USAGE], [['run', '--help'], RUN_USAGE], [['record', '-h'], RECORD_USAGE], [['replay', '--help'], REPLAY_USAGE], [['fork', '--help'], FORK_USAGE],
      [['openapi', '-h'], OPENAPI_USAGE], [['sign-wallet', '--help'], SIGN_USAGE], [['state', 'inspect', '-h'], STATE_USAGE]] as const) {
      expect(await cli([...argv]), argv.join(' ')).to.deep.equal({ code: 0, stdout: `${usage}\n`, stderr: '' });
    }
  });

  it('takes a value that starts with one dash (a negative seed) as the value', () => {
    expect(parseServeArgs(['--seed', '-5', '--host', '-x'])).to.include({ seed: -5, host: '-x' });
    expect(parseServeArgs(['--seed=-5']).seed).to.equal(-5);
  });
});
