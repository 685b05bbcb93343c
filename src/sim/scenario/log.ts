// The response log: every request and response of a run as canonical JSON lines, and its SHA-256 hash.
import { createHash } from 'node:crypto';
import type { Json } from './types.js';

/** JSON with object keys sorted at every level and no whitespace (`undefined` members dropped). */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
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

function redact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((s, k) => s.split(k).join(ADMIN_KEY_PLACEHOLDER), value);
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, secrets)]));
  }
  return value;
}

/**
 * Collects exchanges as canonical JSON lines. Admin keys are replaced by `<admin-key>` (the
 * only value a target may choose freely), so the same scenario gives the same log on every target.
 */
export class ResponseLog {
  private readonly lines: string[] = [];
  private readonly secrets: string[] = [];

  /** Adds a key to redact from every later entry. */
  redactKey(key: string): void {
    if (key !== '' && !this.secrets.includes(key)) this.secrets.push(key);
  }

  /** Appends one exchange; returns its line. */
  add(entry: LogEntry): string {
    const line = canonicalJson(redact(entry, this.secrets));
    this.lines.push(line);
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
    return createHash('sha256').update(this.text()).digest('hex');
  }
}
