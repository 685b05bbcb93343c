// Deterministic read caches: a value derived from some tables is reused while the store reports those tables unchanged.
import type { ReadTx } from '../../ports/store.js';
import type { Tables } from '../tables.js';

/** One remembered value and the table versions it was computed from. */
interface Entry<V> { versions: number[]; value: V }

/**
 * A cache of values derived from store tables, per store and key. A lookup reads the current
 * {@link ReadTx.version} of each table the value depends on and reuses the remembered value only
 * when every one is unchanged; otherwise it computes the value again in the caller's read or
 * transaction. Everything else the value depends on (a competition's status, a query parameter)
 * belongs in the key. Results never depend on hits or misses: a cached value is the value the
 * computation would return now, the same object for as long as it is current. Callers must treat
 * it as read-only (arrays handed out are frozen).
 */
export class TableMemo<V> {
  private readonly byStore = new WeakMap<object, Map<string, Entry<V>>>();

  /**
   * @param tables the tables the value is computed from
   * @param limit entries kept per store (the oldest is dropped first)
   */
  constructor(private readonly tables: readonly (keyof Tables)[], private readonly limit = 32) {}

  /**
   * The value for `key`: remembered, or `compute()`d and remembered unless `keep` says the value
   * depends on more than the tables (the clock, prices) and must not be reused.
   */
  get(store: object, tx: ReadTx<Tables>, key: string, compute: () => V, keep: (v: V) => boolean = () => true): V {
    const versions: number[] = [];
    for (const t of this.tables) versions.push(tx.version(t));
    let entries = this.byStore.get(store);
    if (entries === undefined) {
      entries = new Map();
      this.byStore.set(store, entries);
    }
    const hit = entries.get(key);
    if (hit !== undefined && sameVersions(hit.versions, versions)) return hit.value;
    const value = compute();
    entries.delete(key);
    if (!keep(value)) return value;
    // A computation that wrote to its own tables (none does) would have moved them: re-read to be safe.
    for (let i = 0; i < this.tables.length; i++) if ((tx.version(this.tables[i]!)) !== versions[i]) return value;
    entries.set(key, { versions, value });
    if (entries.size > this.limit) entries.delete(entries.keys().next().value!);
    return value;
  }
}

function sameVersions(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
