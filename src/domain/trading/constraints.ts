// Trading constraints on the to-token (pair age, 24h volume, liquidity, FDV) with upstream's exemptions and messages.
import { DomainError, type ErrorCode } from '../errors.js';
import type { TradingConstraints } from '../model.js';
import type { ResolvedPrice } from './prices.js';
import { ZERO_ADDRESS } from './prices.js';
import { isBuiltinToken, isTableStablecoin } from './token-table.js';
import type { TokenTableEra } from '../versions.js';

const HOUR_MS = 3_600_000;

/** Upstream formats amounts with `toLocaleString()`; en-US is pinned so output never depends on the host. */
export const usd = (n: number) => n.toLocaleString('en-US');

/**
 * True when the token is exempt from every constraint: the usdc/usdt of its resolved chain
 * (case-insensitive), any address of the era's token table as sent (case-sensitive), the zero address.
 */
export function isExempt(address: string, price: ResolvedPrice, era: TokenTableEra = '2026-08'): boolean {
  return isTableStablecoin(address, price.specificChain, era) || isBuiltinToken(address, era) || address === ZERO_ADDRESS;
}

type Check = {
  key: keyof Omit<TradingConstraints, 'minTradesPerDay'>;
  value: (p: ResolvedPrice, now: number) => number | null | undefined;
  missing: ErrorCode;
  tooLow: ErrorCode;
  params: (value: number, min: number) => Record<string, string | number>;
};

/** Upstream's order: pair age, volume, liquidity, FDV. */
const CHECKS: readonly Check[] = [
  {
    key: 'minimumPairAgeHours',
    value: (p, now) => {
      const created = p.quote.meta?.pairCreatedAt;
      return created === null || created === undefined ? null : (now - created) / HOUR_MS;
    },
    missing: 'PAIR_AGE_UNKNOWN', tooLow: 'PAIR_TOO_YOUNG',
    params: (age, min) => ({ age: age.toFixed(2), min }),
  },
  { key: 'minimum24hVolumeUsd', value: (p) => p.quote.meta?.volume24h, missing: 'VOLUME_UNKNOWN', tooLow: 'VOLUME_TOO_LOW', params: (v, min) => ({ value: usd(v), min: usd(min) }) },
  { key: 'minimumLiquidityUsd', value: (p) => p.quote.meta?.liquidityUsd, missing: 'LIQUIDITY_UNKNOWN', tooLow: 'LIQUIDITY_TOO_LOW', params: (v, min) => ({ value: usd(v), min: usd(min) }) },
  { key: 'minimumFdvUsd', value: (p) => p.quote.meta?.fdv, missing: 'FDV_UNKNOWN', tooLow: 'FDV_TOO_LOW', params: (v, min) => ({ value: usd(v), min: usd(min) }) },
];

/**
 * Applies the competition's constraints to the to-token at `now`; throws the first violation.
 * A threshold of 0 disables its check.
 */
export function checkConstraints(address: string, price: ResolvedPrice, c: TradingConstraints, now: number, era: TokenTableEra = '2026-08'): void {
  if (isExempt(address, price, era)) return;
  for (const check of CHECKS) {
    const min = c[check.key];
    if (!min) continue;
    const value = check.value(price, now);
    const details = () => ({ rule: 'tradingConstraint', constraint: check.key, token: address, specificChain: price.specificChain, minimum: min });
    if (value === null || value === undefined) {
      throw new DomainError(check.missing, { min }, { details: { ...details(), value: null } });
    }
    if (value < min) throw new DomainError(check.tooLow, check.params(value, min), { details: { ...details(), value } });
  }
}
