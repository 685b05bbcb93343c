// In-memory Store adapter: tables with indexes, a serial call queue, undo-log rollback, snapshots and dumps.
import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  AuxState, ReadTx, Schema, Store, StoreDump, StoreSnapshot, WriteTx,
} from '../../ports/store.js';
import { TableData, deepFreeze } from './table-data.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Deep-freeze every stored row so accidental mutation throws (tests). */
  freeze?: boolean;
}

interface Snap extends StoreSnapshot {
  tables: Map<string, Map<string | number, unknown>>;
  seqs: Map<string, number>;
  aux: Map<string, unknown>;
}

type Undo = () => void;

/**
 * One context for every store: which store's call is running. A single module-level instance,
 * because each AsyncLocalStorage adds work to every promise in the process and tests create
 * hundreds of worlds.
 */
const running = new AsyncLocalStorage<object>();

/** Current dump format version. */
export const DUMP_VERSION = 1;

/** Synchronous whole-state operations, handed out by {@link MemoryStore.exclusive} inside the serial queue. */
export interface MemoryStoreState {
  snapshot(): StoreSnapshot;
  restore(s: StoreSnapshot): void;
  /** A deep copy. */
  dump(): StoreDump;
  load(d: StoreDump): void;
}

function checkSnapshot(s: StoreSnapshot): Snap {
  const snap = s as Snap;
  if (!snap || !(snap.tables instanceof Map)) throw new Error('restore: not a snapshot of this store');
  return snap;
}

function checkDump(d: StoreDump): void {
  if (!d || d.format !== 'compsim-world') throw new Error('load: not a compsim-world dump');
  if (d.version !== DUMP_VERSION) throw new Error(`load: unsupported dump version ${String(d.version)}`);
}

/** A snapshot of this adapter as a dump; rows are shared, not copied (stored rows are immutable). */
export function snapshotDump(s: StoreSnapshot): StoreDump {
  const snap = checkSnapshot(s);
  return {
    format: 'compsim-world',
    version: DUMP_VERSION,
    tables: Object.fromEntries([...snap.tables].map(([n, rows]) => [n, [...rows.values()]])),
    seqs: Object.fromEntries(snap.seqs),
    aux: Object.fromEntries(snap.aux),
  };
}

/** A snapshot made from a dump without copying its rows, restorable into a MemoryStore of the same schema. */
export function snapshotFromDump(d: StoreDump): StoreSnapshot {
  checkDump(d);
  return snapshotOfMaps(
    new Map(Object.entries(d.tables).map(([n, rows]) => [n, new Map((rows as { id: string | number }[]).map((r) => [r.id, r]))])),
    new Map(Object.entries(d.seqs ?? {})),
    new Map(Object.entries(d.aux ?? {})),
  );
}

/** A snapshot of rows already in maps (table -> id -> row, insertion order), sequences and aux captures; nothing is copied. */
export function snapshotOfMaps(tables: Map<string, Map<string | number, unknown>>, seqs: Map<string, number>, aux: Map<string, unknown>): StoreSnapshot {
  const snap: Snap = { kind: 'compsim-snapshot', tables, seqs, aux };
  return snap;
}

/** Memory implementation of the {@link Store} port. */
export class MemoryStore<T> implements Store<T> {
  private readonly tables = new Map<string, TableData>();
  private seqs = new Map<string, number>();
  private readonly aux = new Map<string, AuxState>();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly schema: Schema<T>, private readonly options: MemoryStoreOptions = {}) {
    for (const [name, def] of Object.entries(schema) as [string, { indexes?: Record<string, (r: unknown) => string | null> }][]) {
      this.tables.set(name, new TableData(def.indexes ?? {}));
    }
  }

  attach(name: string, aux: AuxState): void {
    this.aux.set(name, aux);
  }

  read<R>(fn: (tx: ReadTx<T>) => Promise<R>): Promise<R> {
    return this.enqueue(() => fn(this.readTx()));
  }

  transact<R>(fn: (tx: WriteTx<T>) => Promise<R>): Promise<R> {
    return this.enqueue(async () => {
      const undo: Undo[] = [];
      const auxBefore = this.captureAux();
      try {
        return await fn(this.writeTx(undo));
      } catch (err) {
        for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
        this.applyAux(auxBefore);
        throw err;
      }
    });
  }

  snapshot(): Promise<StoreSnapshot> {
    return this.enqueue(async () => this.state.snapshot());
  }

  restore(s: StoreSnapshot): Promise<void> {
    checkSnapshot(s);
    return this.enqueue(async () => this.state.restore(s));
  }

  dump(): Promise<StoreDump> {
    return this.enqueue(async () => this.state.dump());
  }

  load(d: StoreDump): Promise<void> {
    checkDump(d);
    return this.enqueue(async () => this.state.load(d));
  }

  /**
   * Runs `fn` in the serial queue like any other call, with synchronous access to the whole state.
   * For adapters that wrap this store (the file store journals a restore, a load or a compaction
   * point at its exact position in the queue).
   */
  exclusive<R>(fn: (state: MemoryStoreState) => R | Promise<R>): Promise<R> {
    return this.enqueue(async () => fn(this.state));
  }

  /** The synchronous whole-state operations behind snapshot, restore, dump, load and exclusive. */
  private readonly state: MemoryStoreState = {
    snapshot: () => {
      const snap: Snap = {
        kind: 'compsim-snapshot',
        tables: new Map([...this.tables].map(([n, t]) => [n, t.copyRows()])),
        seqs: new Map(this.seqs),
        aux: this.captureAux(),
      };
      return snap;
    },
    restore: (s) => {
      const snap = checkSnapshot(s);
      for (const [name, t] of this.tables) t.replaceRows(new Map(snap.tables.get(name) ?? []));
      this.seqs = new Map(snap.seqs);
      this.applyAux(snap.aux);
    },
    dump: () => ({
      format: 'compsim-world' as const,
      version: DUMP_VERSION,
      tables: Object.fromEntries([...this.tables].map(([n, t]) => [n, structuredClone([...t.rows.values()])])),
      seqs: Object.fromEntries(this.seqs),
      aux: Object.fromEntries(this.captureAux()),
    }),
    load: (d) => {
      checkDump(d);
      for (const [name, t] of this.tables) {
        const rows = (d.tables[name] ?? []) as { id: string | number }[];
        t.replaceRows(new Map(rows.map((r) => [r.id, this.prepare(structuredClone(r))])));
      }
      this.seqs = new Map(Object.entries(d.seqs ?? {}));
      this.applyAux(new Map(Object.entries(d.aux ?? {})));
    },
  };

  /** Runs `fn` after every earlier call has settled; rejects nested calls, which would deadlock. */
  private enqueue<R>(fn: () => Promise<R>): Promise<R> {
    if (running.getStore() === this) {
      return Promise.reject(new Error('store call nested inside another store call: use the tx you were given'));
    }
    const run = this.tail.then(() => running.run(this, fn));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private table(name: PropertyKey): TableData {
    const t = this.tables.get(String(name));
    if (!t) throw new Error(`unknown table ${String(name)}`);
    return t;
  }

  private prepare<R>(row: R): R {
    return this.options.freeze ? deepFreeze(row) : row;
  }

  private captureAux(): Map<string, unknown> {
    return new Map([...this.aux].map(([n, a]) => [n, a.capture()]));
  }

  private applyAux(values: Map<string, unknown>): void {
    for (const [n, a] of this.aux) if (values.has(n)) a.apply(values.get(n));
  }

  private readTx(): ReadTx<T> {
    return {
      get: async (table, id) => this.table(table).rows.get(id) as never,
      all: async (table) => [...this.table(table).rows.values()] as never,
      find: async (table, index, key) => this.table(table).find(index, key) as never,
      count: async (table, index, key) => {
        const t = this.table(table);
        return index === undefined ? t.rows.size : t.find(index, key ?? '').length;
      },
    };
  }

  private writeTx(undo: Undo[]): WriteTx<T> {
    const write = (table: PropertyKey, row: { id: string | number }, mustBeNew: boolean) => {
      const t = this.table(table);
      if (row === null || typeof row !== 'object' || (typeof row.id !== 'string' && typeof row.id !== 'number')) {
        throw new Error(`${String(table)}: row needs a string or number id`);
      }
      if (mustBeNew && t.rows.has(row.id)) throw new Error(`${String(table)}: duplicate key ${row.id}`);
      const stored = this.prepare(row);
      const restore = t.set(row.id, stored);
      undo.push(restore);
      return stored;
    };
    return {
      ...this.readTx(),
      insert: async (table, row) => write(table, row as never, true) as never,
      put: async (table, row) => write(table, row as never, false) as never,
      delete: async (table, id) => {
        const t = this.table(table);
        if (!t.rows.has(id)) return false;
        undo.push(t.remove(id));
        return true;
      },
      nextSeq: async (name) => {
        const prev = this.seqs.get(name);
        const next = (prev ?? 0) + 1;
        this.seqs.set(name, next);
        undo.push(() => (prev === undefined ? this.seqs.delete(name) : this.seqs.set(name, prev)));
        return next;
      },
    };
  }
}
