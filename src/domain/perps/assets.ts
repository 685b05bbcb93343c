// Perps asset symbols (BTC, ETH, SOL, ...) mapped onto catalogue tokens, so marks come from the world's price feed, tapes and overrides.
import type { SpecificChain, TokenCatalogue } from '../../ports/prices.js';
import type { Deps } from '../deps.js';

/** A perps market: its symbol and the catalogue token whose price is its mark. */
export interface PerpsAsset { asset: string; address: string; specificChain: SpecificChain }

/** Symbols whose mark is a wrapped or bridged token (BTC is priced as BTCB on bsc). */
const ALIASES: Record<string, [SpecificChain, string]> = {
  BTC: ['bsc', 'BTCB'], ETH: ['eth', 'WETH'], SOL: ['svm', 'SOL'], BNB: ['bsc', 'WBNB'], AVAX: ['avalanche', 'WAVAX'],
  MATIC: ['polygon', 'WMATIC'], POL: ['polygon', 'WMATIC'], MNT: ['mantle', 'WMNT'],
};

/** Chains searched, in order, for any other symbol (stablecoins and burn addresses are not markets). */
const SEARCH_ORDER: readonly SpecificChain[] = [
  'eth', 'svm', 'base', 'arbitrum', 'optimism', 'bsc', 'polygon', 'avalanche', 'linea', 'zksync', 'scroll', 'mantle',
];

/**
 * The market of an asset symbol (case-insensitive; answered upper-case): an alias of
 * {@link ALIASES}, else the first non-stable catalogue token with that symbol in {@link SEARCH_ORDER}.
 * Null for anything else (including addresses).
 */
export function resolvePerpsAsset(cat: TokenCatalogue, raw: string): PerpsAsset | null {
  if (!/^[A-Za-z0-9]{1,15}$/.test(raw)) return null;
  const asset = raw.toUpperCase();
  const alias = ALIASES[asset];
  if (alias) {
    const tok = cat.bySymbol(alias[0], alias[1]);
    if (tok) return { asset, address: tok.address, specificChain: alias[0] };
  }
  for (const chain of SEARCH_ORDER) {
    const tok = cat.bySymbol(chain, asset);
    if (tok && tok.kind !== 'stable' && tok.kind !== 'burn') return { asset, address: tok.address, specificChain: chain };
  }
  return null;
}

/** The mark of an asset at `at` (a positive finite price), or null when the feed has none. */
export function markPrice(deps: Deps, asset: string, at: number): number | null {
  const market = resolvePerpsAsset(deps.prices.catalogue(), asset);
  if (!market) return null;
  const price = deps.prices.quote(market.address, market.specificChain, at)?.price;
  return price !== undefined && Number.isFinite(price) && price > 0 ? price : null;
}
