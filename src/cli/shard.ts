// `--shard i/n`: parsing, and the stable share of a list one shard runs (round-robin over a sorted order).
import { UsageError } from './args.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard { index: number; count: number }

/** Parses `i/n` (1 <= i <= n); a usage error otherwise. */
export function shardValue(name: string, v: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(v);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count) throw new UsageError(`${name} must be i/n with 1 <= i <= n (e.g. 1/4), got '${v}'`);
  return { index, count };
}

/**
 * The items of shard `index` of `count`: the items are ordered by `key` (code-unit order, so the
 * order never depends on the locale or on the order they were given in) and dealt out round-robin.
 * Every item lands in exactly one shard, the shards differ in size by at most one, and the same
 * items always give the same shards. The result keeps the items' original order.
 */
export function pickShard<T>(items: readonly T[], shard: Shard | undefined, key: (item: T) => string): T[] {
  if (shard === undefined || shard.count === 1) return [...items];
  const keys = items.map(key);
  const sorted = items.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
  const mine = new Set(sorted.filter((_, rank) => rank % shard.count === shard.index - 1));
  return items.filter((_, i) => mine.has(i));
}

/** `--workers n`: a positive integer. */
export function workersValue(name: string, v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 256) throw new UsageError(`${name} must be an integer 1-256, got '${v}'`);
  return Number(v);
}
