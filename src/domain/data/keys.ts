// Composite keys (`<a>:<b>`) interned: the same pair gives the same string object, so the store hashes it once, not per lookup.

/** First part -> second part -> key. */
const cache = new Map<string, Map<string, string>>();
let entries = 0;
/** Entries kept before the cache starts over (it is a memo only: keys are plain strings either way). */
const LIMIT = 1 << 18;

/**
 * `${a}:${b}` as the same string object for the same pair. A freshly concatenated key costs a
 * flatten and a hash on every store lookup (the hot part of a trade); an interned one is hashed
 * once. The value is exactly the template literal's, so interning changes no result.
 */
export function pairKey(a: string, b: string): string {
  let inner = cache.get(a);
  if (inner === undefined) {
    inner = new Map();
    cache.set(a, inner);
  }
  let k = inner.get(b);
  if (k === undefined) {
    if (entries >= LIMIT) {
      cache.clear();
      entries = 0;
      inner = new Map();
      cache.set(a, inner);
    }
    k = `${a}:${b}`;
    inner.set(b, k);
    entries += 1;
  }
  return k;
}

/** Token addresses as one string object per address: requests parse a new copy of the same few addresses every time. */
const tokens = new Map<string, string>();

/**
 * `address` as the first string object stored with these characters. Stored trades and balance
 * rows keep their token addresses; without this, a server keeps the copies its request bodies
 * parsed (about 64 bytes each, two per trade) instead of sharing one. Only accepted trades intern
 * (their rows keep the string anyway). Same characters, so no result changes.
 */
export function internToken(address: string): string {
  const known = tokens.get(address);
  if (known !== undefined) return known;
  if (tokens.size >= LIMIT) tokens.clear();
  tokens.set(address, address);
  return address;
}
