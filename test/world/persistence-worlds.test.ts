// compsim serve --state with many worlds: every world comes back after a restart, each in its own subdirectory, the default world in the directory itself.
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listStateFiles } from '../../src/adapters/file/state-files.js';
import { parseServeArgs, UsageError } from '../../src/cli/args.js';
import { serve } from '../../src/cli/serve.js';
import { StatePersistence } from '../../src/world/persistence.js';
import { WorldHost } from '../../src/world/world-host.js';
import { createWorld } from '../../src/world/world.js';

const ADMIN = '0123456789abcdef_fedcba9876543210';
const SOL = 'So11111111111111111111111111111111111111112';

/** `compsim serve --state dir --sim-api` in this process; its banner's server key; a JSON client. */
async function boot(dir: string) {
  let banner = '';
  const server = await serve(parseServeArgs(['--port', '0', '--state', dir, '--sim-api', '--admin-key', ADMIN, '--log-level', 'silent']), { write: (t: string) => (banner += t) } as unknown as NodeJS.WritableStream);
  const serverKey = /server key: (\S+)/.exec(banner)![1]!;
  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method, headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: await res.json() as any };
  };
  return { ...server, serverKey, banner, call };
}

describe('compsim serve --state with many worlds', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'compsim-worlds-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('brings back every world after a restart: ids, admin keys, state, named snapshots and idle TTLs; deleted ones stay gone', async () => {
    const a = await boot(dir);
    const w1 = (await a.call('POST', '/api/sim/worlds', a.serverKey, { seed: 5, idleTtlSeconds: 3600 })).body;
    const w2 = (await a.call('POST', '/api/sim/worlds', ADMIN, { seed: 6, options: { slippage: 'none' } })).body;
    const w3 = (await a.call('POST', '/api/sim/worlds', ADMIN, {})).body;
    expect([w1.id, w2.id, w3.id]).to.deep.equal(['w1', 'w2', 'w3']);
    const user = await a.call('POST', '/worlds/w1/api/admin/users', w1.adminKey, { walletAddress: `0x${'a'.repeat(40)}`, agentName: 'Kept' });
    expect(user.status).to.equal(201);
    const cup = await a.call('POST', '/worlds/w1/api/admin/competition/start', w1.adminKey, { name: 'Cup', agentIds: [user.body.agent.id] });
    const set = await a.call('POST', '/worlds/w1/api/sim/balances', w1.adminKey, { agentId: user.body.agent.id, competitionId: cup.body.competition.id, balances: [{ token: SOL, amount: 77 }] });
    expect(set.status).to.equal(200); // journaled like every write: checked by the dumps after the restart
    await a.call('POST', '/worlds/w1/api/sim/clock', w1.adminKey, { advanceMs: 3_600_000 });
    await a.call('POST', '/worlds/w2/api/sim/prices', w2.adminKey, { prices: [{ token: SOL, price: 123 }] });
    const snap = (await a.call('POST', '/worlds/w2/api/sim/snapshots', w2.adminKey)).body.id;
    await a.call('POST', '/worlds/w2/api/sim/prices', w2.adminKey, { prices: [{ token: SOL, price: 456 }] });
    await a.call('POST', '/api/admin/users', ADMIN, { walletAddress: `0x${'b'.repeat(40)}`, agentName: 'Default one' });
    expect((await a.call('DELETE', '/api/sim/worlds/w3', w3.adminKey)).status).to.equal(200);
    const dumps = async (s: typeof a) => ({
      default: (await s.call('GET', '/api/sim/dump', ADMIN)).body,
      w1: (await s.call('GET', '/worlds/w1/api/sim/dump', w1.adminKey)).body,
      w2: (await s.call('GET', '/worlds/w2/api/sim/dump', w2.adminKey)).body,
    });
    const before = await dumps(a);
    // The URLs name the port, which port 0 picks anew.
    const worlds = async (s: typeof a) => (await s.call('GET', '/api/sim/worlds', ADMIN)).body.worlds.map(({ url: _url, ...w }: { url: string }) => w);
    const listed = await worlds(a);
    await a.stop();

    // The default world keeps the single-world layout in the directory itself; each created world has a subdirectory.
    expect(listStateFiles(dir).journals.length).to.be.greaterThan(0);
    expect(readdirSync(join(dir, 'worlds')).sort()).to.deep.equal(['ids.json', 'w1', 'w2']);

    const b = await boot(dir);
    try {
      expect(b.banner).to.include('worlds: default and 2 more');
      expect(await worlds(b)).to.deep.equal(listed);
      expect(listed.map((w: { id: string }) => w.id)).to.deep.equal(['default', 'w1', 'w2']);
      expect(await dumps(b)).to.deep.equal(before);
      expect((await b.call('GET', '/worlds/w3/api/health', ADMIN)).body).to.deep.equal({ success: false, error: 'World not found: w3' });
      expect((await b.call('POST', `/worlds/w2/api/sim/snapshots/${snap}/restore`, w2.adminKey)).status).to.equal(200);
      const prices = (await b.call('GET', '/worlds/w2/api/sim/prices', w2.adminKey)).body.overrides;
      expect(prices.map((p: { price: number }) => p.price)).to.deep.equal([123]);
      // A world created after the restart persists like the others, under a new id: w3 was handed out (and deleted) before.
      const w4 = (await b.call('POST', '/api/sim/worlds', ADMIN, { seed: 9 })).body;
      expect(w4.id).to.equal('w4');
      expect(existsSync(join(dir, 'worlds', 'w4', 'world.json'))).to.equal(true);
      expect((await b.call('GET', '/worlds/w3/api/health', ADMIN)).status).to.equal(404);
    } finally {
      await b.stop();
    }
  });

  it('closes and removes a deleted world only after the requests it is answering are done', async () => {
    const state = await StatePersistence.open(dir);
    const world = await createWorld({ admin: { apiKey: ADMIN } }, state);
    const host = await WorldHost.open(world, { state: { dir } });
    try {
      const { id } = await host.create({ seed: 2 });
      const busy = host.acquire(id); // a request under way in the world
      await host.remove(id);
      expect(() => host.acquire(id)).to.throw(`World not found: ${id}`); // new requests get the 404 at once
      const entries = () => readdirSync(join(dir, 'worlds')).filter((n) => n !== 'ids.json');
      expect(entries()).to.deep.equal([`.deleted-${id}-${entries()[0]!.split('-').pop()}`]);
      await busy.deps.store.transact(() => undefined); // the request's write still works
      host.release(id);
      await host.settled();
      expect(entries()).to.deep.equal([]);
    } finally {
      await host.close();
      await state.close();
    }
  });

  it('clears the leftovers of an answered deletion and of creations never answered at start, and keeps their ids used', async () => {
    mkdirSync(join(dir, 'worlds', '.deleted-w1-5'), { recursive: true });
    writeFileSync(join(dir, 'worlds', '.deleted-w1-5', 'junk'), 'x');
    mkdirSync(join(dir, 'worlds', '.creating-w2')); // a creation that stopped before its directory got its name
    writeFileSync(join(dir, 'worlds', '.creating-w2', 'world.json'), '{"id":"w2","idleTtlSeconds":null,"complete":false}\n');
    mkdirSync(join(dir, 'worlds', 'w3')); // a creation that stopped before its first record was on disk
    writeFileSync(join(dir, 'worlds', 'w3', 'world.json'), '{"id":"w3","idleTtlSeconds":null,"complete":false}\n');
    const s = await boot(dir);
    try {
      expect(readdirSync(join(dir, 'worlds'))).to.deep.equal([]);
      expect((await s.call('GET', '/api/sim/worlds', ADMIN)).body.worlds.map((w: { id: string }) => w.id)).to.deep.equal(['default']);
      expect((await s.call('POST', '/api/sim/worlds', ADMIN, {})).body.id).to.equal('w4');
    } finally {
      await s.stop();
    }
  });
});

describe('compsim serve --max-worlds', () => {
  it('parses a count and refuses anything else (usage error)', () => {
    expect(parseServeArgs(['--max-worlds', '3']).maxWorlds).to.equal(3);
    expect(parseServeArgs([]).maxWorlds).to.equal(undefined);
    for (const v of ['-1', 'many', '10001']) expect(() => parseServeArgs(['--max-worlds', v])).to.throw(UsageError, `--max-worlds must be an integer 0-10000, got '${v}'`);
  });

  it('prints the server key and the limit in the banner, and holds to the limit', async () => {
    let banner = '';
    const server = await serve(parseServeArgs(['--port', '0', '--sim-api', '--admin-key', ADMIN, '--max-worlds', '1', '--log-level', 'silent']), { write: (t: string) => (banner += t) } as unknown as NodeJS.WritableStream);
    try {
      const key = /^server key: ([0-9a-f]{16}_[0-9a-f]{16}) \(creates worlds with POST http:\/\/127\.0\.0\.1:\d+\/api\/sim\/worlds; at most 1\)$/m.exec(banner)?.[1];
      expect(key, banner).to.be.a('string');
      const post = () => fetch(`${server.url}/api/sim/worlds`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
      expect((await post()).status).to.equal(201);
      expect((await post()).status).to.equal(429);
    } finally {
      await server.stop();
    }
  });
});
