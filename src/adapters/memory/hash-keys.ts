// Keys of the copy-on-write maps and their hashes (FNV-1a with a final mix).

/** A map key: row ids and index keys. */
export type Key = string | number;

/** FNV-1a steps over characters `from` .. `to - 1` of `k`. */
function fnv(h: number, k: string, from: number, to: number): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ k.charCodeAt(i), 0x01000193);
  return h;
}

/** Final mix: low and high bits both usable. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Hash of a number's bits. */
function numberHash(k: number): number {
  return mix((k | 0) === k ? k : Math.trunc(k) ^ Math.trunc(k / 4294967296) ^ Math.trunc((k % 1) * 4294967296));
}

/**
 * Hash of a key over every character of a string, for {@link IdMap}: its open addressing needs
 * keys alike at both ends to spread too.
 */
export function hashKey(k: Key): number {
  return typeof k === 'number' ? numberHash(k) : mix(fnv(0x811c9dc5 ^ k.length, k, 0, k.length));
}

/**
 * Shard hash of a {@link ShardMap} key: the length and the first and last 8 characters (random ids
 * and composite index keys differ in one or the other). Keys alike at both ends only make shards
 * uneven, never slow or wrong: each shard is a native Map.
 */
export function shardHash(k: Key): number {
  if (typeof k === 'number') return numberHash(k);
  const n = k.length;
  const h = 0x811c9dc5 ^ n;
  return mix(n <= 16 ? fnv(h, k, 0, n) : fnv(fnv(h, k, 0, 8), k, n - 8, n));
}

/** Average entries per shard before the shard count of a map quadruples. */
export const SHARD_FILL = 256;
