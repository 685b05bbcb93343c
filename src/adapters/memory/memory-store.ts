// In-memory Store adapter: copy-on-write tables with indexes, a serial call queue, undo-log rollback, snapshots and dumps.
import type {
  AuxState, ReadTx, Schema, Store, StoreDump, StoreSnapshot, WriteTx,
} from '../../ports/store.js';
import { Generation } from './persistent.js';
import { TableData, deepFreeze, type TableState, type UndoLog } from './table-data.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Deep-freeze every stored row so accidental mutation throws (tests). */
  freeze?: boolean;
}

/** Rows of one table in a snapshot: a captured (shared) table, or plain rows by id in insertion order. */
type SnapTable = TableState | Map<string | number, unknown>;

interface Snap extends StoreSnapshot {
  tables: Map<string, SnapTable>;
  seqs: Map<string, number>;
  aux: Map<string, unknown>;
}

/** Undo-log marker of a sequence change (in the table slot). */
const SEQ = Symbol('seq');

/** Stores made so far: each store's queue runner gets a distinct function name. */
let storeCount = 0;

const NESTED = 'store call nested inside another store call: use the tx you were given';

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
    tables: Object.fromEntries([...snap.tables].map(([n, t]) => [n, t instanceof Map ? [...t.values()] : TableData.rowsOf(t)])),
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
  const snap: Snap = { kind: 'compsim-snapshot', tables: new Map(tables), seqs, aux };
  return snap;
}

/** One attached aux state and the last capture of it (reused while its version is unchanged). */
interface AuxEntry { name: string; aux: AuxState; version: number | undefined; captured: unknown }

/**
 * Read operations of a call. One small object per call; its methods are on the prototype (no
 * closures per call).
 */
class MemoryReadTx<T> implements ReadTx<T> {
  constructor(protected readonly store: MemoryStore<T>) {}

  async get<K extends keyof T>(table: K, id: string | number): Promise<T[K] | undefined> {
    return this.store.table(table).get(id) as T[K] | undefined;
  }

  async all<K extends keyof T>(table: K): Promise<T[K][]> {
    return this.store.table(table).all() as T[K][];
  }

  async find<K extends keyof T>(table: K, index: string, key: string): Promise<T[K][]> {
    return this.store.table(table).find(index, key) as T[K][];
  }

  async count<K extends keyof T>(table: K, index?: string, key?: string): Promise<number> {
    return this.store.table(table).count(index, key);
  }

  async slice<K extends keyof T>(table: K, index: string, key: string, start: number, end?: number): Promise<T[K][]> {
    return this.store.table(table).slice(index, key, start, end) as T[K][];
  }

  async version<K extends keyof T>(table: K): Promise<number> {
    return this.store.table(table).version;
  }
}

/** Write operations of a transaction; every change is logged in the transaction's undo log. */
class MemoryWriteTx<T> extends MemoryReadTx<T> implements WriteTx<T> {
  constructor(store: MemoryStore<T>, private readonly undo: UndoLog) {
    super(store);
  }

  async insert<K extends keyof T>(table: K, row: T[K]): Promise<T[K]> {
    return this.store.write(table, row, true, this.undo) as T[K];
  }

  async put<K extends keyof T>(table: K, row: T[K]): Promise<T[K]> {
    return this.store.write(table, row, false, this.undo) as T[K];
  }

  async delete<K extends keyof T>(table: K, id: string | number): Promise<boolean> {
    return this.store.remove(table, id, this.undo);
  }

  async nextSeq(name: string): Promise<number> {
    return this.store.nextSeq(name, this.undo);
  }
}

/** Memory implementation of the {@link Store} port. */
export class MemoryStore<T> implements Store<T> {
  /** Copy-on-write generation shared by all tables: snapshot and restore start a new one. */
  private readonly gen = new Generation();
  private readonly tables = new Map<string, TableData>();
  private seqs = new Map<string, number>();
  private readonly auxes: AuxEntry[] = [];
  /** The last list {@link captureAuxList} gave (null after an attach). */
  private auxList: unknown[] | null = null;
  /** Calls queued or running. */
  private pending = 0;
  /** Settles when the last queued call has. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Tables whose deletes left them sparse: compacted after the transaction commits. */
  private readonly sparse = new Set<TableData>();
  /** Name of this store's queue runner, found on the (async) stack of a nested call. */
  private readonly marker: string;
  /** Runs one call: a read (`undo` null) or a transaction with its undo log. */
  private readonly runner: <R>(fn: (tx: MemoryWriteTx<T>) => Promise<R>, write: boolean) => Promise<R>;

  constructor(private readonly schema: Schema<T>, private readonly options: MemoryStoreOptions = {}) {
    for (const [name, def] of Object.entries(schema) as [string, { indexes?: Record<string, (r: unknown) => string | null> }][]) {
      this.tables.set(name, new TableData(def.indexes ?? {}, this.gen));
    }
    const marker = `compsimStoreCall${++storeCount}`;
    const store = this;
    // A method with a computed name: V8 names its frames (sync and async) after this store. One
    // async layer per call: the transaction's undo and aux rollback live here too.
    const named = {
      async [marker]<R>(fn: (tx: MemoryWriteTx<T>) => Promise<R>, write: boolean): Promise<R> {
        try {
          if (!write) return await fn(store.reader as MemoryWriteTx<T>);
          const undo: UndoLog = [];
          const auxBefore = store.captureAuxList();
          try {
            const result = await fn(new MemoryWriteTx(store, undo));
            if (store.sparse.size > 0) store.compactSparse();
            return result;
          } catch (err) {
            store.rollback(undo, auxBefore);
            throw err;
          }
        } finally {
          store.pending -= 1;
        }
      },
    } as Record<string, <R>(fn: (tx: MemoryWriteTx<T>) => Promise<R>, write: boolean) => Promise<R>>;
    this.marker = marker;
    this.runner = named[marker]!;
  }

  /** The read handle (stateless, so one per store). */
  private readonly reader: MemoryReadTx<T> = new MemoryReadTx(this);

  attach(name: string, aux: AuxState): void {
    const entry: AuxEntry = { name, aux, version: undefined, captured: undefined };
    this.auxList = null;
    const at = this.auxes.findIndex((e) => e.name === name);
    if (at >= 0) this.auxes[at] = entry;
    else this.auxes.push(entry);
  }

  read<R>(fn: (tx: ReadTx<T>) => Promise<R>): Promise<R> {
    return this.enqueue(fn, false);
  }

  transact<R>(fn: (tx: WriteTx<T>) => Promise<R>): Promise<R> {
    return this.enqueue(fn, true);
  }

  snapshot(): Promise<StoreSnapshot> {
    return this.enqueue(async () => this.state.snapshot(), false);
  }

  restore(s: StoreSnapshot): Promise<void> {
    checkSnapshot(s);
    return this.enqueue(async () => this.state.restore(s), false);
  }

  dump(): Promise<StoreDump> {
    return this.enqueue(async () => this.state.dump(), false);
  }

  load(d: StoreDump): Promise<void> {
    checkDump(d);
    return this.enqueue(async () => this.state.load(d), false);
  }

  /**
   * Runs `fn` in the serial queue like any other call, with synchronous access to the whole state.
   * For adapters that wrap this store (the file store journals a restore, a load or a compaction
   * point at its exact position in the queue).
   */
  exclusive<R>(fn: (state: MemoryStoreState) => R | Promise<R>): Promise<R> {
    return this.enqueue(async () => fn(this.state), false);
  }

  /** The synchronous whole-state operations behind snapshot, restore, dump, load and exclusive. */
  private readonly state: MemoryStoreState = {
    snapshot: () => {
      const snap: Snap = {
        kind: 'compsim-snapshot',
        tables: new Map([...this.tables].map(([n, t]) => [n, t.capture()])),
        seqs: new Map(this.seqs),
        aux: this.captureAux(),
      };
      // From here on the live tables copy what they change: the snapshot's nodes stay as they are.
      this.gen.next();
      return snap;
    },
    restore: (s) => {
      const snap = checkSnapshot(s);
      for (const [name, t] of this.tables) {
        const src = snap.tables.get(name);
        if (src === undefined || src instanceof Map) {
          t.load(src ?? []);
          // Keep the converted form: restoring the same snapshot again shares it instead of rebuilding.
          if (src !== undefined) snap.tables.set(name, t.capture());
        } else {
          t.install(src);
        }
      }
      this.gen.next();
      this.sparse.clear();
      this.seqs = new Map(snap.seqs);
      this.applyAux(snap.aux);
    },
    dump: () => ({
      format: 'compsim-world' as const,
      version: DUMP_VERSION,
      tables: Object.fromEntries([...this.tables].map(([n, t]) => [n, structuredClone(t.all())])),
      seqs: Object.fromEntries(this.seqs),
      aux: Object.fromEntries(this.captureAux()),
    }),
    load: (d) => {
      checkDump(d);
      for (const [name, t] of this.tables) {
        const rows = (d.tables[name] ?? []) as { id: string | number }[];
        t.load(rows.map((r) => [r.id, this.prepare(structuredClone(r))] as [string | number, unknown]));
      }
      this.sparse.clear();
      this.seqs = new Map(Object.entries(d.seqs ?? {}));
      this.applyAux(new Map(Object.entries(d.aux ?? {})));
    },
  };

  /**
   * Runs `fn` after every earlier call has settled, at once when the store is idle. A call made
   * while another runs is rejected when it comes from inside that call (it would deadlock the
   * queue): its stack, async frames included, then holds this store's runner. Only checked when
   * busy, so a store used one call at a time pays nothing for it (unlike AsyncLocalStorage, whose
   * hooks tax every promise in the process).
   */
  private enqueue<R>(fn: (tx: MemoryWriteTx<T>) => Promise<R>, write: boolean): Promise<R> {
    if (this.pending === 0) {
      this.pending = 1;
      const p = this.runner(fn, write);
      this.tail = p;
      return p;
    }
    if (this.calledFromInside()) return Promise.reject(new Error(NESTED));
    this.pending += 1;
    const start = () => this.runner(fn, write);
    const p = this.tail.then(start, start);
    this.tail = p;
    return p;
  }

  /** True when this store's runner is on the current (async) stack. */
  private calledFromInside(): boolean {
    const prepare = Error.prepareStackTrace;
    const limit = Error.stackTraceLimit;
    try {
      Error.prepareStackTrace = (_err, sites) => sites;
      Error.stackTraceLimit = Infinity;
      const holder: { stack?: NodeJS.CallSite[] } = {};
      Error.captureStackTrace(holder);
      return (holder.stack ?? []).some((site) => site.getFunctionName() === this.marker);
    } finally {
      Error.prepareStackTrace = prepare;
      Error.stackTraceLimit = limit;
    }
  }

  /** Reverts a failed transaction: its logged changes newest first, then every aux state. */
  private rollback(undo: UndoLog, auxBefore: unknown[]): void {
    for (let i = undo.length - 4; i >= 0; i -= 4) {
      const t = undo[i];
      if (t === SEQ) {
        const prev = undo[i + 2] as number | undefined;
        if (prev === undefined) this.seqs.delete(undo[i + 1] as string);
        else this.seqs.set(undo[i + 1] as string, prev);
      } else {
        (t as TableData).undo(undo[i + 1] as string | number, undo[i + 2], undo[i + 3] as number);
      }
    }
    this.sparse.clear();
    for (let i = 0; i < auxBefore.length; i++) this.auxes[i]!.aux.apply(auxBefore[i]);
  }

  private compactSparse(): void {
    for (const t of this.sparse) if (t.sparse) t.compact();
    this.sparse.clear();
  }

  /** @internal The table named `name` (tx objects). */
  table(name: PropertyKey): TableData {
    const t = this.tables.get(String(name));
    if (!t) throw new Error(`unknown table ${String(name)}`);
    return t;
  }

  /** @internal Insert (`mustBeNew`) or put of a row, logged in `undo`. */
  write(table: PropertyKey, row: unknown, mustBeNew: boolean, undo: UndoLog): unknown {
    const t = this.table(table);
    const id = row !== null && typeof row === 'object' ? (row as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') throw new Error(`${String(table)}: row needs a string or number id`);
    if (!t.set(id, row, undo, mustBeNew)) throw new Error(`${String(table)}: duplicate key ${id}`);
    // Freezing happens in place, so the stored object is the one just set.
    return this.prepare(row);
  }

  /** @internal Delete of a row, logged in `undo`. */
  remove(table: PropertyKey, id: string | number, undo: UndoLog): boolean {
    const t = this.table(table);
    if (!t.remove(id, undo)) return false;
    if (t.sparse) this.sparse.add(t);
    return true;
  }

  /** @internal The next value of a sequence, logged in `undo`. */
  nextSeq(name: string, undo: UndoLog): number {
    const prev = this.seqs.get(name);
    const next = (prev ?? 0) + 1;
    this.seqs.set(name, next);
    undo.push(SEQ, name, prev, 0);
    return next;
  }

  private prepare<R>(row: R): R {
    return this.options.freeze ? deepFreeze(row) : row;
  }

  /**
   * Captures of every aux state, in attach order. An aux state with a `version()` is captured
   * again only once its version changed; otherwise its last capture is reused, and while no
   * version moved the list itself is the last one (callers only read it).
   */
  private captureAuxList(): unknown[] {
    let same = this.auxList !== null;
    for (const e of this.auxes) {
      const version = e.aux.version?.();
      if (version === undefined) {
        same = false;
        e.captured = e.aux.capture();
      } else if (version !== e.version) {
        same = false;
        e.captured = e.aux.capture();
        e.version = version;
      }
    }
    if (same) return this.auxList!;
    const list = this.auxes.map((e) => e.captured);
    this.auxList = list;
    return list;
  }

  private captureAux(): Map<string, unknown> {
    const list = this.captureAuxList();
    return new Map(this.auxes.map((e, i) => [e.name, list[i]]));
  }

  private applyAux(values: Map<string, unknown>): void {
    for (const e of this.auxes) if (values.has(e.name)) e.aux.apply(values.get(e.name));
  }
}
