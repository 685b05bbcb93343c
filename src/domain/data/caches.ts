// A world's caches of derived values: table memos, key principals and interned token addresses; created with the world, never shared.
import type { ReadTx } from '../../ports/store.js';
import type { Principal } from '../model.js';
import type { Tables } from '../tables.js';

/** What a memo derives from: declared once per use (module level, immutable); each world gets its own {@link TableMemo} of it. */
export interface MemoDef<V> {
  readonly tables: readonly (keyof Tables)[];
  /** Entries kept (the oldest is dropped first). */
  readonly limit: number;
  /** Type marker only. */
  readonly value?: V;
}

/** A memo definition over `tables`, keeping `limit` entries. */
export function memoDef<V>(tables: readonly (keyof Tables)[], limit = 32): MemoDef<V> {
  return Object.freeze({ tables, limit });
}

/** One remembered value and the table versions it was computed from. */
interface Entry<V> { versions: number[]; value: V }

/**
 * Values derived from store tables. A lookup reads the current {@link ReadTx.version} of each table
 * the value depends on and reuses the remembered value only when every one is unchanged; otherwise
 * it computes the value again in the caller's read or transaction. Everything else the value
 * depends on (a competition's status, a query parameter) belongs in the key. Results never depend
 * on hits or misses: a cached value is the value the computation would return now, the same object
 * for as long as it is current. Callers must treat it as read-only (arrays handed out are frozen).
 */
export class TableMemo<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly def: MemoDef<V>) {}

  /**
   * The value for `key`: remembered, or `compute()`d and remembered unless `keep` says the value
   * depends on more than the tables (the clock, prices) and must not be reused.
   */
  get(tx: ReadTx<Tables>, key: string, compute: () => V, keep: (v: V) => boolean = () => true): V {
    const { tables, limit } = this.def;
    const versions = tables.map((t) => tx.version(t));
    const hit = this.entries.get(key);
    if (hit !== undefined && sameVersions(hit.versions, versions)) return hit.value;
    const value = compute();
    this.entries.delete(key);
    if (!keep(value)) return value;
    this.entries.set(key, { versions, value });
    if (this.entries.size > limit) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

function sameVersions(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Principals of usable keys of one table, with the table version they were read at. */
export type PrincipalsByKey = Map<string, { version: number; principal: Principal }>;

/** Distinct strings an interning table keeps before it starts over (it is a memo only). */
const INTERNED_KEPT = 1 << 18;

/** The caches of one world (`deps.caches`). */
export class Caches {
  private readonly memos = new Map<MemoDef<unknown>, TableMemo<unknown>>();
  private readonly tokens = new Map<string, string>();
  private readonly derivedValues = new WeakMap<object, unknown>();
  /** Principals by API key (domain/access/auth.ts). */
  readonly principals: Readonly<Record<'agents' | 'admins', PrincipalsByKey>> = { agents: new Map(), admins: new Map() };

  /** This world's memo of `def`. */
  memo<V>(def: MemoDef<V>): TableMemo<V> {
    let memo = this.memos.get(def as MemoDef<unknown>);
    if (memo === undefined) this.memos.set(def as MemoDef<unknown>, (memo = new TableMemo<unknown>(def as MemoDef<unknown>)));
    return memo as TableMemo<V>;
  }

  /**
   * A value derived from `owner`, an immutable object this world hands out while it is current
   * (a memoised, frozen list): made once per owner, and dropped with it, so it is bounded by the
   * memo that holds the owner. Callers must treat it as read-only, and key anything else it
   * depends on inside it.
   */
  derived<V>(owner: object, make: () => V): V {
    if (this.derivedValues.has(owner)) return this.derivedValues.get(owner) as V;
    const value = make();
    this.derivedValues.set(owner, value);
    return value;
  }

  /**
   * `address` as the first string object stored with these characters. Stored trades and balance
   * rows keep their token addresses; without this, a world keeps the copies its request bodies
   * parsed (about 64 bytes each, two per trade) instead of sharing one. Same characters, so no
   * result changes.
   */
  internToken(address: string): string {
    const known = this.tokens.get(address);
    if (known !== undefined) return known;
    if (this.tokens.size >= INTERNED_KEPT) this.tokens.clear();
    this.tokens.set(address, address);
    return address;
  }
}
