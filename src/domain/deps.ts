// Deps: what every domain function receives (store, clock, prices, ids, secrets, config, the world's caches).
import type { Clock } from '../ports/clock.js';
import type { Secrets } from '../ports/crypto.js';
import type { Ids } from '../ports/ids.js';
import type { PriceSource, SpecificChain } from '../ports/prices.js';
import type { Store } from '../ports/store.js';
import type { Caches } from './data/caches.js';
import type { InitialBalance, TradingConstraints } from './model.js';
import type { Tables } from './tables.js';
import type { ApiVersion } from './versions.js';

/** How trade slippage is computed. */
export type SlippageMode = 'upstream' | 'expected' | 'none';

/** Resolved world configuration (defaults applied by src/config.ts). */
export interface WorldConfig {
  /** The API version the world speaks (rules in domain/versions.ts). */
  apiVersion: ApiVersion;
  /** `synthetic`: tokens outside the catalogue get seeded prices; `refuse`: they have none. */
  unknownTokens: 'refuse' | 'synthetic';
  seed: number | string;
  startTime: number;
  /** EVM chain discovery order for prices without a specific chain. */
  evmChains: SpecificChain[];
  /** Default `paperTradingConfig.maxTradePercentage`. */
  maxTradePercentage: number;
  /** Periodic portfolio snapshot interval (virtual ms). */
  snapshotIntervalMs: number;
  /** Starting balances of a competition created without `paperTradingInitialBalances`. */
  defaultInitialBalances: InitialBalance[];
  defaultTradingConstraints: TradingConstraints;
  /**
   * Slippage of paper trades: `upstream` draws upstream's random multiplier from the seeded RNG,
   * `expected` uses its mean (exact numbers, no draw), `none` applies no slippage.
   */
  slippage: SlippageMode;
  /** Who may read `GET /api/competitions/leaderboard`: participants and admins, or admins only. */
  leaderboardAccess: 'participants' | 'admin';
  /** Package version reported by the health endpoints. */
  version: string;
  /** Wallet verification: the exact `Domain:` value a signed message must carry (upstream's API_DOMAIN). */
  walletDomain: string;
  /** Verified-inference badge: trusted signer addresses (lower-case; upstream's signer first). */
  inferenceSigners: string[];
  /** Chain id prefixed to the signed inference text (upstream: "1"). */
  inferenceChainId: string;
}

/** Injected dependencies of every use case. */
export interface Deps {
  store: Store<Tables>;
  clock: Clock;
  prices: PriceSource;
  ids: Ids;
  secrets: Secrets;
  config: WorldConfig;
  /** Derived values of this world's tables (memos, key principals, interned addresses): owned by the world, shared with no other. */
  caches: Caches;
}
