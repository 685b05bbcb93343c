// TapeTable: recorded price tapes loaded at run time on top of the feed (linear interpolation); a store aux state.
import { MAX_PRICE, type SpecificChain } from '../../ports/prices.js';
import type { AuxState } from '../../ports/store.js';
import { addressFamily, key } from './catalogue.js';
import { interpolate, parseTapeKey } from './feeds.js';

/** A tape: `[epochMs, price]` points (any order; kept sorted). */
export type TapePoints = [number, number][];

/** Loaded tapes keyed like the catalogue (chain plus address, lower-cased on EVM chains). */
export class TapeTable implements AuxState {
  private tapes = new Map<string, { chain: SpecificChain; address: string; points: TapePoints }>();
  /** Change counter (AuxState.version): the store reuses its last capture until it moves. */
  private changes = 0;
  /** The taped addresses ({@link addressFamily}) as of {@link familiesAt} changes. */
  private families = new Set<string>();
  private familiesAt = -1;

  version(): number {
    return this.changes;
  }

  /** True when some chain has a tape of `address` (EVM addresses in any case). */
  lists(address: string): boolean {
    if (this.tapes.size === 0) return false;
    if (this.familiesAt !== this.changes) {
      this.families = new Set([...this.tapes.values()].map((t) => addressFamily(t.address)));
      this.familiesAt = this.changes;
    }
    return this.families.has(addressFamily(address));
  }

  /** Loads tapes; a token given again replaces its earlier tape. Validates everything before changing anything. */
  load(tapes: Record<string, TapePoints>): string[] {
    const parsed = Object.entries(tapes).map(([k, pts]) => {
      const { chain, address } = parseTapeKey(k);
      if (!Array.isArray(pts) || pts.length === 0) throw new Error(`tape '${k}' needs at least one [time, price] point`);
      for (const p of pts) {
        if (!Array.isArray(p) || p.length !== 2 || !Number.isFinite(p[0]) || !Number.isFinite(p[1]) || p[1] < 0 || p[1] > MAX_PRICE) {
          throw new Error(`tape '${k}' has a bad point ${JSON.stringify(p)} (want [epochMs, price from 0 to ${MAX_PRICE}])`);
        }
      }
      return { chain, address, points: [...pts].map(([t, v]) => [t, v] as [number, number]).sort((a, b) => a[0] - b[0]) };
    });
    for (const t of parsed) this.tapes.set(key(t.address, t.chain), t);
    this.changes += 1;
    return parsed.map((t) => `${t.chain}:${t.address}`);
  }

  /** Price of a taped token at `at`, or undefined when it has no tape. */
  price(address: string, chain: SpecificChain, at: number): number | undefined {
    if (this.tapes.size === 0) return undefined;
    const t = this.tapes.get(key(address, chain));
    return t ? (interpolate(t.points, at) ?? undefined) : undefined;
  }

  /** Keys (`chain:address`) of the loaded tapes. */
  keys(): string[] {
    return [...this.tapes.values()].map((t) => `${t.chain}:${t.address}`);
  }

  /** Drops every loaded tape. */
  clear(): void {
    this.tapes.clear();
    this.changes += 1;
  }

  capture(): unknown {
    return Object.fromEntries([...this.tapes.values()].map((t) => [`${t.chain}:${t.address}`, t.points.map((p) => [...p])]));
  }

  apply(v: unknown): void {
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('priceTapes: expected an object of tapes');
    const next = new TapeTable();
    next.load(v as Record<string, TapePoints>);
    this.tapes = next.tapes;
    this.changes += 1;
  }
}
