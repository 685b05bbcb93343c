// Store port: generic async table store with serialised all-or-nothing transactions and snapshots.

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
  get<K extends keyof T>(table: K, id: string | number): Promise<T[K] | undefined>;
  /** All rows, insertion order. */
  all<K extends keyof T>(table: K): Promise<T[K][]>;
  /** Rows whose index `index` has key `key`, insertion order. */
  find<K extends keyof T>(table: K, index: string, key: string): Promise<T[K][]>;
  count<K extends keyof T>(table: K, index?: string, key?: string): Promise<number>;
  /**
   * Rows at positions `start` .. `end - 1` of `find(table, index, key)` (negative positions count
   * from the end, as `Array.prototype.slice`), without reading the others: `slice(..., -1)` is
   * the newest row of a key in O(1) however many it has.
   */
  slice<K extends keyof T>(table: K, index: string, key: string, start: number, end?: number): Promise<T[K][]>;
  /**
   * Change counter of a table, for caches of values derived from it: the number moves whenever
   * the table's rows may have changed (a write, a rolled-back write, a restore, a load), also
   * inside a transaction that has not committed yet, and stays put otherwise. A number is never
   * given to two different contents of a table in one process, so equal numbers mean equal rows
   * (a restore may bring back the number the table had when the snapshot was taken).
   */
  version<K extends keyof T>(table: K): Promise<number>;
}

/** Write operations, available inside transactions only. */
export interface WriteTx<T> extends ReadTx<T> {
  /** Throws on a duplicate key. */
  insert<K extends keyof T>(table: K, row: T[K]): Promise<T[K]>;
  /** Upsert; an existing row keeps its insertion position. */
  put<K extends keyof T>(table: K, row: T[K]): Promise<T[K]>;
  delete<K extends keyof T>(table: K, id: string | number): Promise<boolean>;
  /** 1, 2, 3 ... per sequence name. */
  nextSeq(name: string): Promise<number>;
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

/** The store: every call runs one at a time, in arrival order. */
export interface Store<T> {
  read<R>(fn: (tx: ReadTx<T>) => Promise<R>): Promise<R>;
  /** Serialised and all-or-nothing: a throw rolls back rows, indexes, sequences and aux states. */
  transact<R>(fn: (tx: WriteTx<T>) => Promise<R>): Promise<R>;
  attach(name: string, aux: AuxState): void;
  snapshot(): Promise<StoreSnapshot>;
  restore(s: StoreSnapshot): Promise<void>;
  dump(): Promise<StoreDump>;
  load(d: StoreDump): Promise<void>;
}
