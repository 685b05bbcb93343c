// One fixture and seed give one world through every door: serve with and without --admin-key, the library, the worlds API and scenarios (in-process and on a server) dump the same rows, ids and agent keys.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseServeArgs } from '../../src/cli/args.js';
import { serve, type ServeKeys } from '../../src/cli/serve.js';
import { runScenario } from '../../src/harness/runner.js';
import { worldTarget } from '../../src/harness/world-target.js';
import type { Scenario } from '../../src/harness/types.js';
import type { Target } from '../../src/harness/targets.js';
import { inProcessTarget } from '../../src/world/in-process-target.js';
import { createWorld } from '../../src/world/world.js';
import type { StoreDump } from '../../src/ports/store.js';

const ROOT = join(import.meta.dirname, '..', '..');
const KEY = '0123456789abcdef_fedcba9876543210';
const sink = () => new Writable({ write: (_c, _e, cb) => cb() });

/** A dump without what only the admin's key decides (its hash and encrypted copy). */
function withoutAdminKeys(d: StoreDump): StoreDump {
  const tables = d.tables as Record<string, Record<string, unknown>[]>;
  const admins = tables.admins!.map(({ apiKeyHash: _h, apiKeyEnc: _e, ...rest }) => rest);
  return { ...d, tables: { ...tables, admins } } as StoreDump;
}

async function get(url: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

/** Starts `compsim serve --world demo --sim-api` (plus `extra`) in this process; answers its keys file and a stop function. */
async function serveDemo(dir: string, extra: string[]): Promise<{ keys: ServeKeys; stop: () => Promise<void> }> {
  const file = join(dir, `keys-${extra.length}.json`);
  const running = await serve(parseServeArgs(['--port', '0', '--world', 'demo', '--sim-api', '--log-level', 'silent', '--keys-file', file, ...extra]), sink());
  return { keys: JSON.parse(readFileSync(file, 'utf8')) as ServeKeys, stop: running.stop };
}

/** The dump a scenario sees at its first step (after the runner's reset with the scenario's seed and world). */
async function scenarioDump(target: Target): Promise<StoreDump> {
  const sc: Scenario = {
    file: 'doors.scenario.json', name: 'doors',
    doc: { seed: 2025, startTime: '2025-06-02T12:00:00Z', world: { fixture: 'demo' }, steps: [{ call: 'GET /api/sim/dump', as: 'admin' }] },
  };
  const r = await runScenario(sc, target, { keepLog: true });
  await target.close();
  expect(r.ok, JSON.stringify(r.failure)).to.equal(true);
  const last = JSON.parse(r.log.trim().split('\n').at(-1)!) as { response: { body: StoreDump & { success?: boolean } } };
  const { success: _s, ...dump } = last.response.body;
  return dump as StoreDump;
}

describe('one fixture and seed, one world through every door', function () {
  this.timeout(60_000);
  let dir: string;
  let plain: Awaited<ReturnType<typeof serveDemo>>;
  let keyed: Awaited<ReturnType<typeof serveDemo>>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'compsim-doors-'));
    plain = await serveDemo(dir, []);
    keyed = await serveDemo(dir, ['--admin-key', KEY]);
  });
  after(async () => {
    await plain.stop();
    await keyed.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serve --world demo prints the agent keys and competition ids the README shows, with or without --admin-key', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const keys of [plain.keys, keyed.keys]) {
      for (const a of keys.agents) expect(readme).to.include(`agent ${a.name} (@${a.handle}): ${a.apiKey}`);
      for (const c of keys.competitions) expect(readme).to.include(`competition ${c.name} [${c.status}]: ${c.id}`);
      expect(keys.agents).to.have.length(3);
    }
    expect(readme).to.include(`admin key: ${plain.keys.adminKey}`);
    expect(keyed.keys.adminKey).to.equal(KEY);
    expect(keyed.keys.agents).to.deep.equal(plain.keys.agents);
  });

  it('dumps the same world (admin keys aside) from serve with and without --admin-key, the library, the worlds API and scenarios', async () => {
    const dumps: Record<string, StoreDump> = {};
    const cli = await get(`${plain.keys.url}/api/sim/dump`, plain.keys.adminKey!);
    expect(cli.status).to.equal(200);
    const { success: _s, ...cliDump } = cli.body;
    dumps['serve --world demo'] = cliDump as unknown as StoreDump;
    const { success: _k, ...keyedDump } = (await get(`${keyed.keys.url}/api/sim/dump`, KEY)).body;
    dumps['serve --world demo --admin-key K'] = keyedDump as unknown as StoreDump;
    dumps['createWorld({ fixture: "demo" })'] = await (await createWorld({ fixture: 'demo' })).dump();

    const created = await fetch(`${plain.keys.url}/api/sim/worlds`, {
      method: 'POST', headers: { authorization: `Bearer ${plain.keys.serverKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ fixture: 'demo' }),
    });
    const world = await created.json() as { basePath: string; adminKey: string; agents: ServeKeys['agents']; competitions: ServeKeys['competitions'] };
    expect(created.status).to.equal(201);
    expect(world.agents).to.deep.equal(plain.keys.agents);
    expect(world.competitions).to.deep.equal(plain.keys.competitions);
    const { success: _w, ...worldDump } = (await get(`${plain.keys.url}${world.basePath}/api/sim/dump`, world.adminKey)).body;
    dumps['POST /api/sim/worlds {"fixture":"demo"}'] = worldDump as unknown as StoreDump;

    dumps['scenario, in-process'] = await scenarioDump(inProcessTarget());
    dumps['scenario, compsim run --target'] = await scenarioDump(worldTarget(keyed.keys.url, { adminKey: keyed.keys.serverKey! }));

    const [first, ...rest] = Object.entries(dumps).map(([door, d]) => [door, withoutAdminKeys(d)] as const);
    expect((first![1].tables as Record<string, unknown[]>).agents).to.have.length(3);
    for (const [door, d] of rest) expect(d, `${door} vs ${first![0]}`).to.deep.equal(first![1]);
  });

  it('a world without an admin draws the same ids as one with an admin (given or drawn key)', async () => {
    const fixture = { users: [{ walletAddress: '0xa11ce00000000000000000000000000000000001', agents: [{ name: 'Solo', handle: 'solo' }] }] };
    const worlds = [
      await createWorld({ seed: 9, fixture }),
      await createWorld({ seed: 9, fixture, admin: {} }),
      await createWorld({ seed: 9, fixture, admin: { apiKey: KEY } }),
    ];
    const agents = worlds.map((w) => w.fixture.agents);
    expect(agents[1]).to.deep.equal(agents[0]);
    expect(agents[2]).to.deep.equal(agents[0]);
    const ids = await Promise.all(worlds.map((w) => w.dump().then((d) => d.aux.ids)));
    expect(ids[1]).to.deep.equal(ids[0]);
    expect(ids[2]).to.deep.equal(ids[0]);
  });
});
