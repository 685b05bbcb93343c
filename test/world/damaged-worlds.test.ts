// Created worlds with --state whose files are damaged, missing or copied: the others start, the damaged one is listed, answered 503 and left untouched; ids are never reused; create and delete are synced.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { listStateFiles } from '../../src/adapters/file/state-files.js';
import { parseServeArgs } from '../../src/cli/args.js';
import { serve } from '../../src/cli/serve.js';
import { stateMain } from '../../src/cli/state.js';
import { WorldHost } from '../../src/world/world-host.js';
import { worldOfFailure } from '../../src/world/world-dirs.js';
import { createWorld } from '../../src/world/world.js';
import { expectError } from '../helpers/actors.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { countingKeys, SERVER_KEY, startHostServer, type HostServer } from '../helpers/worlds.js';

const KEY = (n: number) => `${n.toString(16).padStart(16, '0')}_${n.toString(16).padStart(16, '0')}`;

/** Every file under `dir` with a hash of its content: what "left untouched" compares. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** JSON.parse's own message for `text` (its wording differs between Node versions). */
function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('valid JSON');
}

/** `compsim state inspect ...argv` in this process. */
async function inspect(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = { write: (t: string) => (out += t) };
  const code = await stateMain(['inspect', ...argv], { out: sink, err: sink });
  return { code, out };
}

describe('created worlds with --state: damaged, missing and copied files', function () {
  this.timeout(60_000);
  let dir: string;
  let notices: string[];
  const servers: HostServer[] = [];
  const start = async () => {
    const s = await startHostServer({ state: { dir, log: { info: (m) => notices.push(m), warn: (m) => notices.push(`WARN ${m}`) } } });
    servers.push(s);
    return s;
  };
  const stop = async (s: HostServer) => {
    servers.splice(servers.indexOf(s), 1);
    await s.close();
  };
  /** A server with worlds w1..wn (each with an agent, so each has records), stopped again. */
  const prepare = async (n: number) => {
    const s = await start();
    for (let i = 1; i <= n; i++) {
      expect((await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: { seed: i } })).status).to.equal(201);
      await s.call('POST', `/worlds/w${i}/api/admin/users`, { key: KEY(i), body: { walletAddress: `0x${String(i).repeat(40).slice(0, 40)}`, agentName: `Bot ${i}` } });
    }
    await stop(s);
  };
  const w = (id: string) => join(dir, 'worlds', id);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'compsim-damaged-'));
    notices = [];
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const damages: [string, (w2: string) => void, (w2: string) => { file: string; reason: string }][] = [
    ['an empty world.json', (d) => writeFileSync(join(d, 'world.json'), ''),
      (d) => ({ file: join(d, 'world.json'), reason: `${join(d, 'world.json')} is empty (0 bytes): it was truncated` })],
    ['a truncated world.json', (d) => writeFileSync(join(d, 'world.json'), '{"id":"w2","idle'),
      (d) => ({ file: join(d, 'world.json'), reason: `${join(d, 'world.json')} is not JSON (${parseError('{"id":"w2","idle')}): it was truncated or overwritten` })],
    ['a null world.json', (d) => writeFileSync(join(d, 'world.json'), 'null\n'),
      (d) => ({ file: join(d, 'world.json'), reason: `${join(d, 'world.json')} holds null, not a world description` })],
    ['a missing world.json', (d) => unlinkSync(join(d, 'world.json')),
      (d) => ({ file: join(d, 'world.json'), reason: `${join(d, 'world.json')} is missing: the world's files were moved or deleted` })],
    ['a missing journal', (d) => { for (const f of listStateFiles(d).journals) unlinkSync(join(d, f.name)); },
      (d) => ({
        file: join(d, 'compsim-state.json'),
        reason: `corrupt state file ${join(d, 'compsim-state.json')} at byte offset 0: the directory held a compsim state (this file says so) but every journal and snapshot file is gone: `
          + `the records they held are missing. Run \`compsim state inspect ${d}\` to see what the directory still holds. compsim never loads a partial state: `
          + 'restore the directory from a backup, or start with another --state directory',
      })],
  ];

  for (const [what, damage, expected] of damages) {
    it(`starts every other world when w2 has ${what}, lists w2 as damaged, answers its routes 503 and leaves its files as they were`, async () => {
      await prepare(3);
      damage(w('w2'));
      const before = tree(dir);
      const s = await start();
      const { file, reason } = expected(w('w2'));
      const list = await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY });
      expect(list.status).to.equal(200);
      expect(list.body.worlds.map((x: { id: string; status: string }) => [x.id, x.status])).to.deep.equal([['default', 'ok'], ['w1', 'ok'], ['w2', 'damaged'], ['w3', 'ok']]);
      expect(list.body.worlds[2]).to.include({ seed: null, now: null, basePath: '/worlds/w2' });
      expect(list.body.worlds[2].damage).to.deep.equal({ file, reason });
      expect((await s.call('GET', '/worlds/w1/api/admin/agents', { key: KEY(1) })).body.agents).to.have.length(1);
      expect((await s.call('GET', '/worlds/w3/api/admin/agents', { key: KEY(3) })).body.agents).to.have.length(1);
      expectError(await s.call('GET', '/worlds/w2/api/health'), 503,
        `World w2 is damaged and not served: ${reason}. Its files are kept as they are: run \`compsim state inspect ${w('w2')}\` to see what they hold`);
      expectError(await s.call('DELETE', '/api/sim/worlds/w2', { key: SERVER_KEY }), 409,
        `World w2 is damaged: compsim does not delete files it cannot account for. Inspect them with \`compsim state inspect ${w('w2')}\`, `
        + 'then move or remove the directory yourself (DELETE then forgets the world)');
      expect(notices).to.include(`WARN world w2 is damaged and not served (its files are left as they are): ${reason}`);
      // A new world never takes the damaged one's id.
      expect((await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: {} })).body.id).to.equal('w4');
      await stop(s);
      const after = tree(dir);
      for (const [f, h] of Object.entries(before)) if (f.startsWith(join('worlds', 'w2'))) expect(after[f], f).to.equal(h);
      expect(Object.keys(after).filter((f) => f.startsWith(join('worlds', 'w2')))).to.deep.equal(Object.keys(before).filter((f) => f.startsWith(join('worlds', 'w2'))));
    });
  }

  it('starts the others when a world has a flipped byte in its journal, and state inspect lists every world', async () => {
    await prepare(2);
    const j = join(w('w1'), listStateFiles(w('w1')).journals[0]!.name);
    const buf = readFileSync(j);
    buf[buf.length - 5]! ^= 0x01;
    writeFileSync(j, buf);
    const s = await start();
    const list = (await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds;
    expect(list.map((x: { status: string }) => x.status)).to.deep.equal(['ok', 'damaged', 'ok']);
    expect(list[1].damage.file).to.equal(j);
    expect(list[1].damage.reason).to.match(new RegExp(`^corrupt state file ${j.replace(/[.]/g, '\\.')} at byte offset \\d+: payload checksum mismatch`));
    await stop(s);
    const text = await inspect(dir);
    expect(text.code).to.equal(0);
    expect(text.out).to.match(/^world w1\s+DAMAGED: corrupt state file .* payload checksum mismatch/m);
    expect(text.out).to.match(new RegExp(`^world w2\\s+ok: \\d+ records \\(last write \\d{4}-.*\\), ${w('w2').replace(/[.]/g, '\\.')}$`, 'm'));
    const json = JSON.parse((await inspect(dir, '--json')).out) as { worlds: { id: string; status: string }[] };
    expect(json.worlds.map((x) => [x.id, x.status])).to.deep.equal([['w1', 'damaged'], ['w2', 'ok']]);
  });

  it('refuses a copied world directory (same admin key), naming both, and serves the original', async () => {
    await prepare(1);
    cpSync(w('w1'), w('w7'), { recursive: true });
    writeFileSync(join(w('w7'), 'world.json'), readFileSync(join(w('w1'), 'world.json'), 'utf8').replace('"w1"', '"w7"'));
    const s = await start();
    const list = (await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds;
    expect(list.map((x: { id: string; status: string }) => [x.id, x.status])).to.deep.equal([['default', 'ok'], ['w1', 'ok'], ['w7', 'damaged']]);
    expect(list[2].damage.reason).to.equal(`worlds w1 and w7 have the same admin key: ${w('w7')} is a copy of ${w('w1')}, so w7 is not started`);
    expect((await s.call('GET', '/worlds/w1/api/admin/agents', { key: KEY(1) })).status).to.equal(200);
  });

  it('state inspect reports a copied world directory damaged with the reason the server gives, and the original ok', async () => {
    await prepare(1);
    cpSync(w('w1'), w('w7'), { recursive: true });
    writeFileSync(join(w('w7'), 'world.json'), readFileSync(join(w('w1'), 'world.json'), 'utf8').replace('"w1"', '"w7"'));
    const s = await start();
    const served = (await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds[2].damage;
    await stop(s);
    const reason = `worlds w1 and w7 have the same admin key: ${w('w7')} is a copy of ${w('w1')}, so w7 is not started`;
    expect(served).to.deep.equal({ file: join(w('w7'), 'world.json'), reason });
    const text = await inspect(dir);
    expect(text.code).to.equal(0);
    expect(text.out).to.match(/^world w1\s+ok: \d+ records/m);
    expect(/^world w7\s+DAMAGED: (.*)$/m.exec(text.out)?.[1]).to.equal(reason);
    const json = JSON.parse((await inspect(dir, '--json')).out) as { worlds: { id: string; status: string; file?: string; reason?: string }[] };
    expect(json.worlds.map((x) => [x.id, x.status])).to.deep.equal([['w1', 'ok'], ['w7', 'damaged']]);
    expect(json.worlds[1]).to.include({ file: served.file, reason: served.reason });
  });

  it('refuses a copied world directory left with the original id in its world.json', async () => {
    await prepare(1);
    cpSync(w('w1'), w('w5'), { recursive: true });
    const s = await start();
    const list = (await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds;
    expect(list[2].damage.reason).to.equal(`${join(w('w5'), 'world.json')} names world "w1", but its directory is w5: a copy of another world's directory? `
      + 'compsim serves each world from the directory it was created in');
  });

  it('forgets a damaged world on DELETE once its directory was moved away, and never reuses its id', async () => {
    await prepare(2);
    writeFileSync(join(w('w2'), 'world.json'), '');
    const s = await start();
    renameSync(w('w2'), join(dir, 'w2-kept'));
    expect((await s.call('DELETE', '/api/sim/worlds/w2', { key: SERVER_KEY })).status).to.equal(200);
    expectError(await s.call('GET', '/worlds/w2/api/health'), 404, 'World not found: w2');
    expect((await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: {} })).body.id).to.equal('w3');
  });

  it('keeps serving when an idle world expires after its directory was moved away, and logs it', async () => {
    const s = await start();
    expect((await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: { idleTtlSeconds: 1 } })).status).to.equal(201);
    expect((await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: { idleTtlSeconds: 1 } })).status).to.equal(201);
    renameSync(w('w1'), join(dir, 'elsewhere'));
    rmSync(w('w2'), { recursive: true, force: true });
    s.clock.ms += 2_000;
    expectError(await s.call('GET', '/worlds/w1/api/health'), 404, 'World not found: w1');
    expect((await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds.map((x: { id: string }) => x.id)).to.deep.equal(['default']);
    expect(await s.host.sweep()).to.deep.equal([]);
    expect((await s.call('GET', '/api/health')).status).to.equal(200);
    await s.host.settled();
    expect(notices).to.include(`WARN world w1: its directory ${w('w1')} was already gone; the world is forgotten`);
    expect(notices).to.include(`WARN world w2: its directory ${w('w2')} was already gone; the world is forgotten`);
  });

  it('answers DELETE of a world whose directory was removed from outside with 200 and forgets it', async () => {
    const s = await start();
    await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: {} });
    rmSync(w('w1'), { recursive: true, force: true });
    expect((await s.call('DELETE', '/api/sim/worlds/w1', { key: SERVER_KEY })).body).to.deep.equal({ success: true });
    expect(s.host.size).to.equal(0);
  });

  it('compsim serve logs a failure nobody awaited with the world it names, and keeps serving', async () => {
    const server = await serve(parseServeArgs(['--port', '0', '--state', dir, '--sim-api', '--admin-key', ADMIN_KEY, '--log-level', 'error']),
      { write: () => true } as unknown as NodeJS.WritableStream);
    // Only compsim's handler sees this one (mocha's own would fail the test for it).
    const others = process.listeners('unhandledRejection').slice(0, -1);
    for (const l of others) process.off('unhandledRejection', l);
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => lines.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      const err = Object.assign(new Error('EIO: i/o error, write'), { path: join(dir, 'worlds', 'w3', 'journal-0000000000000001.log') });
      process.emit('unhandledRejection', err, Promise.resolve());
    } finally {
      process.stdout.write = write;
      for (const l of others) process.on('unhandledRejection', l);
    }
    try {
      const logged = lines.map((l) => JSON.parse(l) as { msg: string; world: string | null; err: { message: string } });
      expect(logged.map((l) => [l.msg, l.world, l.err.message])).to.deep.equal([
        ['unexpected failure outside any request (compsim keeps serving)', 'w3', 'EIO: i/o error, write'],
      ]);
      expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });

  it('names the world of a failure from its world field or a path under worlds/', () => {
    expect(worldOfFailure(Object.assign(new Error('x'), { path: '/d/worlds/w12/journal-1.log' }))).to.equal('w12');
    expect(worldOfFailure({ file: '/d/worlds/.deleted-w3-1234/LOCK' })).to.equal('w3');
    expect(worldOfFailure(new Error("ENOENT: no such file or directory, rename '/d/worlds/w1' -> '/d/worlds/.deleted-w1-5'"))).to.equal('w1');
    expect(worldOfFailure({ world: 'w9' })).to.equal('w9');
    expect(worldOfFailure(new Error('boom'))).to.equal(null);
  });
});

describe('creating and deleting a world with --state syncs before answering', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'compsim-sync-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('syncs world.json, then the worlds directory, before create resolves, and the directory after the rename of a delete', async () => {
    // Every sync of a file handle in this process, by the path its descriptor has at that moment.
    const fh = await open(dir, 'r');
    const proto = Object.getPrototypeOf(fh) as FileHandle & { sync: () => Promise<void> };
    await fh.close();
    const synced: string[] = [];
    const original = proto.sync;
    proto.sync = function (this: FileHandle) {
      synced.push(readlinkSync(`/proc/self/fd/${this.fd}`));
      return original.call(this);
    };
    const world = await createWorld({ admin: { apiKey: ADMIN_KEY } });
    const host = await WorldHost.open(world, { state: { dir }, newKey: countingKeys() });
    try {
      await host.create({ seed: 1 });
      const worlds = join(dir, 'worlds');
      const creating = synced.slice();
      // world.json (written aside, then renamed) is synced before the directory entry naming the world.
      const jsonSync = creating.findIndex((p) => p.startsWith(join(worlds, '.creating-w1', 'world.json')));
      const dirSync = creating.findIndex((p, i) => i > jsonSync && p === worlds);
      expect(jsonSync, creating.join('\n')).to.be.greaterThan(-1);
      expect(dirSync, creating.join('\n')).to.be.greaterThan(jsonSync);
      // And once complete (after the world's first record), world.json again and the id high-water mark.
      expect(creating.some((p) => p.startsWith(join(worlds, 'w1', 'world.json')))).to.equal(true);
      expect(creating.some((p) => p.startsWith(join(worlds, 'ids.json')))).to.equal(true);
      expect(JSON.parse(readFileSync(join(worlds, 'w1', 'world.json'), 'utf8')).complete).to.equal(true);
      synced.length = 0;
      await host.remove('w1');
      expect(synced[0], synced.join('\n')).to.equal(worlds);
      expect(statSync(worlds).isDirectory()).to.equal(true);
    } finally {
      proto.sync = original;
      await host.close();
    }
  });
});
