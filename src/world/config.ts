// WorldOptions -> WorldConfig with defaults and validation (pure; argv parsing lives in cli/).
import type { SlippageMode, WorldConfig } from '../domain/deps.js';
import type { InitialBalance, TradingConstraints } from '../domain/model.js';
import { isSpecificChain } from '../domain/trading/prices.js';
import { API_VERSIONS, DEFAULT_API_VERSION, isApiVersion, rule, type ApiVersion } from '../domain/versions.js';
import type { FeedDef } from '../adapters/prices/feeds.js';
import type { TokensFile } from '../adapters/prices/catalogue.js';
import type { WorldFixture } from './fixture.js';
import type { SpecificChain } from '../ports/prices.js';
import { checkWorldOptions, OptionError } from './options-check.js';

/** Options of `createWorld`; everything is optional. */
export interface WorldOptions {
  /** API version the world speaks (default `spec`; see docs/versions.md). Team keys always get the team era. */
  apiVersion?: ApiVersion;
  /** `refuse` (default): a token outside the catalogue has no price; `synthetic`: any valid address gets a seeded price path. */
  unknownTokens?: UnknownTokens;
  /** Seed of the id/RNG source and the random-walk feed (number or string; default 1). */
  seed?: number | string;
  /** Virtual start time (epoch ms or ISO string; default 2025-01-01T00:00:00Z). */
  startTime?: number | string;
  /** `manual` (default): time moves only through advance/setTime. `system`: wall time. */
  clock?: 'manual' | 'system';
  /** Price feed (default: constant prices from the token catalogue). */
  prices?: FeedDef;
  /** Token catalogue document (default: fixtures/tokens.json). */
  tokens?: TokensFile;
  evmChains?: SpecificChain[];
  maxTradePercentage?: number;
  /** Periodic snapshot interval in virtual ms (default 300000, minimum 1000). */
  snapshotIntervalMs?: number;
  defaultInitialBalances?: InitialBalance[];
  defaultTradingConstraints?: Partial<TradingConstraints>;
  /** `upstream` (default): seeded random slippage; `expected`: its mean; `none`: no slippage. */
  slippage?: SlippageMode;
  /** `participants` (default): admins and active participants may read the leaderboard; `admin`: admins only. */
  leaderboardAccess?: 'participants' | 'admin';
  /** `off` (default): no rate limiting; `upstream`: the hosted service's per-agent limits on the world's clock. */
  rateLimits?: 'upstream' | 'off';
  /** Create an admin at world creation (optionally with a chosen key). */
  admin?: { username?: string; email?: string; password?: string; apiKey?: string };
  /** Declarative world contents loaded through the domain functions, or the name of a bundled world (`demo`). */
  fixture?: WorldFixture | string;
  /** Deep-freeze stored rows (catches accidental mutation in tests). */
  freezeRows?: boolean;
  /** Root secret for key encryption (default fixed, so worlds replay identically). */
  rootKey?: string;
  /** Wallet verification `Domain:` value (default {@link DEFAULT_WALLET_DOMAIN}; `compsim serve`: its own base URL). */
  walletDomain?: string;
  /** Extra trusted inference signer addresses (upstream's signer is always trusted). */
  inferenceSigners?: string[];
  /** Chain id of the signed inference text (default "1", as upstream). */
  inferenceChainId?: string;
}

/** World options whose fixture is a document (a bundled world's name already read). */
export type ResolvedWorldOptions = Omit<WorldOptions, 'fixture'> & { fixture?: WorldFixture };

/** What the price source does with a token outside the catalogue. */
export type UnknownTokens = 'refuse' | 'synthetic';

/** Wallet-verification domain of an in-process world: the base URL `compsim serve` has with its defaults. */
export const DEFAULT_WALLET_DOMAIN = 'http://127.0.0.1:3000';

/** Upstream's one trusted inference signer ("dTERMinal API signer for mainnet"). */
export const UPSTREAM_INFERENCE_SIGNER = '0x7053bfb0433a16a2405de785d547b1b32cee0cf3';

/** Default start of virtual time. */
export const DEFAULT_START_TIME = Date.UTC(2025, 0, 1);

/** The era's e2e starting balances, used when a competition gives none. */
export const DEFAULT_INITIAL_BALANCES: InitialBalance[] = [
  { specificChain: 'svm', tokenSymbol: 'sol', amount: 10 },
  { specificChain: 'svm', tokenSymbol: 'usdc', amount: 5000 },
  { specificChain: 'svm', tokenSymbol: 'usdt', amount: 1000 },
  { specificChain: 'eth', tokenSymbol: 'eth', amount: 1 },
  { specificChain: 'eth', tokenSymbol: 'usdc', amount: 5000 },
  { specificChain: 'optimism', tokenSymbol: 'usdc', amount: 200 },
  { specificChain: 'polygon', tokenSymbol: 'usdc', amount: 200 },
  { specificChain: 'arbitrum', tokenSymbol: 'usdc', amount: 200 },
  { specificChain: 'base', tokenSymbol: 'usdc', amount: 5000 },
];

/** Upstream's default trading constraints. */
export const DEFAULT_TRADING_CONSTRAINTS: TradingConstraints = {
  minimumPairAgeHours: 168, minimum24hVolumeUsd: 100000, minimumLiquidityUsd: 100000, minimumFdvUsd: 1000000, minTradesPerDay: null,
};

/** Parses an epoch-ms number or an ISO date string; throws a clear error otherwise. */
export function parseTime(v: number | string, what: string): number {
  const ms = typeof v === 'number' ? v : Date.parse(v);
  if (!Number.isFinite(ms)) throw new Error(`${what}: not a valid time: ${String(v)}`);
  return ms;
}

/** Applies defaults and validates (an {@link OptionError} names the option); `version` comes from package.json. */
export function resolveConfig(o: ResolvedWorldOptions, version: string): WorldConfig {
  checkWorldOptions(o as Record<string, unknown>);
  const seed = o.seed ?? o.fixture?.seed ?? 1;
  if (typeof seed === 'number' ? !Number.isFinite(seed) : typeof seed !== 'string') throw new OptionError('seed', 'must be a finite number or a string');
  const startTime = parseTime(o.startTime ?? o.fixture?.startTime ?? DEFAULT_START_TIME, 'startTime');
  const apiVersion = o.apiVersion ?? DEFAULT_API_VERSION;
  if (!isApiVersion(apiVersion)) throw new OptionError('apiVersion', `must be one of ${API_VERSIONS.join(', ')}, got ${String(apiVersion)}`);
  const unknownTokens = o.unknownTokens ?? 'refuse';
  if (unknownTokens !== 'refuse' && unknownTokens !== 'synthetic') throw new OptionError('unknownTokens', `must be refuse or synthetic, got ${String(unknownTokens)}`);
  const evmChains: readonly SpecificChain[] = o.evmChains ?? rule(apiVersion, 'evmChains');
  if (!Array.isArray(evmChains as unknown)) throw new OptionError('evmChains', 'must be an array of EVM chains');
  for (const c of evmChains) if (!isSpecificChain(c) || c === 'svm') throw new OptionError('evmChains', `not an EVM chain: ${String(c)}`);
  const maxTradePercentage = o.maxTradePercentage ?? 25;
  if (typeof maxTradePercentage !== 'number' || !(maxTradePercentage >= 1 && maxTradePercentage <= 100)) throw new OptionError('maxTradePercentage', 'must be between 1 and 100');
  const snapshotIntervalMs = o.snapshotIntervalMs ?? o.fixture?.snapshotIntervalMs ?? 300_000;
  if (typeof snapshotIntervalMs !== 'number' || !Number.isFinite(snapshotIntervalMs) || snapshotIntervalMs < 1000) throw new OptionError('snapshotIntervalMs', 'must be at least 1000');
  const slippage = o.slippage ?? o.fixture?.slippage ?? 'upstream';
  if (!['upstream', 'expected', 'none'].includes(slippage)) throw new OptionError('slippage', `must be upstream, expected or none, got ${String(slippage)}`);
  const leaderboardAccess = o.leaderboardAccess ?? 'participants';
  if (leaderboardAccess !== 'participants' && leaderboardAccess !== 'admin') throw new OptionError('leaderboardAccess', `must be participants or admin, got ${String(leaderboardAccess)}`);
  const walletDomain = o.walletDomain ?? DEFAULT_WALLET_DOMAIN;
  if (typeof walletDomain !== 'string' || walletDomain === '') throw new OptionError('walletDomain', 'must be a non-empty string');
  const signers = [UPSTREAM_INFERENCE_SIGNER];
  for (const a of o.inferenceSigners ?? []) {
    if (typeof a !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(a)) throw new OptionError('inferenceSigners', `not an address: ${String(a)}`);
    if (!signers.includes(a.toLowerCase())) signers.push(a.toLowerCase());
  }
  const inferenceChainId = o.inferenceChainId ?? '1';
  if (typeof inferenceChainId !== 'string' || !/^\d+$/.test(inferenceChainId)) throw new OptionError('inferenceChainId', 'must be a decimal string');
  return {
    apiVersion, unknownTokens, walletDomain, inferenceSigners: signers, inferenceChainId,
    seed, startTime, slippage, leaderboardAccess, evmChains: [...evmChains], maxTradePercentage, snapshotIntervalMs,
    defaultInitialBalances: o.defaultInitialBalances ?? DEFAULT_INITIAL_BALANCES,
    defaultTradingConstraints: { ...DEFAULT_TRADING_CONSTRAINTS, ...o.defaultTradingConstraints },
    version,
  };
}
