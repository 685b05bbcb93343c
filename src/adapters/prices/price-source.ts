// PriceSource adapter: catalogue + feed, loaded tapes and manual overrides on top, faults last (aux states).
import type { ConstraintMetric, PriceFault, PriceFaultLookup } from '../../ports/faults.js';
import {
  MAX_PRICE, type PriceOverride, type PriceOverrides, type PriceQuote, type PriceSource, type SpecificChain, type TokenMeta,
} from '../../ports/prices.js';
import { addressFamily, Catalogue, key, type CatalogueToken } from './catalogue.js';
import type { FeedFn } from './feeds.js';
import type { SyntheticTokens } from './synthetic.js';
import { TapeTable } from './tape-table.js';

/** Manual overrides keyed by chain and lower-cased address. */
export class OverrideTable implements PriceOverrides {
  private map = new Map<string, PriceOverride>();
  /** Change counter (AuxState.version): the store reuses its last capture until it moves. */
  private changes = 0;
  /** The overridden addresses ({@link addressFamily}) as of {@link familiesAt} changes. */
  private families = new Set<string>();
  private familiesAt = -1;

  version(): number {
    return this.changes;
  }

  /** True when some chain has an override of `address` (EVM addresses in any case). */
  lists(address: string): boolean {
    if (this.map.size === 0) return false;
    if (this.familiesAt !== this.changes) {
      this.families = new Set([...this.map.values()].map((o) => addressFamily(o.address)));
      this.familiesAt = this.changes;
    }
    return this.families.has(addressFamily(address));
  }

  set(o: PriceOverride): void {
    if (!Number.isFinite(o.price) || o.price < 0 || o.price > MAX_PRICE) throw new Error(`override price must be a finite number from 0 to ${MAX_PRICE}`);
    this.map.set(key(o.address, o.specificChain), { ...o });
    this.changes += 1;
  }

  get(address: string, chain: SpecificChain): PriceOverride | undefined {
    if (this.map.size === 0) return undefined;
    return this.map.get(key(address, chain));
  }

  clear(address?: string, specificChain?: SpecificChain): void {
    this.changes += 1;
    if (address === undefined) {
      this.map.clear();
      return;
    }
    for (const [k, o] of this.map) {
      if (o.address.toLowerCase() === address.toLowerCase() && (!specificChain || o.specificChain === specificChain)) this.map.delete(k);
    }
  }

  list(): PriceOverride[] {
    return [...this.map.values()].map((o) => ({ ...o }));
  }

  capture(): unknown {
    return this.list();
  }

  apply(v: unknown): void {
    this.changes += 1;
    this.map = new Map();
    for (const o of (v as PriceOverride[]) ?? []) this.map.set(key(o.address, o.specificChain), { ...o });
  }
}

/** No faults (shared). */
const NO_FAULTS: readonly PriceFault[] = [];

/** Metadata of a catalogue token at `at`, without the fixture-only fields (a pair age makes the creation time relative to `at`). */
function metaAt(tok: CatalogueToken, at: number): TokenMeta {
  const { defaultPrice: _p, pairAgeHours, ...meta } = tok;
  return pairAgeHours === undefined ? meta : { ...meta, pairCreatedAt: at - pairAgeHours * 3_600_000 };
}

/** Token metadata broken by a `constraintFail` fault: too young, too small, or (`all`) missing. */
function failMeta(meta: TokenMeta, metric: ConstraintMetric, at: number): TokenMeta {
  switch (metric) {
    case 'pairAge': return { ...meta, pairCreatedAt: at };
    case 'volume': return { ...meta, volume24h: 0 };
    case 'liquidity': return { ...meta, liquidityUsd: 0 };
    case 'fdv': return { ...meta, fdv: 0 };
    default: return { ...meta, pairCreatedAt: null, volume24h: null, liquidityUsd: null, fdv: null };
  }
}

/** The world's price source: manual override, else loaded tape, else feed; then any price faults. */
export class FeedPriceSource implements PriceSource {
  readonly overrides = new OverrideTable();
  readonly tapes = new TapeTable();

  constructor(private readonly cat: Catalogue, private feed: FeedFn, private readonly faults?: PriceFaultLookup, readonly synthetic?: SyntheticTokens) {}

  /**
   * The catalogue token, else (unknownTokens "synthetic") the synthetic one, but only for an address
   * that no chain lists in the catalogue, a manual price or a loaded tape: chain discovery must find
   * a listed token on its own chain rather than a made-up one on a chain tried earlier.
   */
  private token(address: string, specificChain: SpecificChain): CatalogueToken | undefined {
    const listed = this.cat.find(address, specificChain);
    if (listed !== undefined || this.synthetic?.enabled !== true) return listed;
    if (this.cat.listsAnywhere(address) || this.overrides.lists(address) || this.tapes.lists(address)) return undefined;
    return this.synthetic.find(address, specificChain);
  }

  /** Swaps the feed (world reset with a new seed). */
  setFeed(feed: FeedFn): void {
    this.feed = feed;
  }

  catalogue(): Catalogue {
    return this.cat;
  }

  quote(address: string, specificChain: SpecificChain, at: number): PriceQuote | null {
    const tok = this.token(address, specificChain);
    const faults = this.faults?.priceFaults(address, specificChain) ?? NO_FAULTS;
    const price = this.faulted(address, specificChain, at, tok, faults);
    if (price === null) return null;
    let meta = tok ? metaAt(tok, at) : null;
    // Only constraint faults change the metadata, in the order they were added.
    for (const f of faults) if (f.kind === 'constraintFail' && meta) meta = failMeta(meta, f.metric, at);
    const symbol = this.overrides.get(address, specificChain)?.symbol ?? tok?.symbol ?? 'UNKNOWN';
    return { price, symbol, specificChain, meta, at };
  }

  price(address: string, specificChain: SpecificChain, at: number): number | null {
    const faults = this.faults?.priceFaults(address, specificChain) ?? NO_FAULTS;
    return this.faulted(address, specificChain, at, this.token(address, specificChain), faults);
  }

  /** The price after the token's price faults, in the order they were added. */
  private faulted(address: string, specificChain: SpecificChain, at: number, tok: CatalogueToken | undefined, faults: readonly PriceFault[]): number | null {
    let price = this.base(address, specificChain, at, tok);
    for (const f of faults) {
      if (price === null || f.kind === 'priceMissing') return null;
      if (f.kind === 'priceZero') price = 0;
      else if (f.kind === 'priceStale') price = this.base(address, specificChain, f.at, tok);
    }
    return price;
  }

  /** The price before faults: manual override, else loaded tape, else the feed (catalogue tokens only). */
  private base(address: string, specificChain: SpecificChain, at: number, tok: CatalogueToken | undefined): number | null {
    const o = this.overrides.get(address, specificChain);
    if (o) return o.price;
    const taped = this.tapes.price(address, specificChain, at);
    if (taped !== undefined) return taped;
    if (!tok) return null;
    const price = this.synthetic?.owns(tok) ? this.synthetic.price(tok, at) : this.feed(tok, specificChain, at);
    return price === null || !Number.isFinite(price) ? null : price;
  }
}
