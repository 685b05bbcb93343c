// PriceSource adapter: catalogue + feed + manual overrides (the overrides are a store aux state).
import type {
  PriceOverride, PriceOverrides, PriceQuote, PriceSource, SpecificChain, TokenMeta,
} from '../../ports/prices.js';
import { Catalogue, key, type CatalogueToken } from './catalogue.js';
import type { FeedFn } from './feeds.js';

/** Manual overrides keyed by chain and lower-cased address. */
export class OverrideTable implements PriceOverrides {
  private map = new Map<string, PriceOverride>();

  set(o: PriceOverride): void {
    if (!Number.isFinite(o.price) || o.price < 0) throw new Error('override price must be a finite number >= 0');
    this.map.set(key(o.address, o.specificChain), { ...o });
  }

  get(address: string, chain: SpecificChain): PriceOverride | undefined {
    return this.map.get(key(address, chain));
  }

  clear(address?: string, specificChain?: SpecificChain): void {
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
    this.map = new Map();
    for (const o of (v as PriceOverride[]) ?? []) this.map.set(key(o.address, o.specificChain), { ...o });
  }
}

function metaAt(tok: CatalogueToken, at: number): TokenMeta {
  const { defaultPrice: _p, pairAgeHours, ...meta } = tok;
  return pairAgeHours === undefined ? meta : { ...meta, pairCreatedAt: at - pairAgeHours * 3_600_000 };
}

/** The world's price source. */
export class FeedPriceSource implements PriceSource {
  readonly overrides = new OverrideTable();

  constructor(private readonly cat: Catalogue, private feed: FeedFn) {}

  /** Swaps the feed (world reset with a new seed). */
  setFeed(feed: FeedFn): void {
    this.feed = feed;
  }

  catalogue(): Catalogue {
    return this.cat;
  }

  quote(address: string, specificChain: SpecificChain, at: number): PriceQuote | null {
    const tok = this.cat.find(address, specificChain);
    const o = this.overrides.get(address, specificChain);
    if (o) {
      return { price: o.price, symbol: o.symbol ?? tok?.symbol ?? 'UNKNOWN', specificChain, meta: tok ? metaAt(tok, at) : null, at };
    }
    if (!tok) return null;
    const price = this.feed(tok, specificChain, at);
    if (price === null || !Number.isFinite(price)) return null;
    return { price, symbol: tok.symbol, specificChain, meta: metaAt(tok, at), at };
  }
}
