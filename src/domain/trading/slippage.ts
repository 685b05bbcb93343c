// Trade slippage: upstream's logarithmic curve and max-of-two-uniforms multiplier, the legacy era's linear formula, with exact-number modes.
import type { SlippageMode } from '../deps.js';

/** Constants of upstream's curve (in use since 2025-09-12, floor re-applied since 2025-09-18). */
export const SLIPPAGE = { K: 0.035, SCALE: 5000, MIN: 0.0005, MAX: 0.15, MULT_LOW: 0.95, MULT_SPAN: 0.25 } as const;

/** Mean of max(U1, U2) for independent uniforms on [0, 1): the `expected` mode's bias. */
export const EXPECTED_BIAS = 2 / 3;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** Base slippage fraction of a trade worth `usd`: clamp(0.035 x log10(1 + usd/5000), 0.0005, 0.15). */
export function baseSlippage(usd: number): number {
  return clamp(SLIPPAGE.K * Math.log10(1 + usd / SLIPPAGE.SCALE), SLIPPAGE.MIN, SLIPPAGE.MAX);
}

/** Slippage fraction for a given bias in [0, 1]: the multiplier 0.95 + 0.25 x bias, re-clamped. */
export function slippageForBias(usd: number, bias: number): number {
  return clamp(baseSlippage(usd) * (SLIPPAGE.MULT_LOW + SLIPPAGE.MULT_SPAN * bias), SLIPPAGE.MIN, SLIPPAGE.MAX);
}

/**
 * Slippage fraction applied to a trade worth `usd` (must be finite and >= 0). A zero-value trade
 * has none. `upstream` draws two uniforms from `random` (and only then); `expected` uses their
 * mean; `none` is always 0.
 */
export function slippageFraction(usd: number, mode: SlippageMode, random: () => number): number {
  if (!Number.isFinite(usd) || usd < 0) throw new RangeError(`trade value must be finite and >= 0, got ${usd}`);
  if (usd === 0 || mode === 'none') return 0;
  if (mode === 'expected') return slippageForBias(usd, EXPECTED_BIAS);
  const u1 = random();
  const u2 = random();
  return slippageForBias(usd, Math.max(u1, u2));
}

/** The legacy (team) era's formula: 0.05 (a fraction) per $10,000, jittered by 0.9 + 0.2 x U (reference legacy §3.2). */
export const LEGACY_SLIPPAGE = { PER_USD: 0.05 / 10000, MULT_LOW: 0.9, MULT_SPAN: 0.2, EXPECTED_U: 0.5 } as const;

/**
 * Legacy slippage fraction of a trade worth `usd`: base = usd / 10000 x 0.05, actual = base x
 * (0.9 + 0.2 x U). `upstream` draws U once from `random`; `expected` uses U = 0.5; `none` is 0.
 * Capped at 1 (upstream's formula passes 1 above ~$200k and would give a negative amount).
 */
export function legacySlippageFraction(usd: number, mode: SlippageMode, random: () => number): number {
  if (!Number.isFinite(usd) || usd < 0) throw new RangeError(`trade value must be finite and >= 0, got ${usd}`);
  if (usd === 0 || mode === 'none') return 0;
  const u = mode === 'expected' ? LEGACY_SLIPPAGE.EXPECTED_U : random();
  return Math.min(1, usd * LEGACY_SLIPPAGE.PER_USD * (LEGACY_SLIPPAGE.MULT_LOW + LEGACY_SLIPPAGE.MULT_SPAN * u));
}

/** Slippage fraction under a competition's formula (`legacy` or, by default, the current one). */
export function competitionSlippage(model: 'legacy' | 'current' | undefined, usd: number, mode: SlippageMode, random: () => number): number {
  return model === 'legacy' ? legacySlippageFraction(usd, mode, random) : slippageFraction(usd, mode, random);
}
