// In-memory Store adapter: copy-on-write tables with indexes, synchronous transactions with undo-log rollback, snapshots and dumps.
import type {
  AuxState, ReadTx, Schema, Store, StoreDump, StoreSnapshot, Sync, WriteTx,
} from '../../ports/store.js';
import { Generation } from './generation.js';
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

const NESTED = 'store call nested inside another store call: use the tx you were given';
const ASYNC_BODY = 'a store call body must be synchronous: it returned a promise (its changes were rolled back)';

/** Current dump format version. */
export const DUMP_VERSION = 1;

/** Synchronous whole-state operations, handed out by {@link MemoryStore.exclusive}. */
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

/** Read operations of a call: one handle per store, its methods on the prototype. */
class MemoryReadTx<T> implements ReadTx<T> {
  constructor(protected readonly store: MemoryStore<T>) {}

  get<K extends keyof T>(table: K, id: string | number): T[K] | undefined {
    return this.store.table(table).get(id) as T[K] | undefined;
  }

  all<K extends keyof T>(table: K): T[K][] {
    return this.store.table(table).all() as T[K][];
  }

  find<K extends keyof T>(table: K, index: string, key: string): T[K][] {
    return this.store.table(table).find(index, key) as T[K][];
  }

  count<K extends keyof T>(table: K, index?: string, key?: string): number {
    return this.store.table(table).count(index, key);
  }

  slice<K extends keyof T>(table: K, index: string, key: string, start: number, end?: number): T[K][] {
    return this.store.table(table).slice(index, key, start, end) as T[K][];
  }

  version<K extends keyof T>(table: K): number {
    return this.store.table(table).version;
  }
}

/** Write operations of a transaction; every change is logged in the transaction's undo log. */
class MemoryWriteTx<T> extends MemoryReadTx<T> implements WriteTx<T> {
  constructor(store: MemoryStore<T>, private readonly undo: UndoLog) {
    super(store);
  }

  insert<K extends keyof T>(table: K, row: T[K]): T[K] {
    return this.store.write(table, row, true, this.undo) as T[K];
  }

  put<K extends keyof T>(table: K, row: T[K]): T[K] {
    return this.store.write(table, row, false, this.undo) as T[K];
  }

  delete<K extends keyof T>(table: K, id: string | number): boolean {
    return this.store.remove(table, id, this.undo);
  }

  nextSeq(name: string): number {
    return this.store.nextSeq(name, this.undo);
  }
}

/** A store call body's result, refused when it is a promise: what the body did after its first `await` would escape the call. */
export function requireSync<R>(result: R): R {
  const thenable = result !== null && (typeof result === 'object' || typeof result === 'function') && typeof (result as { then?: unknown }).then === 'function';
  if (thenable) throw new Error(ASYNC_BODY);
  return result;
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
  /** True while a call's body runs: a store call from inside it is a bug (it has its tx). */
  private busy = false;
  /** Tables whose deletes left them sparse: compacted after the transaction commits. */
  private readonly sparse = new Set<TableData>();
  /** The read handle (stateless, so one per store). */
  private readonly reader: MemoryReadTx<T> = new MemoryReadTx(this);

  constructor(schema: Schema<T>, private readonly options: MemoryStoreOptions = {}) {
    for (const [name, def] of Object.entries(schema) as [string, { indexes?: Record<string, (r: unknown) => string | null> }][]) {
      this.tables.set(name, new TableData(def.indexes ?? {}, this.gen));
    }
  }

  attach(name: string, aux: AuxState): void {
    const entry: AuxEntry = { name, aux, version: undefined, captured: undefined };
    this.auxList = null;
    const at = this.auxes.findIndex((e) => e.name === name);
    if (at >= 0) this.auxes[at] = entry;
    else this.auxes.push(entry);
  }

  read<R>(fn: (tx: ReadTx<T>) => Sync<R>): Promise<R> {
    return this.settle(() => this.readNow(fn));
  }

  transact<R>(fn: (tx: WriteTx<T>) => Sync<R>): Promise<R> {
    return this.settle(() => this.transactNow(fn));
  }

  /** Throws at once when called from inside a call's body: the body then fails with this error. */
  assertIdle(): void {
    if (this.busy) throw new Error(NESTED);
  }

  /** `fn`'s result as a settled promise (a throw becomes a rejection); a nested call throws at once. */
  private settle<R>(fn: () => R): Promise<R> {
    this.assertIdle();
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** {@link read}, answered synchronously (for adapters that wrap this store). */
  readNow<R>(fn: (tx: ReadTx<T>) => R): R {
    return this.exclusive(() => requireSync(fn(this.reader)));
  }

  /** {@link transact}, committed synchronously (for adapters that wrap this store). */
  transactNow<R>(fn: (tx: WriteTx<T>) => R): R {
    return this.exclusive(() => {
      const undo: UndoLog = [];
      const auxBefore = this.captureAuxList(false);
      try {
        const result = requireSync(fn(new MemoryWriteTx(this, undo)));
        if (this.sparse.size > 0) this.compactSparse();
        return result;
      } catch (err) {
        this.rollback(undo, auxBefore);
        throw err;
      }
    });
  }

  snapshot(): Promise<StoreSnapshot> {
    return this.settle(() => this.exclusive((st) => st.snapshot()));
  }

  restore(s: StoreSnapshot): Promise<void> {
    return this.settle(() => this.exclusive((st) => st.restore(s)));
  }

  dump(): Promise<StoreDump> {
    return this.settle(() => this.exclusive((st) => st.dump()));
  }

  load(d: StoreDump): Promise<void> {
    return this.settle(() => this.exclusive((st) => st.load(d)));
  }

  /**
   * Runs `fn` with synchronous access to the whole state, refusing a call from inside another
   * call's body. For adapters that wrap this store (the file store journals a restore, a load or
   * a compaction point at its exact position among the calls).
   */
  exclusive<R>(fn: (state: MemoryStoreState) => R): R {
    this.assertIdle();
    this.busy = true;
    try {
      return fn(this.state);
    } finally {
      this.busy = false;
    }
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
    for (let i = 0; i < auxBefore.length; i++) {
      const { aux } = this.auxes[i]!;
      if (aux.rollback) aux.rollback();
      else aux.apply(auxBefore[i]);
    }
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
   * version moved the list itself is the last one (callers only read it). Before a transaction
   * (`all` false), an aux state that undoes its own changes is only marked, its entry left stale.
   */
  private captureAuxList(all = true): unknown[] {
    let same = this.auxList !== null;
    for (const e of this.auxes) {
      if (!all && e.aux.begin) { // before a transaction: a mark instead of a capture
        e.aux.begin();
        continue;
      }
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
