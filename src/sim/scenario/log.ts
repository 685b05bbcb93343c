// The response log: every request and response of a run as canonical JSON lines, and its SHA-256 hash.
import { createHash } from 'node:crypto';
import type { Json } from './types.js';

/** Sorted key lists by the object's own key list (joined): API answers repeat a few shapes thousands of times. */
const sortedKeys = new Map<string, readonly string[]>();
/** Keys as JSON strings. */
const quotedKeys = new Map<string, string>();
/** Entries each cache keeps before starting over (they are memos only). */
const CACHE_LIMIT = 10_000;

function sortedKeysOf(value: object): readonly string[] {
  const keys = Object.keys(value);
  if (keys.length < 2) return keys;
  const id = keys.join('\u0000');
  let sorted = sortedKeys.get(id);
  if (sorted === undefined) {
    if (sortedKeys.size >= CACHE_LIMIT) sortedKeys.clear();
    sorted = keys.sort();
    sortedKeys.set(id, sorted);
  }
  return sorted;
}

function quoted(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    if (quotedKeys.size >= CACHE_LIMIT) quotedKeys.clear();
    q = JSON.stringify(key);
    quotedKeys.set(key, q);
  }
  return q;
}

/** `value` with every occurrence of each secret (in order) replaced by {@link ADMIN_KEY_PLACEHOLDER}. */
function redactText(value: string, secrets: readonly string[]): string {
  let out = value;
  for (const k of secrets) if (out.includes(k)) out = out.split(k).join(ADMIN_KEY_PLACEHOLDER);
  return out;
}

/**
 * Writes the canonical JSON of `value` into `out`, string values redacted (keys are kept as they
 * are): one pass, no copy of the value. An array hole writes nothing, as `Array.prototype.join`
 * does. The pieces are joined once at the end, so a line is one flat string, not a rope of pieces.
 */
function canonical(value: unknown, secrets: readonly string[], out: string[]): void {
  if (value === undefined) {
    out.push('null');
  } else if (value === null || typeof value !== 'object') {
    out.push(typeof value === 'string' && secrets.length > 0 ? JSON.stringify(redactText(value, secrets)) : JSON.stringify(value) ?? 'null');
  } else if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      if (i in value) canonical(value[i], secrets, out);
    }
    out.push(']');
  } else {
    out.push('{');
    let first = true;
    for (const k of sortedKeysOf(value)) {
      const v = (value as Record<string, unknown>)[k];
      if (v === undefined) continue;
      out.push(first ? `${quoted(k)}:` : `,${quoted(k)}:`);
      canonical(v, secrets, out);
      first = false;
    }
    out.push('}');
  }
}

function canonicalText(value: unknown, secrets: readonly string[]): string {
  const out: string[] = [];
  canonical(value, secrets, out);
  return out.join('');
}

/** JSON with object keys sorted at every level and no whitespace (`undefined` members dropped). */
export function canonicalJson(value: unknown): string {
  return canonicalText(value, []);
}

/** One logged exchange. */
export interface LogEntry {
  /** What caused it: `reset`, `actors.alice`, `steps[3]`. */
  at: string;
  request: { method: string; path: string; query?: Record<string, string>; as?: string; headers?: Record<string, string>; body?: Json };
  response: { status: number; body?: Json };
}

/** Text put in place of the admin key, which may differ between targets. */
export const ADMIN_KEY_PLACEHOLDER = '<admin-key>';

/**
 * Collects exchanges as canonical JSON lines. Admin keys are replaced by `<admin-key>` (the
 * only value a target may choose freely), so the same scenario gives the same log on every target.
 */
export class ResponseLog {
  private readonly lines: string[] = [];
  private readonly secrets: string[] = [];
  /** SHA-256 of the lines so far, updated line by line (a week's log is hundreds of MB of text). */
  private readonly sha = createHash('sha256');

  /** Adds a key to redact from every later entry. */
  redactKey(key: string): void {
    if (key !== '' && !this.secrets.includes(key)) this.secrets.push(key);
  }

  /** Appends one exchange; returns its line. */
  add(entry: LogEntry): string {
    const line = canonicalText(entry, this.secrets);
    this.lines.push(line);
    this.sha.update(`${line}\n`);
    return line;
  }

  /** Number of exchanges. */
  get size(): number {
    return this.lines.length;
  }

  /** The log as text: one canonical JSON line per exchange, each ending in a newline. */
  text(): string {
    return this.lines.map((l) => `${l}\n`).join('');
  }

  /** SHA-256 (hex) of {@link text}. */
  hash(): string {
    return this.sha.copy().digest('hex');
  }
}
