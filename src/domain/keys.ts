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
