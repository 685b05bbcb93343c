// Price lookup rules of the real service: chain detection, EVM discovery order, burn addresses, zero address.
import type { BlockchainType, PriceQuote, PriceSource, SpecificChain } from '../../ports/prices.js';
import { SPECIFIC_CHAINS } from '../../ports/prices.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';

/** The native "zero address"; valued as the chain's wrapped native token in portfolios. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** True for {@link ZERO_ADDRESS} in any case (without lower-casing every address valued). */
function isZeroAddress(address: string): boolean {
  if (address.length !== ZERO_ADDRESS.length || address[0] !== '0' || (address[1] !== 'x' && address[1] !== 'X')) return false;
  for (let i = 2; i < address.length; i++) if (address.charCodeAt(i) !== 0x30) return false;
  return true;
}

/** Upstream's rule: an address starting with `0x` (case-sensitive) is EVM, anything else SVM. */
export function detectChain(address: string): BlockchainType {
  return address.startsWith('0x') ? 'evm' : 'svm';
}

/** True for one of the 12 specific chains. */
export function isSpecificChain(v: unknown): v is SpecificChain {
  return typeof v === 'string' && (SPECIFIC_CHAINS as readonly string[]).includes(v);
}

/** A resolved price: where it was found and what it is. */
export interface ResolvedPrice {
  price: number;
  symbol: string;
  chain: BlockchainType;
  specificChain: SpecificChain;
  quote: PriceQuote;
}

/**
 * Prices `address`: svm tokens on "svm"; an EVM token with an explicit specific chain only there
 * (no fallback); otherwise the first chain of `evmChains` with a price (burn addresses price 0 on
 * the first chain tried). Returns null when no chain has a price. Discovery is deterministic, so
 * upstream's permanent "chain found earlier" cache would give the same answers and is not kept.
 */
export function findPrice(
  prices: PriceSource, evmChains: readonly SpecificChain[], address: string, at: number,
  opts: { chain?: BlockchainType; specificChain?: string } = {},
): ResolvedPrice | null {
  const chain = opts.chain ?? detectChain(address);
  // An unknown specific chain (execute passes client strings through) simply has no prices.
  const candidates = (chain === 'svm' ? ['svm'] : opts.specificChain ? [opts.specificChain] : evmChains) as readonly SpecificChain[];
  for (const sc of candidates) {
    const q = prices.quote(address, sc, at);
    if (q) return { price: q.price, symbol: q.symbol, chain, specificChain: sc, quote: q };
  }
  return null;
}

/** Price used for portfolio valuation: the zero address counts as the chain's wrapped native token. */
export function valuationPrice(prices: PriceSource, address: string, chain: SpecificChain, at: number): number | null {
  let addr = address;
  if (isZeroAddress(address)) {
    const wrapped = prices.catalogue().tokens(chain).find((t) => t.kind === 'wrapped');
    if (!wrapped) return null;
    addr = wrapped.address;
  }
  return prices.price(addr, chain, at);
}

/** Input of {@link getPrice} (raw query values; bad chain values are ignored like upstream). */
export interface PriceQuery { token?: unknown; chain?: unknown; specificChain?: unknown }

/** Result of `GET /api/price`. */
export interface PriceAnswer {
  found: boolean;
  price: number | null;
  token: string;
  chain: BlockchainType;
  specificChain: SpecificChain | null;
  symbol: string | null;
  timestamp: number;
}

/** `GET /api/price`: a missing token is a 400; a missing price is an answer, not an error. */
export function getPrice(deps: Deps, q: PriceQuery): PriceAnswer {
  if (typeof q.token !== 'string' || q.token === '') throw new DomainError('TOKEN_REQUIRED');
  const token = q.token;
  const chain: BlockchainType = q.chain === 'evm' || q.chain === 'svm' ? q.chain : detectChain(token);
  const specificChain = isSpecificChain(q.specificChain) ? q.specificChain : undefined;
  const at = deps.clock.now();
  const hit = findPrice(deps.prices, deps.config.evmChains, token, at, specificChain ? { chain, specificChain } : { chain });
  if (!hit) return { found: false, price: null, token, chain, specificChain: null, symbol: null, timestamp: at };
  return { found: true, price: hit.price, token, chain, specificChain: hit.specificChain, symbol: hit.symbol, timestamp: at };
}
