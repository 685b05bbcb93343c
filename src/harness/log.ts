// The response log: every request of a run (canonical JSON) and its answer's text as sent, one line per exchange, and its SHA-256 hash.
import { createHash } from 'node:crypto';
import type { Json } from './types.js';

/** Text put in place of the admin key, which may differ between targets. */
export const ADMIN_KEY_PLACEHOLDER = '<admin-key>';

/**
 * JSON text with object keys sorted at every level and no whitespace. `value` is JSON data (what
 * `JSON.parse` gives, i.e. what crossed the wire); what else JSON.stringify accepts is written as
 * it writes it where that is cheap: undefined members left out (null in arrays), non-finite numbers
 * as null, a BigInt refused. `text` maps every string value (not keys) before it is written: the
 * log's redaction.
 */
export function canonicalJson(value: unknown, text: (s: string) => string = (s) => s): string {
  return write(value, text) ?? 'null';
}

/** Characters JSON.stringify escapes in a string: the quote, the backslash, control characters and (when lone) surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `s` as a JSON string (JSON.stringify, a native call, only for the few strings that need escapes). */
function quote(s: string): string {
  return ESCAPED.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** The canonical text of `value`, or undefined where JSON leaves the value out. */
function write(value: unknown, text: (s: string) => string): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(text(value));
    case 'object':
      break;
    default:
      // Numbers (non-finite ones as null), booleans, and undefined, functions and symbols (undefined); a BigInt throws.
      return JSON.stringify(value);
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + (write(value[i], text) ?? 'null');
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(object).sort()) {
    const member = write(object[key], text);
    if (member !== undefined) out += `${out.length > 1 ? ',' : ''}${quote(key)}:${member}`;
  }
  return `${out}}`;
}

/** An answer as the log writes it: its status and its body's text as sent. */
export interface LoggedAnswer {
  status: number;
  /** The body as the server sent it (`''`: none). */
  text: string;
  /** True when `text` is JSON (written in as it is); other text is written as a JSON string. */
  json: boolean;
}

/** One logged exchange. */
export interface LogEntry {
  /** What caused it: `reset`, `actors.alice`, `steps[3]`. */
  at: string;
  /** A call with `at`: the instant the clock was moved to first, and the sim API's answer. */
  clock?: LoggedAnswer & { set: string };
  request: { method: string; path: string; query?: Record<string, string>; as?: string; headers?: Record<string, string>; body?: Json };
  response: LoggedAnswer;
}

/**
 * Collects exchanges as JSON lines and hashes them as they come:
 * `{"at":...,"clock":{"body":...,"set":...,"status":...},"request":{...},"response":{"body":...,"status":...}}`
 * (keys sorted; `clock` only on a call that moved the clock, `body` only when there is one). The
 * request is canonical JSON; an answer's body is its text as the server sent it, so the same
 * scenario gives the same line wherever the same server code wrote the answer. Admin keys are
 * replaced by `<admin-key>` (the only value a target may choose freely), in the request's strings
 * and wherever the answer's text holds one as JSON writes it.
 */
export class ResponseLog {
  /** Each secret as it is searched for in a string value, and as it appears inside JSON text. */
  private readonly secrets: { plain: string; inJson: string }[] = [];
  private readonly sha = createHash('sha256');
  /** The lines, when the text is kept. */
  private readonly lines: string[] | undefined;
  private count = 0;

  /** `keepText`: false keeps only the hash ({@link text} throws), so memory stays flat however long the run. */
  constructor(keepText = true) {
    this.lines = keepText ? [] : undefined;
  }

  /** Adds a key to redact from every later entry. */
  redactKey(key: string): void {
    if (key !== '' && !this.secrets.some((s) => s.plain === key)) this.secrets.push({ plain: key, inJson: JSON.stringify(key).slice(1, -1) });
  }

  /** Appends one exchange as a line; a request JSON cannot write (a BigInt) throws and leaves the log as it was. */
  add(entry: LogEntry): void {
    const { clock, response } = entry;
    const request = canonicalJson(entry.request, this.redact);
    const moved = clock === undefined ? '' : `"clock":{${this.bodyOf(clock)}"set":${quote(clock.set)},"status":${clock.status}},`;
    const line = `{"at":${quote(entry.at)},${moved}"request":${request},"response":{${this.bodyOf(response)}"status":${response.status}}}\n`;
    this.sha.update(line);
    this.lines?.push(line);
    this.count += 1;
  }

  /** `"body":<text>,` of an answer (redacted), or nothing when it has no body. */
  private bodyOf(a: LoggedAnswer): string {
    if (a.text === '') return '';
    let text = a.text;
    for (const s of this.secrets) {
      const found = a.json ? s.inJson : s.plain;
      if (text.includes(found)) text = text.split(found).join(ADMIN_KEY_PLACEHOLDER);
    }
    return `"body":${a.json ? text : quote(text)},`;
  }

  /** `s` with every occurrence of each secret (in order) replaced by {@link ADMIN_KEY_PLACEHOLDER}. */
  private readonly redact = (s: string): string => {
    let out = s;
    for (const { plain } of this.secrets) if (out.includes(plain)) out = out.split(plain).join(ADMIN_KEY_PLACEHOLDER);
    return out;
  };

  /** Number of exchanges. */
  get size(): number {
    return this.count;
  }

  /** The log as text: one JSON line per exchange, each ending in a newline. */
  text(): string {
    if (this.lines === undefined) throw new Error('the response log keeps only its hash (keepText: false)');
    return this.lines.join('');
  }

  /** SHA-256 (hex) of {@link text}. */
  hash(): string {
    return this.sha.copy().digest('hex');
  }
}
