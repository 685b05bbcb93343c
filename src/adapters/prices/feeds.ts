// Price feeds: constant table, recorded tape with linear interpolation, seeded random walk; all pure in (feed, seed, token, chain, t).
import type { SpecificChain } from '../../ports/prices.js';
import { hashString, mix32, seedToUint32 } from '../ids/rng.js';
import { key, type CatalogueToken } from './catalogue.js';

/** Constant prices: the catalogue defaults, optionally replaced per `chain:address`. */
export interface ConstantFeed {
  kind: 'constant';
  prices?: Record<string, number>;
}

/** Recorded tape: `chain:address` -> [[epochMs, price], ...]; tokens without a tape fall back to constants. */
export interface TapeFeed {
  kind: 'tape';
  tapes: Record<string, [number, number][]>;
}

/** Geometric random walk around the catalogue default, one normal step every `stepMs`. */
export interface RandomWalkFeed {
  kind: 'randomWalk';
  /** Step length in ms (default 60000). */
  stepMs?: number;
  /** Standard deviation of the log return per step (default 0.002). */
  volatility?: number;
  /** Instant at which the walk equals the default price (default: the world's start time). */
  origin?: number;
}

/** A price feed definition (JSON-serialisable). */
export type FeedDef = ConstantFeed | TapeFeed | RandomWalkFeed;

/** Prices one catalogue token at one instant; `null` = no price. */
export type FeedFn = (token: CatalogueToken, chain: SpecificChain, at: number) => number | null;

function constantPrice(feed: { prices?: Record<string, number> }, tok: CatalogueToken, chain: SpecificChain): number | null {
  const p = feed.prices?.[key(tok.address, chain)];
  return p ?? tok.defaultPrice;
}

/** Linear interpolation on a sorted tape, clamped at both ends. */
export function interpolate(points: readonly [number, number][], at: number): number | null {
  if (points.length === 0) return null;
  if (at <= points[0]![0]) return points[0]![1];
  const last = points[points.length - 1]!;
  if (at >= last[0]) return last[1];
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]![0] <= at) lo = mid;
    else hi = mid;
  }
  const [t0, p0] = points[lo]!;
  const [t1, p1] = points[hi]!;
  return p0 + ((p1 - p0) * (at - t0)) / (t1 - t0);
}

const MAX_STEPS = 5_000_000;

/** Standard normal draw for step `k` of one token's walk (stateless hash, Box-Muller). */
function stepNormal(base: number, k: number): number {
  const a = mix32(base, k >>> 0);
  const b = mix32(a, Math.floor(k / 2 ** 32) ^ 0x5bd1e995);
  const u1 = (a + 1) / (2 ** 32 + 1);
  const u2 = b / 2 ** 32;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/**
 * Builds the price function of a feed. The random walk memoises cumulative log-returns per token
 * (a cache only: the result never depends on call order).
 */
export function buildFeed(def: FeedDef, seed: number | string, defaultOrigin: number): FeedFn {
  switch (def.kind) {
    case 'constant':
      return (tok, chain) => constantPrice(def, tok, chain);
    case 'tape': {
      const tapes = new Map(Object.entries(def.tapes).map(([k, pts]) => {
        const [chain, addr] = k.split(':');
        return [key(addr ?? '', chain as SpecificChain), [...pts].sort((x, y) => x[0] - y[0])] as const;
      }));
      // Each catalogue token's tape, found once (a week's replay prices tokens a million times).
      const byToken = new Map<CatalogueToken, { chain: SpecificChain; tape: [number, number][] | undefined }>();
      return (tok, chain, at) => {
        let found = byToken.get(tok);
        if (found === undefined || found.chain !== chain) byToken.set(tok, (found = { chain, tape: tapes.get(key(tok.address, chain)) }));
        return found.tape ? interpolate(found.tape, at) : constantPrice({}, tok, chain);
      };
    }
    case 'randomWalk': {
      const stepMs = def.stepMs ?? 60_000;
      const vol = def.volatility ?? 0.002;
      const origin = def.origin ?? defaultOrigin;
      const seed32 = seedToUint32(seed);
      /** Cumulative log-returns of one token's walk, forwards and backwards from the origin. */
      interface Walk { base: number; fwd: number[]; back: number[] }
      const walks = new Map<string, Walk>();
      // Each catalogue token's walk, found once: its key and hash would otherwise be built on every price.
      const byToken = new Map<CatalogueToken, { chain: SpecificChain; walk: Walk }>();
      const cumulative = (w: Walk, k: number): number => {
        const arr = k >= 0 ? w.fwd : w.back;
        const n = Math.abs(k);
        for (let i = arr.length; i <= n; i++) {
          const step = k >= 0 ? i - 1 : -i;
          arr.push(arr[i - 1]! + (k >= 0 ? 1 : -1) * vol * stepNormal(w.base, step));
        }
        return arr[n]!;
      };
      return (tok, chain, at) => {
        const p0 = constantPrice({}, tok, chain);
        if (p0 === null || tok.kind === 'stable' || tok.kind === 'burn' || p0 === 0) return p0;
        let found = byToken.get(tok);
        if (found === undefined || found.chain !== chain) {
          const id = key(tok.address, chain);
          let walk = walks.get(id);
          if (walk === undefined) walks.set(id, (walk = { base: mix32(seed32, hashString(id)), fwd: [0], back: [0] }));
          byToken.set(tok, (found = { chain, walk }));
        }
        // Clamp to ~5M steps either side so a far-off timestamp cannot grow the memo without bound.
        const x = Math.max(-MAX_STEPS, Math.min(MAX_STEPS, (at - origin) / stepMs));
        const k = Math.floor(x);
        const l0 = cumulative(found.walk, k);
        const l1 = cumulative(found.walk, k + 1);
        return p0 * Math.exp(l0 + (l1 - l0) * (x - k));
      };
    }
    default:
      throw new Error(`unknown price feed kind ${(def as { kind: string }).kind}`);
  }
}
