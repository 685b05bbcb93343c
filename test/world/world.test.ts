// createWorld: isolation, seeded determinism, snapshot/restore (clock and RNG included), dump/load, reset.
import { expect } from 'chai';
import { createWorld } from '../../src/world/world.js';
import { setupAdmin } from '../../src/domain/access/admins.js';
import { registerUser } from '../../src/domain/agents/users.js';
import { DEFAULT_ARENAS } from '../../src/domain/competitions/arenas.js';

const admin = { username: 'a', password: 'password1', email: 'a@x.io' };

describe('createWorld', () => {
  it('seeds the four default arenas, created by "system"', async () => {
    const w = await createWorld();
    const arenas = await w.deps.store.read((tx) => tx.all('arenas'));
    expect(arenas.map((a) => a.id)).to.deep.equal(DEFAULT_ARENAS.map((a) => a.id));
    expect(arenas.every((a) => a.createdBy === 'system' && a.kind === 'Competition')).to.equal(true);
  });

  it('builds isolated worlds: one world\'s writes never show in another', async () => {
    const a = await createWorld();
    const b = await createWorld();
    await setupAdmin(a.deps, admin);
    expect(await b.deps.store.read((tx) => tx.count('admins'))).to.equal(0);
    await setupAdmin(b.deps, admin);
  });

  it('is deterministic: the same seed gives the same ids and keys', async () => {
    const run = async (seed: number | string) => {
      const w = await createWorld({ seed });
      const { admin: adm, apiKey } = await setupAdmin(w.deps, admin);
      return [adm.id, apiKey];
    };
    expect(await run(5)).to.deep.equal(await run(5));
    expect(await run(5)).to.not.deep.equal(await run(6));
  });

  it('starts the manual clock at startTime and moves it only through advance/setTime', async () => {
    const w = await createWorld({ startTime: '2025-03-01T00:00:00Z' });
    expect(w.deps.clock.now()).to.equal(Date.UTC(2025, 2, 1));
    await w.advance(1000);
    expect(w.deps.clock.now()).to.equal(Date.UTC(2025, 2, 1) + 1000);
    await w.setTime(Date.UTC(2025, 2, 2));
    expect(w.deps.clock.now()).to.equal(Date.UTC(2025, 2, 2));
    let err: unknown;
    try { await w.setTime(0); } catch (e) { err = e; }
    expect(String(err)).to.match(/only moves forward/);
  });

  it('rejects bad options with clear errors', async () => {
    for (const [opts, msg] of [
      [{ startTime: 'yesterday' }, /startTime/], [{ snapshotIntervalMs: 10 }, /snapshotIntervalMs/],
      [{ evmChains: ['svm'] }, /evmChains/], [{ maxTradePercentage: 0 }, /maxTradePercentage/],
    ] as const) {
      let err: unknown;
      try { await createWorld(opts as never); } catch (e) { err = e; }
      expect(String(err)).to.match(msg);
    }
  });
});

describe('World snapshot/restore', () => {
  it('restores store, clock and RNG state, so a restored world replays identically (twice)', async () => {
    const w = await createWorld({ seed: 'fork' });
    await setupAdmin(w.deps, admin);
    const snap = await w.snapshot();
    const t0 = w.deps.clock.now();
    const run = async () => {
      await w.restore(snap);
      await w.advance(5000);
      const r = await registerUser(w.deps, { walletAddress: '0x' + 'a'.repeat(40), agentName: 'Forky' });
      return { user: r.user.id, key: r.apiKey, now: w.deps.clock.now(), dump: await w.dump() };
    };
    const first = await run();
    const second = await run();
    expect(second).to.deep.equal(first);
    await w.restore(snap);
    expect(w.deps.clock.now()).to.equal(t0);
    expect(await w.deps.store.read((tx) => tx.count('users'))).to.equal(0);
  });

  it('round-trips dump and load into a fresh world, RNG included', async () => {
    const a = await createWorld({ seed: 3 });
    await setupAdmin(a.deps, admin);
    const dump = JSON.parse(JSON.stringify(await a.dump()));
    const b = await createWorld({ seed: 999 });
    await b.load(dump);
    expect(await b.dump()).to.deep.equal(dump);
    const next = (w: typeof a) => registerUser(w.deps, { walletAddress: '0x' + 'b'.repeat(40) }).then((r) => r.user.id);
    expect(await next(b)).to.equal(await next(a));
  });

  it('rejects an unknown snapshot id', async () => {
    const w = await createWorld();
    let err: unknown;
    try { await w.restore('snap-404'); } catch (e) { err = e; }
    expect(String(err)).to.match(/unknown snapshot/);
  });

  it('resets to the seeded baseline, or rebuilds it for a new seed', async () => {
    const w = await createWorld({ seed: 1, admin: {} });
    const baseline = await w.dump();
    await registerUser(w.deps, { walletAddress: '0x' + 'c'.repeat(40) });
    await w.advance(60_000);
    await w.reset();
    expect(await w.dump()).to.deep.equal(baseline);
    const key1 = w.adminKey;
    await w.reset(2);
    expect(w.adminKey).to.not.equal(key1);
    expect(await w.deps.store.read((tx) => tx.count('arenas'))).to.equal(4);
    const fresh = await createWorld({ seed: 2, admin: {} });
    expect(w.adminKey).to.equal(fresh.adminKey);
  });
});
