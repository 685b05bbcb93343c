// Synthetic tokens: with unknownTokens "synthetic", any valid address outside the catalogue gets metadata that passes the default constraints and a seeded random-walk price.
import type { SpecificChain } from '../../ports/prices.js';
import { hashString, mix32, seedToUint32 } from '../ids/rng.js';
import type { CatalogueToken } from './catalogue.js';
import { buildFeed, type FeedDef, type FeedFn } from './feeds.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SVM_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const ZERO = /^0x0{40}$/i;

/** Synthetic tokens a world remembers per chain spelling and per address family (a cache: more are built again on demand). */
export const SYNTHETIC_KEPT = 10_000;

/** Pair age, 24h volume, liquidity and FDV of a synthetic token: well above upstream's default minimums. */
const SYNTHETIC_META = { pairAgeHours: 24 * 365, volume24h: 10_000_000, liquidityUsd: 10_000_000, fdv: 1_000_000_000 } as const;

/** True when `address` is a syntactically valid token address for `chain` (the zero address is not a token). */
export function validTokenAddress(address: string, chain: SpecificChain): boolean {
  return chain === 'svm' ? SVM_ADDRESS.test(address) : EVM_ADDRESS.test(address) && !ZERO.test(address);
}

/**
 * The synthetic tokens of one world. A token's starting price is drawn from the world seed and
 * the address (0.01 to 100, four significant digits) and follows the random walk's rules from
 * there (the world's random-walk step and volatility when its feed is one, else the defaults).
 * The price is the same on every EVM chain. Everything is a pure function of (seed, address,
 * time), so snapshots and dumps need to keep only whether the mode is on.
 */
export class SyntheticTokens {
  /** Whether unknown tokens are priced (`unknownTokens: "synthetic"`); switched by a load or restore. */
  enabled: boolean;
  private readonly seed32: number;
  private readonly walk: FeedFn;
  /** One token per chain and spelling (metadata), and one per address (the shared walk). */
  private readonly byKey = new Map<string, CatalogueToken>();
  private readonly walkers = new Map<string, CatalogueToken>();
  private readonly owned = new WeakSet<CatalogueToken>();

  constructor(enabled: boolean, seed: number | string, feed: FeedDef, origin: number) {
    this.enabled = enabled;
    this.seed32 = seedToUint32(seed);
    const w = feed.kind === 'randomWalk' ? feed : { kind: 'randomWalk' as const };
    this.walk = buildFeed({ kind: 'randomWalk', ...(w.stepMs !== undefined ? { stepMs: w.stepMs } : {}), ...(w.volatility !== undefined ? { volatility: w.volatility } : {}), ...(w.origin !== undefined ? { origin: w.origin } : {}) }, seed, origin);
  }

  /** The synthetic token of `address` on `chain`, or undefined (mode off or not a valid address). */
  find(address: string, chain: SpecificChain): CatalogueToken | undefined {
    if (!this.enabled || !validTokenAddress(address, chain)) return undefined;
    const id = `${chain}:${address}`;
    let tok = this.byKey.get(id);
    if (tok === undefined) {
      const family = chain === 'svm' ? address : address.toLowerCase();
      const symbol = `SYN${(chain === 'svm' ? address.slice(0, 4) : address.slice(2, 6)).toUpperCase()}`;
      tok = {
        address, symbol, name: 'Synthetic token', decimals: chain === 'svm' ? 9 : 18, specificChain: chain, kind: 'token',
        pairCreatedAt: null, volume24h: SYNTHETIC_META.volume24h, liquidityUsd: SYNTHETIC_META.liquidityUsd, fdv: SYNTHETIC_META.fdv,
        defaultPrice: this.startPrice(family), pairAgeHours: SYNTHETIC_META.pairAgeHours,
      };
      if (this.byKey.size < SYNTHETIC_KEPT) this.byKey.set(id, tok);
      this.owned.add(tok);
    }
    return tok;
  }

  /** True when `tok` is one of this world's synthetic tokens. */
  owns(tok: CatalogueToken): boolean {
    return this.owned.has(tok);
  }

  /** Price of a synthetic token at `at`: one walk per address (EVM addresses in any case, on any EVM chain). */
  price(tok: CatalogueToken, at: number): number | null {
    const family = tok.specificChain === 'svm' ? tok.address : tok.address.toLowerCase();
    let walker = this.walkers.get(family);
    if (walker === undefined) {
      walker = { ...tok, address: family, specificChain: tok.specificChain === 'svm' ? 'svm' : 'eth' };
      if (this.walkers.size < SYNTHETIC_KEPT) this.walkers.set(family, walker);
    }
    return this.walk(walker, walker.specificChain, at);
  }

  /** Starting price from the seed and the address: log-uniform between 0.01 and 100, four significant digits. */
  private startPrice(family: string): number {
    const u = mix32(mix32(this.seed32, hashString(`synthetic:${family}`)), 0x9e3779b9) / 2 ** 32;
    return Number((10 ** (-2 + 4 * u)).toPrecision(4));
  }
}
