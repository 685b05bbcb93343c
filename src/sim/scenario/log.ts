// The response log: every request and response of a run as canonical JSON lines, and its SHA-256 hash.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { Json } from './types.js';

/** Text put in place of the admin key, which may differ between targets. */
export const ADMIN_KEY_PLACEHOLDER = '<admin-key>';

/** An object's own key list, its sorted order and each sorted key's `,"key":` as UTF-8 bytes (the comma skipped before the first member). */
interface Shape {
  keys: readonly string[];
  sorted: readonly string[];
  prefix: readonly Uint8Array[];
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
  const shape: Shape = { keys, sorted, prefix: sorted.map((k) => new Uint8Array(Buffer.from(`,${JSON.stringify(k)}:`))) };
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

const QUOTE = 0x22;
/** Strings JSON writes as they are, in one byte per character: printable ASCII but the quote and the backslash. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7f]*$/;
/**
 * Length from which a string is checked by a regular expression and copied natively rather than byte
 * by byte: below it the native call costs more than the loop (ids, addresses and timestamps are 24-44).
 */
const NATIVE_FROM = 128;
const COMMA = 0x2c;

/**
 * Writes canonical JSON as UTF-8 straight into a buffer: what `value` becomes on the wire, i.e.
 * `JSON.parse(JSON.stringify(value))`, with object keys sorted at every level, no whitespace and
 * string values redacted (keys are kept as they are). One pass, with no copy of the value and no
 * text of the line as a string: `toJSON` is called with the same key, boxed primitives are unwrapped,
 * non-finite numbers are null, and members that are undefined, functions or symbols are dropped
 * (null inside arrays, holes too).
 *
 * Text accumulates from the start of the buffer; a line being written is the bytes from
 * `lineStart`. When the buffer is full, the bytes before the line go to `retire` and the line so
 * far moves to a fresh buffer (or the one retired before, when its owner gave it back), so a
 * retired buffer only ever holds whole lines.
 */
class CanonicalWriter {
  chunk: Buffer;
  pos = 0;
  lineStart = 0;
  /** Length of the shortest secret: shorter strings cannot hold one. */
  private shortest = Infinity;
  /** A retired buffer its owner no longer needs, written next instead of a new one. */
  private spare: Buffer | undefined;

  constructor(
    private readonly size: number,
    private readonly secrets: readonly string[],
    /** Takes the whole lines before the one being written; 'reuse' gives their buffer back once read. */
    private readonly retire: (done: Buffer) => 'reuse' | 'keep',
  ) {
    this.chunk = Buffer.allocUnsafe(size);
    this.secretsChanged();
  }

  /** Recomputes the shortest secret after the list changed. */
  secretsChanged(): void {
    this.shortest = Infinity;
    for (const k of this.secrets) this.shortest = Math.min(this.shortest, k.length);
  }

  /** Makes room for `n` more bytes. */
  private room(n: number): void {
    if (this.pos + n <= this.chunk.length) return;
    const partial = this.pos - this.lineStart;
    const need = Math.max(this.size, (partial + n) * 2);
    const spare = this.spare;
    const next = spare !== undefined && spare.length >= need ? spare : Buffer.allocUnsafe(need);
    this.spare = undefined;
    this.chunk.copy(next, 0, this.lineStart, this.pos);
    if (this.lineStart > 0 && this.retire(this.chunk.subarray(0, this.lineStart)) === 'reuse') this.spare = this.chunk;
    this.chunk = next;
    this.lineStart = 0;
    this.pos = partial;
  }

  byte(b: number): void {
    if (this.pos >= this.chunk.length) this.room(1);
    this.chunk[this.pos++] = b;
  }

  /** The bytes of `src` from `from`. */
  private bytes(src: Uint8Array, from: number): void {
    const n = src.length - from;
    this.room(n);
    const c = this.chunk;
    const at = this.pos - from;
    for (let i = from; i < src.length; i++) c[at + i] = src[i]!;
    this.pos = at + src.length;
  }

  /** Text known to be ASCII (numbers, literals). */
  private ascii(s: string): void {
    const n = s.length;
    this.room(n);
    const c = this.chunk;
    const at = this.pos;
    for (let i = 0; i < n; i++) c[at + i] = s.charCodeAt(i);
    this.pos = at + n;
  }

  private number(n: number): void {
    if (!Number.isFinite(n)) this.ascii('null');
    // -0 is written as 0, as JSON.stringify does (String(-0) is '0' too).
    else this.ascii(String(n));
  }

  private string(raw: string): void {
    let s = raw;
    if (s.length >= this.shortest) for (const k of this.secrets) if (s.includes(k)) {
      s = redactText(s, this.secrets);
      break;
    }
    const n = s.length;
    this.room(n + 2);
    const c = this.chunk;
    let p = this.pos;
    c[p++] = QUOTE;
    if (n >= NATIVE_FROM) {
      if (!PLAIN.test(s)) {
        this.escaped(s);
        return;
      }
      c.write(s, p, n, 'latin1');
      c[p + n] = QUOTE;
      this.pos = p + n + 1;
      return;
    }
    for (let i = 0; i < n; i++) {
      const ch = s.charCodeAt(i);
      // Printable ASCII but the quote and the backslash is written as it is; anything else as JSON.stringify writes it.
      if (ch < 0x20 || ch >= 0x80 || ch === QUOTE || ch === 0x5c) {
        this.escaped(s);
        return;
      }
      c[p++] = ch;
    }
    c[p++] = QUOTE;
    this.pos = p;
  }

  private escaped(s: string): void {
    const text = JSON.stringify(s); // lone surrogates come out escaped, so the text is valid UTF-16
    this.room(Buffer.byteLength(text));
    this.pos += this.chunk.write(text, this.pos);
  }

  /** Writes the canonical text of `input` (member `key` of its parent); false, with nothing written, where JSON leaves the value out. */
  value(input: unknown, key: string): boolean {
    let value = input;
    if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      value = (value as { toJSON(key: string): unknown }).toJSON(key);
    }
    switch (typeof value) {
      case 'string':
        this.string(value);
        return true;
      case 'number':
        this.number(value);
        return true;
      case 'boolean':
        this.ascii(value ? 'true' : 'false');
        return true;
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
      case 'object':
        break;
      default:
        return false;
    }
    if (value === null) {
      this.ascii('null');
      return true;
    }
    if (Array.isArray(value)) {
      this.byte(0x5b);
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.byte(COMMA);
        if (!this.value(value[i], String(i))) this.ascii('null');
      }
      this.byte(0x5d);
      return true;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null && (value instanceof Number || value instanceof String || value instanceof Boolean)) {
      return this.value(value.valueOf(), key);
    }
    const { sorted, prefix } = shapeOf(value);
    this.byte(0x7b);
    let empty = true;
    for (let i = 0; i < sorted.length; i++) {
      const k = sorted[i]!;
      // Relative to the line: making room may move the line to a new buffer.
      const mark = this.pos - this.lineStart;
      this.bytes(prefix[i]!, empty ? 1 : 0);
      if (this.value((value as Record<string, unknown>)[k], k)) empty = false;
      else this.pos = this.lineStart + mark;
    }
    this.byte(0x7d);
    return true;
  }
}

/**
 * JSON with object keys sorted at every level and no whitespace, of the value as it crosses the
 * wire (`undefined` members dropped, `toJSON` applied); `null` for a value JSON cannot write.
 */
export function canonicalJson(value: unknown): string {
  const w = new CanonicalWriter(256, [], () => 'reuse');
  return w.value(value, '') ? w.chunk.toString('utf8', 0, w.pos) : 'null';
}

/** One logged exchange. */
export interface LogEntry {
  /** What caused it: `reset`, `actors.alice`, `steps[3]`. */
  at: string;
  /** A call with `at`: the instant the clock was moved to first, and the sim API's answer. */
  clock?: { set: string; status: number; body?: unknown };
  request: { method: string; path: string; query?: Record<string, string>; as?: string; headers?: Record<string, string>; body?: Json };
  /** `body` may be any value with the JSON text of the response body (e.g. an in-process answer before it is serialised). */
  response: { status: number; body?: unknown };
}

/** Why a log that keeps only its hash has no text. */
const HASH_ONLY = 'the response log keeps only its hash (keepText: false)';

/** Size of the buffers the log's text is kept in. */
const CHUNK_BYTES = 1 << 20;

/**
 * Collects exchanges as canonical JSON lines. Admin keys are replaced by `<admin-key>` (the
 * only value a target may choose freely), so the same scenario gives the same log on every target.
 *
 * The text is written as UTF-8 into 1 MB buffers, hashed as each one fills: a week's log is
 * hundreds of MB, and as strings its lines would cost a string per value and a copy per line
 * before the bytes, and be copied by every garbage collection that moves them. A log that keeps
 * only its hash writes every line into the same two buffers.
 */
export class ResponseLog implements ExchangeLog {
  private readonly secrets: string[] = [];
  private readonly sha = createHash('sha256');
  /** Filled buffers (hashed) when the text is kept; the writer holds the one being written. */
  private readonly full: Buffer[] = [];
  private readonly out: CanonicalWriter;
  private lines = 0;

  /**
   * `chunkBytes`: size of the buffers (tests use tiny ones, so lines cross them). `keepText`:
   * false keeps only the hash ({@link text} throws), so memory stays flat however long the run.
   */
  constructor(chunkBytes = CHUNK_BYTES, private readonly keepText = true) {
    this.out = new CanonicalWriter(chunkBytes, this.secrets, (done) => {
      this.sha.update(done);
      if (!keepText) return 'reuse';
      this.full.push(done);
      return 'keep';
    });
  }

  /** Adds a key to redact from every later entry. */
  redactKey(key: string): void {
    if (key === '' || this.secrets.includes(key)) return;
    this.secrets.push(key);
    this.out.secretsChanged();
  }

  /** Appends one exchange as a line; an entry JSON cannot write (a BigInt, a throwing `toJSON`) throws and leaves the log as it was. */
  add(entry: LogEntry): void {
    const w = this.out;
    try {
      w.value(entry, '');
    } catch (err) {
      w.pos = w.lineStart;
      throw err;
    }
    w.byte(0x0a);
    w.lineStart = w.pos;
    this.lines += 1;
  }

  /** Number of exchanges. */
  get size(): number {
    return this.lines;
  }

  /** The log as text: one canonical JSON line per exchange, each ending in a newline. */
  text(): string {
    return Buffer.concat(this.bytes()).toString('utf8');
  }

  /** SHA-256 (hex) of {@link text}. */
  hash(): string {
    return this.sha.copy().update(this.out.chunk.subarray(0, this.out.pos)).digest('hex');
  }

  finish(): Promise<string> {
    return Promise.resolve(this.hash());
  }

  /** The text as UTF-8 bytes, in the buffers it is kept in (the last one partly filled). */
  bytes(): Buffer[] {
    if (!this.keepText) throw new Error(HASH_ONLY);
    return [...this.full, this.out.chunk.subarray(0, this.out.pos)];
  }
}

/** What the runner writes its exchanges to: {@link ResponseLog}, or {@link ThreadedLog} for long runs. */
export interface ExchangeLog {
  /** Adds a key to redact from every later entry. */
  redactKey(key: string): void;
  /** Appends one exchange as a line; an entry JSON cannot write throws and leaves the log as it was. */
  add(entry: LogEntry): void;
  /** Number of exchanges. */
  readonly size: number;
  /** Ends the log (nothing may be added after): the SHA-256 (hex) of its text. */
  finish(): Promise<string>;
  /** The text (after {@link finish}, for a threaded log); throws when only the hash is kept. */
  text(): string;
}

/** Messages to a threaded log's worker: JSON lines (`length` bytes of `buffer`), a key to redact, the end. */
type ToWorker = { kind: 'lines'; buffer: ArrayBuffer; length: number } | { kind: 'key'; key: string } | { kind: 'end' };
/** The worker's one answer, to `end` or to the first thing that went wrong. */
type FromWorker = { kind: 'done'; hash: string; lines: number; text: Uint8Array[] } | { kind: 'failed'; message: string };

/** Size of the buffers JSON lines go to the worker in (moved, not copied). */
const HANDOFF_BYTES = 1 << 20;

/**
 * The worker's entry: loads this module and serves the log. Built, the module is JavaScript; run
 * from source (tests, the benchmarks' driver), it is TypeScript, which tsx compiles for the main
 * thread only, so the worker asks tsx for it itself.
 */
const WORKER_BOOT = `
const { parentPort, workerData } = require('node:worker_threads');
const { module: url, tsx } = workerData;
(tsx ? import(tsx).then((api) => api.tsImport(url, url)) : import(url)).then(
  (m) => m.serveThreadedLog(parentPort, workerData.keepText),
  (err) => parentPort.postMessage({ kind: 'failed', message: 'loading the log writer: ' + (err && err.message) }),
);`;

/** What the worker loads: this module, and tsx's API when this module is TypeScript (null: TypeScript run some other way). */
function workerModule(): { module: string; tsx: string | null } | null {
  const module = import.meta.url;
  if (!module.endsWith('.ts')) return { module, tsx: null };
  try {
    // The ESM build of tsx's API (its CommonJS build cannot be loaded from a worker this way).
    const require = createRequire(module);
    const manifest = require.resolve('tsx/package.json');
    const entry = (require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
    return { module, tsx: pathToFileURL(join(dirname(manifest), entry)).href };
  } catch {
    return null;
  }
}

let loadable: ReturnType<typeof workerModule> | undefined;

/**
 * The response log written on a second thread. Here each entry only becomes JSON text
 * (`JSON.stringify`, native code: about two thirds of what sorting keys and writing a line in
 * JavaScript costs), which goes to a worker thread in 1 MB buffers; the worker parses it back and
 * writes, hashes and (with `keepText`) keeps the canonical lines with a {@link ResponseLog} of its
 * own. A canonical line is by definition that of the entry's JSON round trip, so text and hash are
 * the same as a {@link ResponseLog}'s: only where the work is done differs. A run of many steps
 * gains what the lines cost, less the JSON text; starting the thread costs 50-100 ms, so shorter
 * runs write their log in place (the runner's `THREADED_LOG_STEPS`).
 */
export class ThreadedLog implements ExchangeLog {
  private readonly worker: Worker;
  private chunk = Buffer.allocUnsafeSlow(HANDOFF_BYTES);
  private pos = 0;
  private lines = 0;
  private ended = false;
  /** The text's bytes, once the worker sent them back. */
  private kept: Uint8Array[] | undefined;
  private readonly answer: Promise<FromWorker>;

  /** Whether a worker thread can load the writer (always, built; from source, when tsx is there). */
  static available(): boolean {
    loadable ??= workerModule();
    return loadable !== null;
  }

  constructor(private readonly keepText = true) {
    if (!ThreadedLog.available()) throw new Error('the response log cannot be written on a thread: its TypeScript source needs tsx');
    const worker = new Worker(WORKER_BOOT, { eval: true, workerData: { ...loadable, keepText } });
    this.worker = worker;
    // The worker answers once: at the end, or at the first failure (a crash or an exit counts as one).
    this.answer = new Promise<FromWorker>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the response log's thread stopped (exit code ${code})`)));
    });
    this.answer.catch(() => undefined); // read by finish()
    // Only the end waits for the thread: a run dropped half-way does not keep the process alive.
    worker.unref();
  }

  redactKey(key: string): void {
    this.open();
    // The lines before the key go first: the worker redacts from the next line on, as ResponseLog does.
    this.flush();
    this.post({ kind: 'key', key });
  }

  add(entry: LogEntry): void {
    this.open();
    // Throws (a BigInt, a throwing toJSON) before anything is written.
    const text = JSON.stringify(entry);
    // At most 3 bytes per UTF-16 unit; the exact count only when that might not fit.
    const room = this.chunk.length - this.pos;
    if (text.length * 3 + 1 > room) {
      const need = Buffer.byteLength(text) + 1;
      if (need > room) {
        this.flush();
        if (need > this.chunk.length) this.chunk = Buffer.allocUnsafeSlow(need);
      }
    }
    this.pos += this.chunk.write(text, this.pos);
    this.chunk[this.pos++] = 0x0a;
    this.lines += 1;
  }

  get size(): number {
    return this.lines;
  }

  async finish(): Promise<string> {
    this.open();
    this.ended = true;
    this.flush();
    this.post({ kind: 'end' });
    this.worker.ref();
    try {
      const answer = await this.answer;
      if (answer.kind === 'failed') throw new Error(`the response log's thread failed: ${answer.message}`);
      if (answer.lines !== this.lines) throw new Error(`the response log's thread wrote ${answer.lines} lines of ${this.lines}`);
      this.kept = answer.text;
      return answer.hash;
    } finally {
      await this.worker.terminate();
    }
  }

  text(): string {
    if (!this.keepText) throw new Error(HASH_ONLY);
    if (this.kept === undefined) throw new Error('the text of a threaded response log is there once finish() has settled');
    return Buffer.concat(this.kept).toString('utf8');
  }

  private open(): void {
    if (this.ended) throw new Error('the response log is finished');
  }

  private post(m: ToWorker, transfer?: ArrayBuffer[]): void {
    this.worker.postMessage(m, transfer);
  }

  /** Moves the lines written so far to the worker. */
  private flush(): void {
    if (this.pos === 0) return;
    const { buffer } = this.chunk;
    this.post({ kind: 'lines', buffer: buffer as ArrayBuffer, length: this.pos }, [buffer as ArrayBuffer]);
    this.chunk = Buffer.allocUnsafeSlow(HANDOFF_BYTES);
    this.pos = 0;
  }
}

/**
 * The worker side of a {@link ThreadedLog}: every line it is sent, parsed, goes through a
 * {@link ResponseLog}; `end` is answered with the hash, the line count and (with `keepText`) the
 * text. The first failure is answered instead, and what comes after it is ignored.
 */
export function serveThreadedLog(port: MessagePort, keepText: boolean): void {
  const log = new ResponseLog(CHUNK_BYTES, keepText);
  let failed = false;
  port.on('message', (m: ToWorker) => {
    if (failed) return;
    try {
      if (m.kind === 'lines') {
        const bytes = Buffer.from(m.buffer, 0, m.length);
        for (let start = 0; start < m.length;) {
          const end = bytes.indexOf(0x0a, start);
          log.add(JSON.parse(bytes.toString('utf8', start, end)) as LogEntry);
          start = end + 1;
        }
      } else if (m.kind === 'key') {
        log.redactKey(m.key);
      } else {
        const text = keepText ? log.bytes() : [];
        const answer: FromWorker = { kind: 'done', hash: log.hash(), lines: log.size, text };
        // The text's buffers move to the runner's thread (a week's log is hundreds of MB): this thread ends next.
        port.postMessage(answer, [...new Set(text.map((b) => b.buffer as ArrayBuffer))]);
      }
    } catch (err) {
      failed = true;
      port.postMessage({ kind: 'failed', message: (err as Error).message } satisfies FromWorker);
    }
  });
}
