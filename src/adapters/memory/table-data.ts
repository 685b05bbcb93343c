// One in-memory table: rows by insertion ordinal, an id map and secondary indexes, all copy-on-write so snapshots share them.
import { ChunkVec, type FrozenVec } from './chunk-vec.js';
import { Generation } from './generation.js';
import { hashKey } from './hash-keys.js';
import { IdMap, type FrozenIdMap, type KeyAt } from './id-map.js';
import { OrdList } from './ord-list.js';
import { ShardMap, type FrozenShardMap } from './shard-map.js';

type IndexFn = (row: never) => string | null;
type Id = string | number;

/** Marks an undo entry of an insert (the row was absent before). */
export const ABSENT: unique symbol = Symbol('absent');

/**
 * The undo log of a transaction: four slots per change, `(table, id, previous row or ABSENT,
 * ordinal)`; the memory store also logs sequences there (its own marker as the table).
 */
export type UndoLog = unknown[];

/** A table as a snapshot holds it: shared, never mutated. */
export interface TableState {
  readonly rows: FrozenVec<unknown>;
  readonly ords: FrozenIdMap;
  readonly indexes: readonly FrozenShardMap<OrdList>[];
  readonly live: number;
  /** The table's {@link TableData.version} when captured (these rows are exactly that version's). */
  readonly version: number;
}

/** Last table version handed out in this process: every change of any table takes the next one, so none is reused. */
let lastVersion = 0;

interface Index { name: string; fn: IndexFn; map: ShardMap<OrdList> }

/** Recursively freezes plain data (rows are immutable once stored). */
export function deepFreeze<R>(v: R): R {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/**
 * Rows and indexes of one table. Rows live in a vector by insertion ordinal (a put keeps the
 * ordinal, a delete leaves an empty slot), an id map gives each row's ordinal, and every index key
 * has a sorted list of ordinals, so `find` is insertion order without sorting. All three are
 * copy-on-write per {@link Generation}: {@link capture} and {@link install} are O(number of
 * indexes), and the first writes after them copy only the chunks and shards they touch.
 */
export class TableData {
  private rows: ChunkVec<unknown>;
  private ords: IdMap;
  private indexes: Index[];
  private live = 0;
  /**
   * Change counter: a process-wide unique number taken on every change of the rows (set, remove,
   * undo, load, install), so equal numbers mean equal contents (the port's `version`).
   */
  version = ++lastVersion;
  /** The index definitions as a list (not re-derived per row). */
  private readonly defList: [string, IndexFn][];

  constructor(defs: Record<string, IndexFn>, private readonly g: Generation = new Generation()) {
    this.defList = Object.entries(defs);
    this.rows = new ChunkVec(g);
    this.ords = new IdMap(g, this.idAt);
    this.indexes = this.defList.map(([name, fn]) => ({ name, fn, map: new ShardMap<OrdList>(g) }));
  }

  /** The id of the row at an ordinal, read by the id map (which stores ordinals only). */
  private readonly idAt: KeyAt = (ord) => (this.rows.get(ord) as { id: Id } | undefined)?.id;

  /** Number of rows. */
  get size(): number {
    return this.live;
  }

  get(id: Id): unknown {
    const ord = this.ords.get(id);
    return ord === undefined ? undefined : this.rows.get(ord);
  }

  has(id: Id): boolean {
    return this.ords.has(id);
  }

  /** Every row, in insertion order. */
  all(): unknown[] {
    const out: unknown[] = [];
    this.rows.forEach((r) => out.push(r));
    return out;
  }

  /** Rows of index `index` with key `key`, in table insertion order. */
  find(index: string, key: string): unknown[] {
    const list = this.index(index).map.get(key);
    if (list === undefined) return [];
    const out: unknown[] = [];
    const rows = this.rows;
    list.forEach((ord) => out.push(rows.get(ord)));
    return out;
  }

  /** Rows at positions `start` .. `end - 1` of an index key in insertion order; negative positions count from the end (Array.prototype.slice). */
  slice(index: string, key: string, start: number, end?: number): unknown[] {
    const list = this.index(index).map.get(key);
    if (list === undefined) return [];
    const n = list.size;
    const from = start < 0 ? Math.max(0, n + start) : Math.min(start, n);
    const to = end === undefined ? n : end < 0 ? Math.max(0, n + end) : Math.min(end, n);
    if (to <= from) return [];
    const rows = this.rows;
    return list.range(from, to).map((ord) => rows.get(ord));
  }

  /** Rows of index `index` with key `key` (without `index`: all rows). */
  count(index?: string, key?: string): number {
    if (index === undefined) return this.live;
    return this.index(index).map.get(key ?? '')?.size ?? 0;
  }

  /**
   * Inserts or replaces a row (a replaced row keeps its position), logging the undo in `undo`.
   * With `mustBeNew`, an existing id changes nothing and returns false.
   */
  set(id: Id, row: unknown, undo: UndoLog | null, mustBeNew = false): boolean {
    const h = hashKey(id);
    const ord = this.ords.getAt(h, id);
    if (ord === undefined) {
      this.version = ++lastVersion;
      const at = this.rows.length;
      this.rows.set(at, row);
      this.ords.setAt(h, id, at);
      this.live += 1;
      for (const ix of this.indexes) {
        const k = ix.fn(row as never);
        if (k !== null) this.list(ix, k).add(at);
      }
      undo?.push(this, id, ABSENT, at);
      return true;
    }
    if (mustBeNew) return false;
    this.version = ++lastVersion;
    const prev = this.rows.get(ord);
    this.rows.set(ord, row);
    this.reindex(ord, prev, row);
    undo?.push(this, id, prev, ord);
    return true;
  }

  /** Deletes a row (false when absent), logging the undo. */
  remove(id: Id, undo: UndoLog | null): boolean {
    const ord = this.ords.get(id);
    if (ord === undefined) return false;
    this.version = ++lastVersion;
    const prev = this.rows.get(ord);
    this.drop(id, ord, prev);
    undo?.push(this, id, prev, ord);
    return true;
  }

  /** Reverts one logged change: `prev` is the row before it (ABSENT: there was none) at ordinal `ord`. */
  undo(id: Id, prev: unknown, ord: number): void {
    this.version = ++lastVersion;
    if (prev === ABSENT) {
      this.drop(id, ord, this.rows.get(ord));
      // An undone append gives its slot back, so a failed insert leaves no gap.
      if (ord === this.rows.length - 1) this.rows.truncate(ord);
      return;
    }
    if (this.ords.has(id)) {
      const cur = this.rows.get(ord);
      this.rows.set(ord, prev);
      this.reindex(ord, cur, prev);
      return;
    }
    this.rows.set(ord, prev);
    this.ords.set(id, ord);
    this.live += 1;
    for (const ix of this.indexes) {
      const k = ix.fn(prev as never);
      if (k !== null) this.list(ix, k).add(ord);
    }
  }

  /** True when deletes left more empty slots than rows (worth a {@link compact}). */
  get sparse(): boolean {
    const holes = this.rows.length - this.live;
    return holes > 1024 && holes > this.live;
  }

  /** Renumbers the rows densely (same order). Only between transactions: undo logs hold ordinals. */
  compact(): void {
    this.load(this.all().map((r) => [(r as { id: Id }).id, r] as [Id, unknown]));
  }

  /** The table's current contents for a snapshot; the store starts a new generation right after. */
  capture(): TableState {
    return {
      rows: this.rows.freeze(), ords: this.ords.freeze(), indexes: this.indexes.map((ix) => ix.map.freeze()), live: this.live, version: this.version,
    };
  }

  /** Makes a captured state the table's contents (shared with the snapshot until written). */
  install(s: TableState): void {
    this.rows = new ChunkVec(this.g, s.rows);
    this.ords = new IdMap(this.g, this.idAt, s.ords);
    this.indexes = this.defList.map(([name, fn], i) => ({ name, fn, map: new ShardMap(this.g, s.indexes[i]) }));
    this.live = s.live;
    this.version = s.version;
  }

  /** Replaces every row (in the given order) and rebuilds the indexes. */
  load(rows: Iterable<[Id, unknown]>): void {
    this.rows = new ChunkVec(this.g);
    this.ords = new IdMap(this.g, this.idAt);
    this.indexes = this.defList.map(([name, fn]) => ({ name, fn, map: new ShardMap<OrdList>(this.g) }));
    this.live = 0;
    // A repeated id replaces the earlier row in its position, as Map construction does.
    for (const [id, row] of rows) this.set(id, row, null);
    this.version = ++lastVersion;
  }

  /** The rows of a captured state in insertion order (for dumps). */
  static rowsOf(s: TableState): unknown[] {
    const out: unknown[] = [];
    new ChunkVec(new Generation(), s.rows).forEach((r) => out.push(r));
    return out;
  }

  private index(name: string): Index {
    for (const ix of this.indexes) if (ix.name === name) return ix;
    throw new Error(`unknown index ${name}`);
  }

  /** The writable ordinal list of `key`, created or copied into this generation as needed. */
  private list(ix: Index, key: string): OrdList {
    let list = ix.map.get(key);
    const gen = this.g.current;
    if (list === undefined || list.gen !== gen) {
      list = list === undefined ? new OrdList(gen) : list.clone(gen);
      ix.map.set(key, list);
    }
    return list;
  }

  private unlist(ix: Index, key: string, ord: number): void {
    const list = this.list(ix, key);
    list.remove(ord);
    if (list.size === 0) ix.map.delete(key);
  }

  /** Moves ordinal `ord` between index keys where `from` and `to` differ. */
  private reindex(ord: number, from: unknown, to: unknown): void {
    for (const ix of this.indexes) {
      const a = ix.fn(from as never);
      const b = ix.fn(to as never);
      if (a === b) continue;
      if (a !== null) this.unlist(ix, a, ord);
      if (b !== null) this.list(ix, b).add(ord);
    }
  }

  private drop(id: Id, ord: number, row: unknown): void {
    // The id map reads ids from the rows: the entry goes before the row does.
    this.ords.delete(id);
    this.rows.set(ord, undefined);
    this.live -= 1;
    for (const ix of this.indexes) {
      const k = ix.fn(row as never);
      if (k !== null) this.unlist(ix, k, ord);
    }
  }
}
