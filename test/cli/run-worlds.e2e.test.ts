// compsim run --target on a server holding many worlds: a fresh world per scenario file (the default world untouched), --keep-worlds, --target-world.
import { expect } from 'chai';
import { parseRunArgs, runMain } from '../../src/cli/run.js';
import { UsageError } from '../../src/cli/args.js';
import { serveSim, SERVE_KEY } from '../harness/child.js';
import { captured } from '../helpers/cli-io.js';

const runHere = (args: string[]) => captured(runMain, args);

const FILES = ['scenarios/simulation/fault-injection.scenario.json', 'scenarios/trading', 'scenarios/competitions/scheduled.scenario.json'];
const hashes = (r: { scenarios: { file: string; hash: string }[] }) => r.scenarios.map((s) => [s.file, s.hash]);

describe('compsim run --target on a server with worlds', function () {
  this.timeout(180_000);
  let server: Awaited<ReturnType<typeof serveSim>>;
  before(async () => {
    server = await serveSim();
  });
  after(() => server?.stop());
  const get = async (path: string, key = SERVE_KEY) => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<any>;

  it('runs each file in a fresh world it deletes afterwards: the default world is untouched and the hashes are the in-process ones (two files at once)', async () => {
    const before = await get('/api/sim/dump');
    const local = JSON.parse((await runHere([...FILES, '--json'])).stdout);
    const remote = await runHere([...FILES, '--json', '--target', server.url, '--admin-key', SERVE_KEY, '--workers', '2']);
    expect(remote.code, remote.stderr).to.equal(0);
    const result = JSON.parse(remote.stdout);
    expect(result.summary.scenarios).to.be.greaterThan(4);
    expect(hashes(result)).to.deep.equal(hashes(local));
    expect(await get('/api/sim/dump')).to.deep.equal(before);
    expect((await get('/api/sim/worlds')).worlds.map((w: { id: string }) => w.id)).to.deep.equal(['default']);
    // The worlds were really used: the server counted one per file.
    const created = await fetch(`${server.url}/api/sim/worlds`, { method: 'POST', headers: { authorization: `Bearer ${SERVE_KEY}` } });
    expect(((await created.json()) as { id: string }).id).to.equal(`w${result.summary.scenarios + 1}`);
    await fetch(`${server.url}/api/sim/worlds/w${result.summary.scenarios + 1}`, { method: 'DELETE', headers: { authorization: `Bearer ${SERVE_KEY}` } });
  });

  it('keeps the worlds with --keep-worlds and prints their URLs and admin keys', async () => {
    const r = await runHere([FILES[0]!, FILES[2]!, '--target', server.url, '--admin-key', SERVE_KEY, '--keep-worlds', '--workers', '2']);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    const kept = [...r.stdout.matchAll(/^ {2}(\S+): (http:\S+\/worlds\/(w\d+)) {2}admin key (\S+)$/gm)];
    expect(r.stdout).to.include('kept 2 worlds (delete with DELETE ');
    expect(kept.map((m) => m[1])).to.deep.equal([FILES[0], FILES[2]]);
    for (const m of kept) {
      const clock = await (await fetch(`${m[2]}/api/sim/clock`, { headers: { authorization: `Bearer ${m[4]}` } })).json() as { success: boolean };
      expect(clock.success).to.equal(true);
      await fetch(`${server.url}/api/sim/worlds/${m[3]}`, { method: 'DELETE', headers: { authorization: `Bearer ${m[4]}` } });
    }
    expect((await get('/api/sim/worlds')).worlds).to.have.length(1);
  });

  it('resets and runs in the default world only with --target-world default (same hashes)', async () => {
    const before = await get('/api/sim/dump');
    const local = JSON.parse((await runHere([FILES[0]!, '--json'])).stdout);
    const r = await runHere([FILES[0]!, '--json', '--target', server.url, '--admin-key', SERVE_KEY, '--target-world', 'default']);
    expect(r.code, r.stderr).to.equal(0);
    expect(hashes(JSON.parse(r.stdout))).to.deep.equal(hashes(local));
    expect(await get('/api/sim/dump')).to.not.deep.equal(before);
  });

  it('fails a scenario with a clear message when the server creates no worlds', async () => {
    const r = await runHere([FILES[0]!, '--json', '--target', server.url, '--admin-key', '1111111111111111_1111111111111111']);
    expect(r.code).to.equal(1);
    const failure = JSON.parse(r.stdout).scenarios[0].failure;
    expect(failure.at).to.equal('reset');
    expect(failure.message).to.equal(`cannot create a world on ${server.url}: POST /api/sim/worlds answered 401 `
      + '{"success":false,"error":"Invalid key: worlds are managed with the server key or an admin key of the default world"} '
      + '(a compsim server started with --sim-api creates worlds with its server key or the admin key of its default world; run in the default world instead with --target-world default)');
  });
});

describe('compsim run world options', () => {
  it('parses --keep-worlds and --target-world', () => {
    expect(parseRunArgs(['a', '--target', 'http://h:1', '--admin-key', 'k', '--keep-worlds'])).to.deep.equal({ paths: ['a'], json: false, target: 'http://h:1', adminKey: 'k', keepWorlds: true });
    expect(parseRunArgs(['a', '--target', 'http://h:1', '--admin-key', 'k', '--target-world', 'w3'])).to.deep.equal({ paths: ['a'], json: false, target: 'http://h:1', adminKey: 'k', targetWorld: 'w3' });
  });

  it('refuses them without --target, together, or with a bad world id', () => {
    const cases: [string[], string][] = [
      [['a', '--keep-worlds'], '--keep-worlds only goes with --target'],
      [['a', '--target-world', 'default'], '--target-world only goes with --target'],
      [['a', '--target', 'http://h:1', '--admin-key', 'k', '--target-world', 'W 1'], "--target-world must be a world id such as default or w3, got 'W 1'"],
      [['a', '--target', 'http://h:1', '--admin-key', 'k', '--target-world', 'w1', '--keep-worlds'], '--keep-worlds and --target-world do not go together (--target-world runs in a world that exists already)'],
    ];
    for (const [args, message] of cases) expect(() => parseRunArgs(args)).to.throw(UsageError, message);
  });
});
