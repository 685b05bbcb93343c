// Ids port: one seeded source for every uuid, key, nonce, wallet and random draw.

/** JSON-serialisable state of the id/RNG source (part of every snapshot). */
export interface IdsState {
  algorithm: string;
  state: number[];
}

/** Deterministic source of identifiers and randomness. */
export interface Ids {
  /** RFC 4122 version-4 layout, bytes drawn from the RNG. */
  uuid(): string;
  /** Upstream key format: 16 hex + "_" + 16 hex. */
  apiKey(): string;
  /** `bytes` random bytes as lower-case hex. */
  hex(bytes: number): string;
  /** 17 characters of [A-Za-z0-9]. */
  nonce(): string;
  /** "0x" + 40 lower-case hex characters. */
  wallet(): string;
  /** Uniform draw in [0, 1). */
  random(): number;
  state(): IdsState;
  setState(s: IdsState): void;
}
