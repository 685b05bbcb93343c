// PriceSource adapter: catalogue + feed, loaded tapes and manual overrides on top, faults last (aux states).
import type { ConstraintMetric, PriceFaultLookup } from '../../ports/faults.js';
import type {
  PriceOverride, PriceOverrides, PriceQuote, PriceSource, SpecificChain, TokenMeta,
} from '../../ports/prices.js';
import { Catalogue, key, type CatalogueToken } from './catalogue.js';
import type { FeedFn } from './feeds.js';
import { TapeTable } from './tape-table.js';

/** Manual overrides keyed by chain and lower-cased address. */
export class OverrideTable implements PriceOverrides {
  private map = new Map<string, PriceOverride>();
  /** Change counter (AuxState.version): the store reuses its last capture until it moves. */
  private changes = 0;

  version(): number {
    return this.changes;
  }

  set(o: PriceOverride): void {
    if (!Number.isFinite(o.price) || o.price < 0) throw new Error('override price must be a finite number >= 0');
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

/** Metadata of each catalogue token without the fixture-only fields (built once; quotes share it, frozen). */
const metaCache = new WeakMap<CatalogueToken, TokenMeta>();

function metaAt(tok: CatalogueToken, at: number): TokenMeta {
  let meta = metaCache.get(tok);
  if (meta === undefined) {
    const { defaultPrice: _p, pairAgeHours: _a, ...rest } = tok;
    meta = Object.freeze(rest);
    metaCache.set(tok, meta);
  }
  return tok.pairAgeHours === undefined ? meta : { ...meta, pairCreatedAt: at - tok.pairAgeHours * 3_600_000 };
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

  constructor(private readonly cat: Catalogue, private feed: FeedFn, private readonly faults?: PriceFaultLookup) {}

  /** Swaps the feed (world reset with a new seed). */
  setFeed(feed: FeedFn): void {
    this.feed = feed;
  }

  catalogue(): Catalogue {
    return this.cat;
  }

  quote(address: string, specificChain: SpecificChain, at: number): PriceQuote | null {
    const faults = this.faults?.priceFaults(address, specificChain) ?? [];
    let q = this.base(address, specificChain, at);
    for (const f of faults) {
      if (!q || f.kind === 'priceMissing') return null;
      if (f.kind === 'priceZero') q = { ...q, price: 0 };
      else if (f.kind === 'priceStale') {
        const then = this.base(address, specificChain, f.at);
        q = then ? { ...q, price: then.price } : null;
      } else if (f.kind === 'constraintFail' && q.meta) q = { ...q, meta: failMeta(q.meta, f.metric, at) };
    }
    return q;
  }

  private base(address: string, specificChain: SpecificChain, at: number): PriceQuote | null {
    const tok = this.cat.find(address, specificChain);
    const o = this.overrides.get(address, specificChain);
    if (o) {
      return { price: o.price, symbol: o.symbol ?? tok?.symbol ?? 'UNKNOWN', specificChain, meta: tok ? metaAt(tok, at) : null, at };
    }
    const taped = this.tapes.price(address, specificChain, at);
    if (taped !== undefined) return { price: taped, symbol: tok?.symbol ?? 'UNKNOWN', specificChain, meta: tok ? metaAt(tok, at) : null, at };
    if (!tok) return null;
    const price = this.feed(tok, specificChain, at);
    if (price === null || !Number.isFinite(price)) return null;
    return { price, symbol: tok.symbol, specificChain, meta: metaAt(tok, at), at };
  }
}
