// Composition root: builds clock, ids, secrets, prices, store and scheduler into an isolated World.
import { readFileSync } from 'node:fs';
import { ManualClock } from './adapters/clock/manual-clock.js';
import { SystemClock } from './adapters/clock/system-clock.js';
import { NodeSecrets } from './adapters/crypto/node-secrets.js';
import { SeededIds } from './adapters/ids/seeded-ids.js';
import { MemoryStore } from './adapters/memory/memory-store.js';
import { Catalogue, readTokensFile } from './adapters/prices/catalogue.js';
import { buildFeed } from './adapters/prices/feeds.js';
import { FeedPriceSource } from './adapters/prices/price-source.js';
import { resolveConfig, type WorldOptions } from './config.js';
import { seedDefaultArenas } from './domain/arenas.js';
import type { Deps, WorldConfig } from './domain/deps.js';
import { TABLES, type Tables } from './domain/tables.js';
import { createConfiguredAdmin, loadFixture, type LoadedFixture } from './fixture.js';
import type { StoreDump, StoreSnapshot } from './ports/store.js';
import { runUntil, type Job } from './sim/scheduler.js';

/** A fresh, isolated simulated service. */
export interface World {
  deps: Deps;
  config: WorldConfig;
  /** Virtual instant the world was created (health `uptime` counts from here). */
  createdAt: number;
  /** Admin key created from options or fixture (null when none was configured). */
  adminKey: string | null;
  /** What the fixture created (agents with keys, competitions). */
  fixture: LoadedFixture;
  /** Moves time forward by `ms`, running due scheduler jobs in due-time order. */
  advance(ms: number): Promise<Job[]>;
  /** Moves time forward to `ms` (never backwards). */
  setTime(ms: number): Promise<Job[]>;
  snapshot(): Promise<string>;
  restore(id: string): Promise<void>;
  dump(): Promise<StoreDump>;
  load(d: StoreDump): Promise<void>;
  /** Back to the seeded baseline (a different seed rebuilds it from scratch). */
  reset(seed?: number | string): Promise<void>;
}

let cachedVersion: string | undefined;

/** Version from package.json (read once). */
export function packageVersion(): string {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    cachedVersion = pkg.version ?? '1.0.0';
  }
  return cachedVersion;
}

/** Builds a world; the only place where adapters meet the domain. */
export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const config = resolveConfig(options, packageVersion());
  let clock: ManualClock | SystemClock;
  if (options.clock === 'system') {
    clock = new SystemClock();
    // Wall time unless a start time was asked for explicitly.
    if (options.startTime !== undefined || options.fixture?.startTime !== undefined) clock.set(config.startTime);
    else config.startTime = clock.now();
  } else {
    clock = new ManualClock(config.startTime);
  }
  const ids = new SeededIds(config.seed);
  const catalogue = new Catalogue(options.tokens ?? readTokensFile());
  const feedDef = options.prices ?? options.fixture?.prices ?? { kind: 'constant' as const };
  const prices = new FeedPriceSource(catalogue, buildFeed(feedDef, config.seed, config.startTime));
  const store = new MemoryStore<Tables>(TABLES, { freeze: options.freezeRows ?? false });
  store.attach('clock', clock);
  store.attach('ids', ids);
  store.attach('priceOverrides', prices.overrides);
  const deps: Deps = { store, clock, prices, ids, secrets: new NodeSecrets(options.rootKey ?? 'compsim-root-key'), config };

  const createdAt = clock.now();
  const snapshots = new Map<string, StoreSnapshot>();
  let snapCount = 0;

  const build = async () => {
    await seedDefaultArenas(deps);
    const admin = options.admin ?? options.fixture?.admin;
    const adminKey = admin ? await createConfiguredAdmin(deps, admin) : null;
    const fixture = options.fixture ? await loadFixture(deps, options.fixture) : { agents: [], competitions: [] };
    return { adminKey, fixture };
  };
  const built = await build();
  let baseline = await store.snapshot();

  const world: World = {
    deps, config, createdAt, adminKey: built.adminKey, fixture: built.fixture,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new Error('advance: ms must be a finite number >= 0'));
      return runUntil(deps, clock, clock.now() + ms);
    },
    setTime(ms) {
      if (!Number.isFinite(ms)) return Promise.reject(new Error('setTime: not a finite time'));
      if (ms < clock.now()) return Promise.reject(new Error('setTime: time only moves forward'));
      return runUntil(deps, clock, ms);
    },
    async snapshot() {
      const id = `snap-${++snapCount}`;
      snapshots.set(id, await store.snapshot());
      return id;
    },
    async restore(id) {
      const s = snapshots.get(id);
      if (!s) throw new Error(`restore: unknown snapshot ${id}`);
      await store.restore(s);
    },
    dump: () => store.dump(),
    load: (d) => store.load(d),
    async reset(seed) {
      if (seed === undefined || seed === config.seed) {
        await store.restore(baseline);
        return;
      }
      // A new seed: rebuild the baseline from an empty store with fresh ids and the start time.
      const empty = await store.dump();
      for (const k of Object.keys(empty.tables)) empty.tables[k] = [];
      empty.seqs = {};
      empty.aux = { clock: clock.capture(), ids: new SeededIds(seed).capture(), priceOverrides: [] };
      await store.load(empty);
      clock.set(config.startTime);
      config.seed = seed;
      prices.setFeed(buildFeed(feedDef, seed, config.startTime));
      const again = await build();
      world.adminKey = again.adminKey;
      world.fixture = again.fixture;
      baseline = await store.snapshot();
    },
  };
  return world;
}
