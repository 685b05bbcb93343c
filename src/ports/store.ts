// Store port: in-memory tables read and written by synchronous transactions; durability is the only thing awaited.

/** Definition of one table: rows keyed by `id`, with optional secondary indexes. */
export interface TableDef<R> {
  key: 'id';
  /** index name -> key function; `null` means "not indexed". */
  indexes?: Record<string, (row: R) => string | null>;
}

/** Table name -> definition, for a row-type map `T`. */
export type Schema<T> = { [K in keyof T]: TableDef<T[K]> };

/** Read operations, available inside reads and transactions. */
export interface ReadTx<T> {
  get<K extends keyof T>(table: K, id: string | number): T[K] | undefined;
  /** All rows, insertion order. */
  all<K extends keyof T>(table: K): T[K][];
  /** Rows whose index `index` has key `key`, insertion order. */
  find<K extends keyof T>(table: K, index: string, key: string): T[K][];
  count<K extends keyof T>(table: K, index?: string, key?: string): number;
  /**
   * Rows at positions `start` .. `end - 1` of `find(table, index, key)` (negative positions count
   * from the end, as `Array.prototype.slice`), without reading the others: `slice(..., -1)` is
   * the newest row of a key in O(1) however many it has.
   */
  slice<K extends keyof T>(table: K, index: string, key: string, start: number, end?: number): T[K][];
  /**
   * Change counter of a table, for caches of values derived from it: the number moves whenever
   * the table's rows may have changed (a write, a rolled-back write, a restore, a load), also
   * inside a transaction that has not committed yet, and stays put otherwise. A number is never
   * given to two different contents of a table in one process, so equal numbers mean equal rows
   * (a restore may bring back the number the table had when the snapshot was taken).
   */
  version<K extends keyof T>(table: K): number;
}

/** Write operations, available inside transactions only. */
export interface WriteTx<T> extends ReadTx<T> {
  /** Throws on a duplicate key. */
  insert<K extends keyof T>(table: K, row: T[K]): T[K];
  /** Upsert; an existing row keeps its insertion position. */
  put<K extends keyof T>(table: K, row: T[K]): T[K];
  delete<K extends keyof T>(table: K, id: string | number): boolean;
  /** 1, 2, 3 ... per sequence name. */
  nextSeq(name: string): number;
}

/** Mutable state outside the tables (clock, ids, price overrides) that snapshots and rollbacks cover. */
export interface AuxState {
  capture(): unknown;
  apply(v: unknown): void;
  /**
   * Optional change counter: a different number whenever the state changed (`apply` included).
   * A store may then reuse its last capture while the number stays the same, so `capture` is
   * not paid on every transaction; `apply` must copy what it is given and callers must not
   * mutate a capture.
   */
  version?(): number;
  /**
   * Optional, for a state of many small entries, too big to capture on every transaction. Its
   * capture is then a list of `[key, ...values]` entries, and these replace the captures a store
   * takes around each transaction: `begin` at its start, `rollback` when it fails, and
   * `takeChanges(all)` after it: the entries changed since the last call (`[key]` alone removes
   * one; a set entry goes to the end unless its key is present), or undefined while fewer are
   * pending than make a record worth writing (unless `all`: then every pending one).
   */
  begin?(): void;
  rollback?(): void;
  takeChanges?(all: boolean): unknown[] | undefined;
}

/** Opaque in-memory snapshot. */
export interface StoreSnapshot {
  readonly kind: 'compsim-snapshot';
}

/** Versioned JSON document of a whole store. */
export interface StoreDump {
  format: 'compsim-world';
  version: number;
  tables: Record<string, unknown[]>;
  seqs: Record<string, number>;
  aux: Record<string, unknown>;
}

/** A transaction body's result: anything but a promise (a body runs to its end without yielding). */
export type Sync<R> = R extends PromiseLike<unknown> ? never : R;

/**
 * The store. A call runs its body at once and to its end: bodies are synchronous, so calls never
 * interleave and need no queue. A body may not call the store again (it has its `tx`).
 */
export interface Store<T> {
  /** Runs `fn` against the current state; resolves once everything `fn` may have seen is durable. */
  read<R>(fn: (tx: ReadTx<T>) => Sync<R>): Promise<R>;
  /**
   * Runs `fn` as one all-or-nothing change: a throw rolls back rows, indexes, sequences and aux
   * states. The change is visible as soon as `fn` returns; the promise resolves once it is durable
   * (memory: at once; file: after its group commit).
   */
  transact<R>(fn: (tx: WriteTx<T>) => Sync<R>): Promise<R>;
  attach(name: string, aux: AuxState): void;
  snapshot(): Promise<StoreSnapshot>;
  restore(s: StoreSnapshot): Promise<void>;
  dump(): Promise<StoreDump>;
  load(d: StoreDump): Promise<void>;
}
