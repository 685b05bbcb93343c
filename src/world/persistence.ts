// World-level persistence (serve --state): which core a state directory holds, its named snapshots, and journaled resets.
import { FileStore } from '../adapters/file/file-store.js';
import { StateDir, type StateDirOptions } from '../adapters/file/state-dir.js';
import { snapshotFromDump } from '../adapters/memory/memory-store.js';
import type { WorldOptions } from './config.js';
import { TABLES, type Tables } from '../domain/tables.js';
import type { Store, StoreSnapshot } from '../ports/store.js';
import type { ResettableOptions, WorldCore } from './world.js';

/** A reset's parameters (on top of the creation options), kept so a restart rebuilds the same core. */
export interface ResetParams { seed?: number | string; options?: ResettableOptions; adminKey?: string; admin?: false }

/** What a world keeps in its state directory besides the store: how to rebuild its core. */
export interface WorldMeta { kind: 'compsim-world'; created: WorldOptions; reset: ResetParams | null }

/**
 * World options that shape the stored data (ids, prices, seeding, aux states). A restart takes
 * them from the state directory; every other option (e.g. `walletDomain`) from the caller.
 */
export const WORLD_SHAPING_OPTIONS = [
  'seed', 'startTime', 'clock', 'prices', 'tokens', 'evmChains', 'maxTradePercentage', 'snapshotIntervalMs',
  'defaultInitialBalances', 'defaultTradingConstraints', 'slippage', 'leaderboardAccess', 'rateLimits', 'admin', 'fixture', 'rootKey',
  'apiVersion', 'unknownTokens',
] as const;

function shaping(o: WorldOptions): Partial<WorldOptions> {
  return Object.fromEntries(WORLD_SHAPING_OPTIONS.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

/** Hooks `createWorld` calls when the world persists; see {@link StatePersistence}. */
export interface WorldPersistence {
  /** The options to build with: `given`, with the world-shaping ones the directory recorded on top. */
  options(given: WorldOptions): WorldOptions;
  /** The store of a new core; it journals nothing until `open` or `activate` hands it the directory. */
  newStore(freeze: boolean): Store<Tables>;
  /**
   * After the first core is built: on a fresh directory records it as the initial state; otherwise
   * rebuilds the core the directory was last reset to (with `build`), loads the recovered state into
   * it and returns it with the recovered named snapshots.
   */
  open(options: WorldOptions, first: WorldCore, build: (reset: ResetParams) => Promise<WorldCore>):
    Promise<{ core: WorldCore; snapshots: Map<string, StoreSnapshot> }>;
  /** After a reset swapped `core` in: its whole state becomes the durable state; named snapshots are dropped. */
  activate(core: WorldCore, reset: ResetParams | null): Promise<void>;
  /** A named snapshot was taken; durable when this resolves. */
  saveSnapshot(core: WorldCore, id: string, s: StoreSnapshot): Promise<void>;
}

function fileStore(core: WorldCore): FileStore<Tables> {
  if (!(core.store instanceof FileStore)) throw new Error('persistence: the core was not built with a file store');
  return core.store as FileStore<Tables>;
}

function isMeta(v: unknown): v is WorldMeta {
  return !!v && typeof v === 'object' && (v as WorldMeta).kind === 'compsim-world';
}

/**
 * A world's state directory: open it (lock + recovery) before `createWorld(options, persistence)`,
 * close it after the server stopped. The creation options are stored with the state, so a restart
 * builds the same world whatever options the command line gives (see {@link recoveredOptions}).
 */
export class StatePersistence implements WorldPersistence {
  private created: WorldOptions | null;

  private constructor(readonly state: StateDir, private readonly log: StateDirOptions['log']) {
    this.created = isMeta(state.recovered?.meta) ? state.recovered.meta.created : null;
  }

  /** Locks and recovers `dir`; throws on corruption, a newer format version or another live process. */
  static async open(dir: string, options: StateDirOptions = {}): Promise<StatePersistence> {
    return new StatePersistence(await StateDir.open(dir, options), options.log);
  }

  /** The creation options recorded in the directory (null when it is new). */
  recoveredOptions(): WorldOptions | null {
    return this.created;
  }

  options(given: WorldOptions): WorldOptions {
    if (!this.created) return given;
    const stored = shaping(this.created);
    if (JSON.stringify(stored) !== JSON.stringify(shaping(given))) {
      this.log?.warn(`state directory ${this.state.dir} keeps the world it was created with: its options `
        + `(${Object.keys(stored).join(', ') || 'defaults'}) are used, not the ones given now`);
    }
    const out: WorldOptions = { ...given };
    for (const k of WORLD_SHAPING_OPTIONS) delete out[k];
    return { ...out, ...stored };
  }

  newStore(freeze: boolean): Store<Tables> {
    return new FileStore<Tables>(TABLES, { state: this.state, freeze });
  }

  async open(options: WorldOptions, first: WorldCore, build: (reset: ResetParams) => Promise<WorldCore>) {
    const rec = this.state.recovered;
    if (!rec) {
      this.created = options;
      await fileStore(first).activate({ meta: this.meta(null), clearNamed: true });
      return { core: first, snapshots: new Map<string, StoreSnapshot>() };
    }
    const meta = isMeta(rec.meta) ? rec.meta : null;
    this.created = meta?.created ?? options;
    const core = meta?.reset ? await build(meta.reset) : first;
    const snapshots = new Map([...rec.named].map(([id, d]) => [id, snapshotFromDump(d)]));
    await fileStore(core).adopt();
    return { core, snapshots };
  }

  activate(core: WorldCore, reset: ResetParams | null): Promise<void> {
    return fileStore(core).activate({ meta: this.meta(reset), clearNamed: true });
  }

  saveSnapshot(core: WorldCore, id: string, s: StoreSnapshot): Promise<void> {
    return fileStore(core).saveNamed(id, s);
  }

  /** Waits for pending writes and releases the directory. */
  close(): Promise<void> {
    return this.state.close();
  }

  private meta(reset: ResetParams | null): WorldMeta {
    return { kind: 'compsim-world', created: this.created ?? {}, reset };
  }
}
