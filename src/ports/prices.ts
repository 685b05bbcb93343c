// Prices port: a pure price function of (feed, seed, token, chain, time) with manual overrides on top.
import type { AuxState } from './store.js';

/** Parent chain families. */
export type BlockchainType = 'evm' | 'svm';

/** The 12 specific chains upstream knows. */
export const SPECIFIC_CHAINS = [
  'eth', 'polygon', 'bsc', 'arbitrum', 'optimism', 'avalanche', 'base', 'linea', 'zksync', 'scroll', 'mantle', 'svm',
] as const;
/** One of {@link SPECIFIC_CHAINS}. */
export type SpecificChain = (typeof SPECIFIC_CHAINS)[number];

/**
 * Highest price (USD) a world accepts from its options, fixtures, overrides, tapes and documents:
 * with amounts up to `MAX_AMOUNT` (domain/model.ts) every value stays a finite number.
 */
export const MAX_PRICE = 1e12;

/** Catalogue metadata of one token on one chain (times in epoch ms). */
export interface TokenMeta {
  address: string;
  symbol: string;
  name?: string;
  decimals: number;
  specificChain: SpecificChain;
  kind: 'native' | 'wrapped' | 'stable' | 'token' | 'burn';
  pairCreatedAt?: number | null;
  volume24h?: number | null;
  liquidityUsd?: number | null;
  fdv?: number | null;
}

/** A price answer for one token on one chain at one instant. */
export interface PriceQuote {
  price: number;
  symbol: string;
  specificChain: SpecificChain;
  meta: TokenMeta | null;
  at: number;
}

/** The token catalogue (fixtures/tokens.json), per chain. */
export interface TokenCatalogue {
  /** Tokens of one chain, in file order. */
  tokens(chain: SpecificChain): readonly TokenMeta[];
  /** Lookup of an address on one chain: case-insensitive on EVM chains, exact on svm (burn addresses: any case). */
  find(address: string, chain: SpecificChain): TokenMeta | undefined;
  /** Lookup by symbol (case-insensitive) on one chain. */
  bySymbol(chain: SpecificChain, symbol: string): TokenMeta | undefined;
}

/** One manual price override. */
export interface PriceOverride {
  address: string;
  specificChain: SpecificChain;
  price: number;
  symbol?: string;
}

/** Manual overrides that win over the feed; an aux state of the store. */
export interface PriceOverrides extends AuxState {
  set(o: PriceOverride): void;
  clear(address?: string, specificChain?: SpecificChain): void;
  list(): PriceOverride[];
}

/** Answers "price of this address on this chain at t"; chain discovery lives in the domain. */
export interface PriceSource {
  quote(address: string, specificChain: SpecificChain, at: number): PriceQuote | null;
  /** `quote(...)?.price ?? null` without the quote: what valuing a balance needs (no metadata, no object). */
  price(address: string, specificChain: SpecificChain, at: number): number | null;
  catalogue(): TokenCatalogue;
  overrides: PriceOverrides;
}
