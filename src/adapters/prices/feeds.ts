// Price feeds: constant table, recorded tape with linear interpolation, seeded random walk; all pure in (feed, seed, token, chain, t).
import type { SpecificChain } from '../../ports/prices.js';
import { hashString, mix32, seedToUint32 } from '../ids/rng.js';
import { key, type CatalogueToken } from './catalogue.js';
import { MAX_WALK_STEPS, WalkState } from './random-walk.js';

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

/** Walks one random-walk feed keeps (the oldest is dropped first; a dropped walk is rebuilt with the same prices). */
export const WALKS_KEPT = 256;

/** The walk of each token a random-walk feed priced, found once per token object (its key and hash would otherwise be built on every price). */
interface WalkOf { chain: SpecificChain; id: string; base: number }

/**
 * The price function of a random walk. Walks are a cache with a bound ({@link WALKS_KEPT} tokens,
 * each holding at most a few thousand numbers; see {@link WalkState}): a price never depends on
 * what was priced before it.
 */
function randomWalkFeed(def: RandomWalkFeed, seed: number | string, defaultOrigin: number): FeedFn {
  const stepMs = def.stepMs ?? 60_000;
  const vol = def.volatility ?? 0.002;
  const origin = def.origin ?? defaultOrigin;
  const seed32 = seedToUint32(seed);
  const walks = new Map<string, WalkState>();
  const byToken = new WeakMap<CatalogueToken, WalkOf>();
  return (tok, chain, at) => {
    const p0 = constantPrice({}, tok, chain);
    if (p0 === null || tok.kind === 'stable' || tok.kind === 'burn' || p0 === 0) return p0;
    let of = byToken.get(tok);
    if (of === undefined || of.chain !== chain) {
      const id = key(tok.address, chain);
      byToken.set(tok, (of = { chain, id, base: mix32(seed32, hashString(id)) }));
    }
    let walk = walks.get(of.id);
    if (walk === undefined) {
      walks.set(of.id, (walk = new WalkState(of.base, vol)));
      if (walks.size > WALKS_KEPT) walks.delete(walks.keys().next().value!);
    }
    // Clamped to MAX_WALK_STEPS either side of the origin: the price stays put beyond.
    const x = Math.max(-MAX_WALK_STEPS, Math.min(MAX_WALK_STEPS, (at - origin) / stepMs));
    const k = Math.floor(x);
    const l0 = walk.at(k);
    const l1 = walk.at(k + 1);
    return p0 * Math.exp(l0 + (l1 - l0) * (x - k));
  };
}

/** Builds the price function of a feed (pure in its definition, the seed, the token, the chain and the time). */
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
      const byToken = new WeakMap<CatalogueToken, { chain: SpecificChain; tape: [number, number][] | undefined }>();
      return (tok, chain, at) => {
        let found = byToken.get(tok);
        if (found === undefined || found.chain !== chain) byToken.set(tok, (found = { chain, tape: tapes.get(key(tok.address, chain)) }));
        return found.tape ? interpolate(found.tape, at) : constantPrice({}, tok, chain);
      };
    }
    case 'randomWalk':
      return randomWalkFeed(def, seed, defaultOrigin);
    default:
      throw new Error(`unknown price feed kind ${(def as { kind: string }).kind}`);
  }
}
