// Price feeds: constant table, recorded tape with linear interpolation, seeded random walk; all pure in (feed, seed, token, chain, t).
import { CLOCK_RANGE_TEXT, inClockRange } from '../../ports/clock.js';
import { MAX_PRICE, SPECIFIC_CHAINS, type SpecificChain } from '../../ports/prices.js';
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

/** Largest standard deviation of a random walk's log return per step (10 %): far larger ones only overflow to no price. */
export const MAX_VOLATILITY = 0.1;

/** A field of a feed definition that cannot be used: its path inside the definition (`stepMs`, `tapes["svm:So1..."][2][1]`) and why. */
export interface FeedProblem { field: string; reason: string }

const CHAINS: readonly string[] = SPECIFIC_CHAINS;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const keyProblem = (k: string) => {
  const i = k.indexOf(':');
  return i > 0 && CHAINS.includes(k.slice(0, i)) && i < k.length - 1 ? null : 'must be "<specificChain>:<address>"';
};

/** Splits `"<chain>:<address>"` (the address is everything after the first colon, as {@link keyProblem} reads it); throws a message naming the key when it is not one. */
export function parseTapeKey(k: string): { chain: SpecificChain; address: string } {
  const i = k.indexOf(':');
  const chain = k.slice(0, i) as SpecificChain;
  const address = k.slice(i + 1);
  if (i < 0 || !CHAINS.includes(chain) || address === '') {
    throw new Error(`tape key '${k}' is not "<specificChain>:<address>"`);
  }
  return { chain, address };
}

const priceProblem = (v: unknown) => (finite(v) && v >= 0 && v <= MAX_PRICE ? null : `must be a number from 0 to ${MAX_PRICE}, got ${JSON.stringify(v)}`);

function constantProblem(def: Record<string, unknown>): FeedProblem | null {
  if (def.prices === undefined) return null;
  if (!isPlainObject(def.prices)) return { field: 'prices', reason: 'must be an object of "<specificChain>:<address>": price' };
  for (const [k, v] of Object.entries(def.prices)) {
    const bad = keyProblem(k) ?? priceProblem(v);
    if (bad) return { field: `prices[${JSON.stringify(k)}]`, reason: bad };
  }
  return null;
}

function tapeProblem(def: Record<string, unknown>): FeedProblem | null {
  if (!isPlainObject(def.tapes)) return { field: 'tapes', reason: 'must be an object of "<specificChain>:<address>": [[epochMs, price], ...]' };
  for (const [k, pts] of Object.entries(def.tapes)) {
    const at = `tapes[${JSON.stringify(k)}]`;
    const bad = keyProblem(k);
    if (bad) return { field: at, reason: bad };
    if (!Array.isArray(pts) || pts.length === 0) return { field: at, reason: 'must be a non-empty array of [epochMs, price] points' };
    for (let i = 0; i < pts.length; i++) {
      const p = pts[i] as unknown;
      if (!Array.isArray(p) || p.length !== 2) return { field: `${at}[${i}]`, reason: 'must be an [epochMs, price] pair' };
      if (!finite(p[0])) return { field: `${at}[${i}][0]`, reason: `must be a finite number (epoch ms), got ${JSON.stringify(p[0])}` };
      const price = priceProblem(p[1]);
      if (price) return { field: `${at}[${i}][1]`, reason: price };
    }
  }
  return null;
}

function walkProblem(def: Record<string, unknown>): FeedProblem | null {
  if (def.stepMs !== undefined && !(finite(def.stepMs) && def.stepMs >= 1)) return { field: 'stepMs', reason: `must be a number >= 1, got ${JSON.stringify(def.stepMs)}` };
  if (def.volatility !== undefined && !(finite(def.volatility) && def.volatility >= 0 && def.volatility <= MAX_VOLATILITY)) {
    return { field: 'volatility', reason: `must be a number from 0 to ${MAX_VOLATILITY}, got ${JSON.stringify(def.volatility)}` };
  }
  if (def.origin !== undefined && !(finite(def.origin) && inClockRange(def.origin))) {
    return { field: 'origin', reason: `must be an epoch-ms number from ${CLOCK_RANGE_TEXT}, got ${JSON.stringify(def.origin)}` };
  }
  return null;
}

/**
 * The first problem of a feed definition from outside (world options, a fixture), or null: the
 * rules of `POST /api/sim/prices` and `/api/sim/prices/tape` (finite prices from 0 to MAX_PRICE,
 * keys `<specificChain>:<address>`), and for a random walk `stepMs` >= 1, a volatility from 0 to
 * {@link MAX_VOLATILITY} and an `origin` inside the clock's range.
 */
export function feedProblem(def: unknown): FeedProblem | null {
  if (!isPlainObject(def)) return { field: '', reason: `must be an object with a kind (constant, tape or randomWalk), got ${JSON.stringify(def)}` };
  switch (def.kind) {
    case 'constant': return constantProblem(def);
    case 'tape': return tapeProblem(def);
    case 'randomWalk': return walkProblem(def);
    default: return { field: 'kind', reason: `must be constant, tape or randomWalk, got ${JSON.stringify(def.kind ?? null)}` };
  }
}

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
        const { chain, address } = parseTapeKey(k);
        return [key(address, chain), [...pts].sort((x, y) => x[0] - y[0])] as const;
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
