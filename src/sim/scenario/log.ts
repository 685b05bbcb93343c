// The response log: every request and response of a run as canonical JSON lines, and its SHA-256 hash.
import { createHash } from 'node:crypto';
import type { Json } from './types.js';

/** Text put in place of the admin key, which may differ between targets. */
export const ADMIN_KEY_PLACEHOLDER = '<admin-key>';

/** Characters JSON.stringify escapes in a string (lone surrogates included); without them the text is the string in quotes. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** An object's own key list with its sorted order and each sorted key's `"key":` text. */
interface Shape {
  keys: readonly string[];
  sorted: readonly string[];
  prefix: readonly string[];
}

/**
 * Shapes by first key: API answers repeat a few shapes thousands of times. A lookup compares key
 * lists element by element (property names are interned, so that is a pointer comparison each).
 */
const shapes = new Map<string, Shape[]>();
let shapeCount = 0;
/** Shapes kept in all (memos only: past the limit the cache starts over) and per first key (past it, a shape is sorted each time). */
const SHAPE_LIMIT = 10_000;
const SHAPES_PER_FIRST_KEY = 16;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function shapeOf(value: object): Shape {
  const keys = Object.keys(value);
  const first = keys.length === 0 ? '' : keys[0]!;
  let list = shapes.get(first);
  if (list !== undefined) for (const shape of list) if (sameKeys(shape.keys, keys)) return shape;
  const sorted = keys.slice().sort();
  const shape: Shape = { keys, sorted, prefix: sorted.map((k) => `${quote(k)}:`) };
  if (shapeCount >= SHAPE_LIMIT) {
    shapes.clear();
    shapeCount = 0;
    list = undefined;
  }
  if (list === undefined) shapes.set(first, (list = []));
  if (list.length < SHAPES_PER_FIRST_KEY) {
    list.push(shape);
    shapeCount += 1;
  }
  return shape;
}

/** `value` with every occurrence of each secret (in order) replaced by {@link ADMIN_KEY_PLACEHOLDER}. */
function redactText(value: string, secrets: readonly string[]): string {
  let out = value;
  for (const k of secrets) if (out.includes(k)) out = out.split(k).join(ADMIN_KEY_PLACEHOLDER);
  return out;
}

/**
 * The canonical text of what `value` becomes on the wire, i.e. of `JSON.parse(JSON.stringify(value))`,
 * with string values redacted (keys are kept as they are); `undefined` where JSON.stringify leaves
 * the value out. One pass and no copy: `toJSON` is called with the same key, boxed primitives are
 * unwrapped, non-finite numbers are null, and members that are undefined, functions or symbols are
 * dropped (null inside arrays, holes too).
 */
function wireText(input: unknown, key: string, secrets: readonly string[]): string | undefined {
  let value = input;
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'string':
      return quote(secrets.length > 0 ? redactText(value, secrets) : value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += wireText(value[i], String(i), secrets) ?? 'null';
    }
    return `${out}]`;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null && (value instanceof Number || value instanceof String || value instanceof Boolean)) {
    return wireText(value.valueOf(), key, secrets);
  }
  const { sorted, prefix } = shapeOf(value);
  let out = '{';
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i]!;
    const text = wireText((value as Record<string, unknown>)[k], k, secrets);
    if (text === undefined) continue;
    out += out.length === 1 ? `${prefix[i]!}${text}` : `,${prefix[i]!}${text}`;
  }
  return `${out}}`;
}

/**
 * JSON with object keys sorted at every level and no whitespace, of the value as it crosses the
 * wire (`undefined` members dropped, `toJSON` applied); `null` for a value JSON cannot write.
 */
export function canonicalJson(value: unknown): string {
  return wireText(value, '', []) ?? 'null';
}

/** One logged exchange. */
export interface LogEntry {
  /** What caused it: `reset`, `actors.alice`, `steps[3]`. */
  at: string;
  request: { method: string; path: string; query?: Record<string, string>; as?: string; headers?: Record<string, string>; body?: Json };
  /** `body` may be any value with the JSON text of the response body (e.g. an in-process answer before it is serialised). */
  response: { status: number; body?: unknown };
}

const NO_SECRETS: readonly string[] = [];

/** Size of the buffers the log's text is kept in. */
const CHUNK_BYTES = 1 << 20;

/**
 * Collects exchanges as canonical JSON lines. Admin keys are replaced by `<admin-key>` (the
 * only value a target may choose freely), so the same scenario gives the same log on every target.
 *
 * The text is kept as UTF-8 in 1 MB buffers, hashed as each one fills: a week's log is hundreds of
 * MB, and as strings its lines would be copied by every garbage collection that moves them.
 */
export class ResponseLog {
  private readonly secrets: string[] = [];
  /** Whether every secret is written by JSON as it is (then lines without one need no redaction pass). */
  private plainSecrets = true;
  private readonly sha = createHash('sha256');
  /** Filled buffers (hashed), then the one being written. */
  private readonly full: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  private lines = 0;

  /** Adds a key to redact from every later entry. */
  redactKey(key: string): void {
    if (key === '' || this.secrets.includes(key)) return;
    this.secrets.push(key);
    this.plainSecrets &&= !NEEDS_ESCAPE.test(key);
  }

  /** Appends one exchange; returns its line. */
  add(entry: LogEntry): string {
    let line = wireText(entry, '', this.plainSecrets ? NO_SECRETS : this.secrets)!;
    // A secret JSON writes as it is shows in the line whenever a string value holds it.
    if (this.plainSecrets && this.secrets.some((k) => line.includes(k))) line = wireText(entry, '', this.secrets)!;
    const most = line.length * 3 + 1; // UTF-8 bytes of a UTF-16 unit are at most 3, plus the newline
    if (this.used + most > this.chunk.length) {
      this.seal();
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, most));
    }
    this.used += this.chunk.write(line, this.used);
    this.chunk[this.used++] = 0x0a;
    this.lines += 1;
    return line;
  }

  private seal(): void {
    if (this.used === 0) return;
    const done = this.chunk.subarray(0, this.used);
    this.sha.update(done);
    this.full.push(done);
    this.used = 0;
  }

  /** Number of exchanges. */
  get size(): number {
    return this.lines;
  }

  /** The log as text: one canonical JSON line per exchange, each ending in a newline. */
  text(): string {
    return Buffer.concat([...this.full, this.chunk.subarray(0, this.used)]).toString('utf8');
  }

  /** SHA-256 (hex) of {@link text}. */
  hash(): string {
    return this.sha.copy().update(this.chunk.subarray(0, this.used)).digest('hex');
  }
}
