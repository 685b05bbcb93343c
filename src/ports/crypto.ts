// Secrets port: hashing, reversible encryption and constant-time comparison of API keys.

/** Key hashing and storage helpers; deterministic so worlds replay identically. */
export interface Secrets {
  /** SHA-256 hex digest of `key`. */
  hash(key: string): string;
  /** Reversible encryption (`<ivhex>:<cipherhex>`), so an admin can read a key back. */
  encrypt(plain: string): string;
  decrypt(enc: string): string;
  /** Constant-time string comparison. */
  equal(a: string, b: string): boolean;
}
