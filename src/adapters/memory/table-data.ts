// One in-memory table: rows in insertion order plus secondary indexes that are kept in step.

type IndexFn = (row: never) => string | null;
type Id = string | number;

/** Recursively freezes plain data (rows are immutable once stored). */
export function deepFreeze<R>(v: R): R {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** Rows and indexes of one table; every mutation returns its own undo function. */
export class TableData {
  rows = new Map<Id, unknown>();
  private indexes = new Map<string, Map<string, Set<Id>>>();
  private order = new Map<Id, number>();
  private nextOrder = 0;
  /** The index definitions as a list (not re-derived per row: restores index every row). */
  private readonly defList: [string, IndexFn][];

  constructor(private readonly defs: Record<string, IndexFn>) {
    this.defList = Object.entries(defs);
    this.rebuild();
  }

  /** Rows of index `index` with key `key`, in table insertion order. */
  find(index: string, key: string): unknown[] {
    const idx = this.indexes.get(index);
    if (!idx) throw new Error(`unknown index ${index}`);
    const ids = [...(idx.get(key) ?? [])];
    ids.sort((a, b) => this.order.get(a)! - this.order.get(b)!);
    return ids.map((id) => this.rows.get(id));
  }

  /** Inserts or replaces a row (keeping its position); returns the undo. */
  set(id: Id, row: unknown): () => void {
    const prev = this.rows.get(id);
    const had = this.rows.has(id);
    if (had) this.unindex(id, prev);
    else this.order.set(id, this.nextOrder++);
    this.rows.set(id, row);
    this.index(id, row);
    return () => {
      this.unindex(id, row);
      if (had) {
        this.rows.set(id, prev);
        this.index(id, prev);
      } else {
        this.rows.delete(id);
        this.order.delete(id);
      }
    };
  }

  /** Deletes a row; the undo puts it back at its old position. */
  remove(id: Id): () => void {
    const prev = this.rows.get(id);
    const pos = this.order.get(id)!;
    this.unindex(id, prev);
    this.rows.delete(id);
    this.order.delete(id);
    return () => {
      // Map insertion order cannot be rewound cheaply, so rebuild the row map in ordinal order.
      this.order.set(id, pos);
      this.rows.set(id, prev);
      const sorted = [...this.rows.keys()].sort((a, b) => this.order.get(a)! - this.order.get(b)!);
      this.rows = new Map(sorted.map((k) => [k, this.rows.get(k)]));
      this.index(id, prev);
    };
  }

  copyRows(): Map<Id, unknown> {
    return new Map(this.rows);
  }

  replaceRows(rows: Map<Id, unknown>): void {
    this.rows = rows;
    this.rebuild();
  }

  private rebuild(): void {
    this.indexes = new Map(Object.keys(this.defs).map((n) => [n, new Map()]));
    this.order = new Map();
    this.nextOrder = 0;
    for (const [id, row] of this.rows) {
      this.order.set(id, this.nextOrder++);
      this.index(id, row);
    }
  }

  private index(id: Id, row: unknown): void {
    for (const [name, fn] of this.defList) {
      const key = fn(row as never);
      if (key === null) continue;
      const idx = this.indexes.get(name)!;
      let bucket = idx.get(key);
      if (!bucket) idx.set(key, (bucket = new Set()));
      bucket.add(id);
    }
  }

  private unindex(id: Id, row: unknown): void {
    for (const [name, fn] of this.defList) {
      const key = fn(row as never);
      if (key === null) continue;
      const bucket = this.indexes.get(name)!.get(key);
      bucket?.delete(id);
      if (bucket && bucket.size === 0) this.indexes.get(name)!.delete(key);
    }
  }
}
