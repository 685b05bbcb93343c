// Composition root: builds clock, ids, secrets, prices, store and scheduler into an isolated World.
import { readFileSync } from 'node:fs';
import { ManualClock } from '../adapters/clock/manual-clock.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { NodeSecrets } from '../adapters/crypto/node-secrets.js';
import { SeededIds } from '../adapters/ids/seeded-ids.js';
import { MemoryStore } from '../adapters/memory/memory-store.js';
import { Catalogue, readTokensFile } from '../adapters/prices/catalogue.js';
import { buildFeed } from '../adapters/prices/feeds.js';
import { FeedPriceSource } from '../adapters/prices/price-source.js';
import { resolveConfig, type ResolvedWorldOptions, type WorldOptions } from './config.js';
import { Caches } from '../domain/data/caches.js';
import { seedDefaultArenas } from '../domain/competitions/arenas.js';
import type { Deps, WorldConfig } from '../domain/deps.js';
import { TABLES, type Tables } from '../domain/tables.js';
import { drawAdminIdentity } from '../domain/access/admins.js';
import { createConfiguredAdmin, fixtureDocument, loadFixture, type LoadedFixture } from './fixture.js';
import { FaultTable } from '../adapters/faults/fault-table.js';
import { RequestJournal } from '../http/journal.js';
import { RateLimiter } from '../http/rate-limit.js';
import type { SimControl } from '../http/world-port.js';
import type { WorldsControl } from '../http/worlds.js';
import type { AuxState, Store, StoreDump, StoreSnapshot } from '../ports/store.js';
import { SyntheticTokens } from '../adapters/prices/synthetic.js';
import type { WorldPersistence } from './persistence.js';
import { runUntil, type Job } from './scheduler.js';
import { contentProblem } from './dump-check.js';
import { OptionError } from './options-check.js';
import { errorMessage } from './world-dirs.js';
import { CLOCK_RANGE_TEXT, inClockRange } from '../ports/clock.js';
import { createSimControl } from './sim-control.js';

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
  /** Replaces the world with a dump; a document that fails the checks of POST /api/sim/load throws SIM_BAD_DUMP and changes nothing. */
  load(d: StoreDump): Promise<void>;
  /**
   * Back to the seeded baseline of the creation options; `seed` and `opts.options` rebuild it
   * with those replaced (not cumulative: each reset starts from the creation options), and
   * `opts.adminKey` creates the admin with that key; `opts.admin: false` leaves the world without
   * any admin (so `POST /api/admin/setup` works again). Drops snapshots, faults and the journal.
   */
  reset(seed?: number | string, opts?: { options?: ResettableOptions; adminKey?: string; admin?: false }): Promise<void>;
  /** Simulation control behind `/api/sim/*`, the rate limiter, faults and the request journal. */
  sim: SimControl;
  /** The worlds of the server holding this one (set by its WorldHost); absent for a world on its own. */
  worlds?: WorldsControl;
}

/** World options a reset may replace (the JSON-serialisable ones). */
export const RESETTABLE_OPTIONS = [
  'startTime', 'prices', 'slippage', 'snapshotIntervalMs', 'maxTradePercentage', 'evmChains', 'defaultInitialBalances',
  'defaultTradingConstraints', 'leaderboardAccess', 'rateLimits', 'fixture', 'apiVersion', 'unknownTokens',
] as const;

/** The options of {@link RESETTABLE_OPTIONS}. */
export type ResettableOptions = Pick<WorldOptions, (typeof RESETTABLE_OPTIONS)[number]>;

/** One built state of a world; a reset with new options swaps the whole core under the World facade. */
export interface WorldCore {
  deps: Deps;
  clock: ManualClock | SystemClock;
  store: Store<Tables>;
  prices: FeedPriceSource;
  faults: FaultTable;
  /** Null when rate limiting is off. */
  limiter: RateLimiter | null;
  createdAt: number;
  adminKey: string | null;
  fixture: LoadedFixture;
}

/**
 * The world's API version and unknown-token mode as an aux state, so snapshots, dumps and the
 * file journal carry them: loading a dump of a `2025-10` world with synthetic tokens gives a
 * `2025-10` world with synthetic tokens. A document without it leaves them as they are.
 */
class WorldMode implements AuxState {
  private changes = 0;

  constructor(private readonly config: WorldConfig, private readonly synthetic: SyntheticTokens) {}

  version(): number {
    return this.changes;
  }

  capture(): unknown {
    return { apiVersion: this.config.apiVersion, unknownTokens: this.config.unknownTokens };
  }

  apply(v: unknown): void {
    const m = v as { apiVersion: WorldConfig['apiVersion']; unknownTokens: WorldConfig['unknownTokens'] };
    this.config.apiVersion = m.apiVersion;
    this.config.unknownTokens = m.unknownTokens;
    this.synthetic.enabled = m.unknownTokens === 'synthetic';
    this.changes += 1;
  }
}

let cachedVersion: string | undefined;

/** Version from package.json (read once). */
export function packageVersion(): string {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    cachedVersion = pkg.version ?? '1.0.0';
  }
  return cachedVersion;
}

/** `o` with its fixture as a document (a bundled world's name read); an unknown name is an OptionError naming `fixture`. */
export function withFixtureDocument(o: WorldOptions): ResolvedWorldOptions {
  if (typeof o.fixture !== 'string') return o as ResolvedWorldOptions;
  try {
    return { ...o, fixture: fixtureDocument(o.fixture) };
  } catch (err) {
    throw new OptionError('fixture', errorMessage(err));
  }
}

/** Builds one core: adapters, store with aux states, seeded arenas, admin and fixture. */
async function buildCore(options: ResolvedWorldOptions, persistence?: WorldPersistence): Promise<WorldCore> {
  const config = resolveConfig(options, packageVersion());
  const rateLimits = options.rateLimits ?? 'off';
  if (rateLimits !== 'upstream' && rateLimits !== 'off') throw new OptionError('rateLimits', `must be upstream or off, got ${String(rateLimits)}`);
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
  const faults = new FaultTable();
  const synthetic = new SyntheticTokens(config.unknownTokens === 'synthetic', config.seed, feedDef, config.startTime);
  const prices = new FeedPriceSource(catalogue, buildFeed(feedDef, config.seed, config.startTime), faults, synthetic);
  const limiter = rateLimits === 'upstream' ? new RateLimiter() : null;
  const store = persistence ? persistence.newStore(options.freezeRows ?? false) : new MemoryStore<Tables>(TABLES, { freeze: options.freezeRows ?? false });
  store.attach('clock', clock);
  store.attach('ids', ids);
  store.attach('priceOverrides', prices.overrides);
  store.attach('priceTapes', prices.tapes);
  store.attach('faults', faults);
  if (limiter) store.attach('rateLimits', limiter);
  store.attach('mode', new WorldMode(config, synthetic));
  const deps: Deps = { store, clock, prices, ids, secrets: new NodeSecrets(options.rootKey ?? 'compsim-root-key'), config, caches: new Caches() };

  const createdAt = clock.now();
  await seedDefaultArenas(deps);
  // The admin's key, salt and id are drawn whether or not the world has an admin and whether or
  // not its key is given, so neither moves the ids and keys drawn after them: one fixture and seed
  // give the same world through every door (serve with or without --admin-key, created worlds,
  // scenarios, the library).
  const identity = await store.transact(() => drawAdminIdentity(ids));
  const admin = options.admin ?? options.fixture?.admin;
  const adminKey = admin ? await createConfiguredAdmin(deps, admin, identity) : null;
  const fixture = options.fixture ? await loadFixture(deps, options.fixture) : { agents: [], competitions: [] };
  return { deps, clock, store, prices, faults, limiter, createdAt, adminKey, fixture };
}

/**
 * Why a core's state could not be loaded back from its own dump (the checks of `POST /api/sim/load`),
 * or null: what a fixture or options put into the store must survive dump and load.
 */
export async function storedProblem(world: { deps: Deps }): Promise<string | null> {
  const d = await world.deps.store.dump();
  return contentProblem(d.tables, d.seqs, d.aux, { secrets: world.deps.secrets });
}

/** Runs due jobs up to `target`, then moves the clock there inside a transaction (journaled; no rollback undoes it). */
async function moveClock(core: WorldCore, target: number): Promise<Job[]> {
  if (!inClockRange(target)) throw new Error(`the clock would reach ${target} ms, outside its range (${CLOCK_RANGE_TEXT})`);
  const ran = await runUntil(core.deps, core.clock, target);
  await core.store.transact(() => {
    if (target > core.clock.now()) core.clock.set(target);
  });
  return ran;
}

/** The creation options with a reset's seed, options and admin key on top. */
function resetOptions(base: WorldOptions, seed: number | string | undefined, opts: { options?: ResettableOptions; adminKey?: string; admin?: false }): ResolvedWorldOptions {
  const o = withFixtureDocument({ ...base, ...opts.options });
  if (seed !== undefined) o.seed = seed;
  if (opts.admin === false) {
    delete o.admin;
    if (o.fixture?.admin) {
      const { admin: _a, ...fixture } = o.fixture;
      o.fixture = fixture;
    }
  } else if (opts.adminKey !== undefined) o.admin = { ...(o.admin ?? o.fixture?.admin), apiKey: opts.adminKey };
  return o;
}

/**
 * Builds a world; the only place where adapters meet the domain. The World is a facade over its
 * current core: `deps`, `config` and friends are read through it on every call, so a reset that
 * swaps the core leaves no stale reference in a running server.
 */
export async function createWorld(given: WorldOptions = {}, persistence?: WorldPersistence): Promise<World> {
  const options = withFixtureDocument(persistence ? persistence.options(given) : given);
  const first = await buildCore(options, persistence);
  const baseline = await first.store.snapshot();
  let core = first;
  const snapshots = new Map<string, StoreSnapshot>();
  let snapCount = 0;
  if (persistence) {
    const opened = await persistence.open(options, first, (r) => buildCore(resetOptions(options, r.seed, r), persistence));
    core = opened.core;
    for (const [id, s] of opened.snapshots) snapshots.set(id, s);
    snapCount = snapshots.size;
  }
  const journal = new RequestJournal();

  const world: World = {
    get deps() { return core.deps; },
    get config() { return core.deps.config; },
    get createdAt() { return core.createdAt; },
    get adminKey() { return core.adminKey; },
    get fixture() { return core.fixture; },
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) return Promise.reject(new Error('advance: ms must be a finite number >= 0'));
      return moveClock(core, core.clock.now() + ms);
    },
    setTime(ms) {
      if (!Number.isFinite(ms)) return Promise.reject(new Error('setTime: not a finite time'));
      if (ms < core.clock.now()) return Promise.reject(new Error('setTime: time only moves forward'));
      return moveClock(core, ms);
    },
    async snapshot() {
      const id = `snap-${++snapCount}`;
      const s = await core.store.snapshot();
      snapshots.set(id, s);
      await persistence?.saveSnapshot(core, id, s);
      return id;
    },
    async restore(id) {
      const s = snapshots.get(id);
      if (!s) throw new Error(`restore: unknown snapshot ${id}`);
      await core.store.restore(s);
    },
    dump: () => core.store.dump(),
    // Checked like POST /api/sim/load: a bad document throws SIM_BAD_DUMP and changes nothing.
    load: (d) => world.sim.load(d),
    async reset(seed, opts = {}) {
      const sameAsCreated = (seed === undefined || seed === first.deps.config.seed)
        && Object.keys(opts.options ?? {}).length === 0 && (opts.adminKey === undefined || opts.adminKey === first.adminKey)
        && (opts.admin !== false || first.adminKey === null);
      if (sameAsCreated) {
        await first.store.restore(baseline);
        core = first;
      } else {
        // Built aside and swapped only once complete and loadable: bad options leave the running world untouched.
        const next = await buildCore(resetOptions(options, seed, opts), persistence);
        const problem = await storedProblem(next);
        if (problem) throw new Error(`the world these options build would not load back from its own dump: ${problem}`);
        core = next;
      }
      await persistence?.activate(core, sameAsCreated ? null : { ...(seed !== undefined ? { seed } : {}), ...opts });
      snapshots.clear();
      snapCount = 0;
      journal.clear();
    },
    sim: undefined as unknown as SimControl,
  };
  world.sim = createSimControl(world, { core: () => core, hasSnapshot: (id) => snapshots.has(id), journal });
  return world;
}
