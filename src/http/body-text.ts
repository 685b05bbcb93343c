// A request body's text read as compsim serve reads it (strict JSON, limits, Content-Type), shared by the server, the msw handlers and the in-process scenario target.
import { createRequire } from 'node:module';
import { HttpError } from './envelope.js';

/** Largest request body `compsim serve` reads, as koa-bodyparser's limit and in bytes. */
export const BODY_LIMIT = '1mb';
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Largest body of `POST /api/sim/load`, a whole world document. */
export const LOAD_BODY_LIMIT = '200mb';
export const LOAD_BODY_LIMIT_BYTES = 200 * 1024 * 1024;
/** The one path with the larger limit (when the sim API is served). */
export const LOAD_PATH = '/api/sim/load';
/** The 400 message of a body that is not strict JSON. */
export const INVALID_JSON_MESSAGE = 'Invalid JSON in request body';

/** The 413 error of a body over its limit. */
export function tooLargeError(load: boolean): HttpError {
  return new HttpError(413, `Request body too large (limit ${load ? '200' : '1'} MB)`);
}

/** koa-bodyparser's JSON parser (co-body) parses with @hapi/bourne: the very module it uses, so results and errors agree. */
const bourne = createRequire(createRequire(import.meta.url).resolve('co-body'))('@hapi/bourne') as {
  parse(text: string, options: { protoAction: 'error' }): unknown;
};

/** co-body's strict mode: a JSON body must be an object or an array. */
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*(\[|\{)/;

/** An error koa-bodyparser would throw with this HTTP status. */
export function statusError(err: Error, status: number): Error {
  return Object.assign(err, { status });
}

/**
 * co-body's strict JSON parse of a body's text (a leading BOM is dropped, as its decoder does): an
 * empty body is `{}`; anything but an object or an array, malformed JSON and `__proto__` keys
 * are errors with status 400.
 */
export function parseJsonBody(text: string): unknown {
  const str = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    if (!str) return {};
    if (!STRICT_JSON.test(str)) throw new SyntaxError('invalid JSON, only supports object and array');
    // bourne scans for `__proto__` keys only when the text could spell one (literally or with \u
    // escapes); without either, its answer is JSON.parse's.
    if (!str.includes('proto') && !str.includes('\\u')) return JSON.parse(str);
    return bourne.parse(str, { protoAction: 'error' });
  } catch (err) {
    throw statusError(err as Error, 400);
  }
}

/**
 * A JSON body's text as `compsim serve` reads it, for callers without a socket (msw handlers, the
 * in-process scenario target): over the limit -> 413; not an object or array, malformed, or with a
 * `__proto__` key -> 400 `Invalid JSON in request body`; `''` -> `{}`.
 */
export function readJsonText(text: string, load: boolean): unknown {
  if (Buffer.byteLength(text, 'utf8') > (load ? LOAD_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES)) throw tooLargeError(load);
  try {
    return parseJsonBody(text);
  } catch {
    throw new HttpError(400, INVALID_JSON_MESSAGE);
  }
}

/** Marks a value {@link copyPlainBody} leaves to the text path. */
export const NOT_PLAIN: unique symbol = Symbol('not plain JSON data');

/** Nesting past which {@link copyPlainBody} leaves a value to the text path (dispatch refuses far less deep bodies). */
const COPY_DEPTH = 300;

/**
 * What {@link readJsonText} (and, without a limit, `JSON.parse`) returns for `JSON.stringify(value)`,
 * made by copying instead of writing and parsing the text, for the bodies an in-process caller sends
 * and gets back all the time: an object or an
 * array of plain objects, arrays, strings, finite numbers, booleans and nulls, with no `__proto__`
 * key and no `toJSON`, whose text is surely within `limit` bytes (an upper bound is kept). Returns
 * {@link NOT_PLAIN} for anything else: a member JSON would drop or turn into null, a non-finite
 * number, a non-plain object, a text that might be over the limit, a body that is not an object or
 * an array. The copy has the parse's key order, and -0 becomes 0 as it does in the text.
 */
export function copyPlainBody(value: unknown, limit: number): unknown {
  if (value === null || typeof value !== 'object') return NOT_PLAIN;
  // An enumerable member added to Object.prototype would be walked (and copied) as if it were the body's own.
  for (const _ in EMPTY) return NOT_PLAIN;
  return copyValue(value, { left: limit }, 0);
}

const EMPTY = {};

function copyValue(v: unknown, budget: { left: number }, depth: number): unknown {
  switch (typeof v) {
    case 'string':
      // Worst case: every UTF-16 unit escaped as \uXXXX, plus the quotes.
      budget.left -= 6 * v.length + 2;
      return budget.left < 0 ? NOT_PLAIN : v;
    case 'number':
      budget.left -= 25;
      return !Number.isFinite(v) || budget.left < 0 ? NOT_PLAIN : v === 0 ? 0 : v;
    case 'boolean':
      budget.left -= 5;
      return budget.left < 0 ? NOT_PLAIN : v;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (v === null) {
    budget.left -= 4;
    return budget.left < 0 ? NOT_PLAIN : null;
  }
  if (depth >= COPY_DEPTH) return NOT_PLAIN;
  const proto: unknown = Object.getPrototypeOf(v);
  if (Array.isArray(v)) {
    if (proto !== Array.prototype) return NOT_PLAIN;
    budget.left -= 2 + v.length;
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const c = copyValue(v[i], budget, depth + 1);
      if (c === NOT_PLAIN) return NOT_PLAIN;
      out[i] = c;
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  budget.left -= 2;
  const out: Record<string, unknown> = {};
  for (const k in v) {
    if (k === '__proto__') return NOT_PLAIN;
    budget.left -= 6 * k.length + 4;
    const c = copyValue((v as Record<string, unknown>)[k], budget, depth + 1);
    if (c === NOT_PLAIN) return NOT_PLAIN;
    out[k] = c;
  }
  return out;
}

/**
 * A request body's text with its `Content-Type` as `compsim serve` reads it, for callers without
 * a socket: JSON types by {@link readJsonText}, forms as forms (1 MB), other types not at all
 * (`undefined`, which dispatch takes as `{}`); no type is taken as JSON.
 */
export function readBodyText(text: string, type: string | undefined, load: boolean): unknown {
  if (text === '') return undefined;
  if (type !== undefined && type !== '' && !type.includes('json')) {
    if (!type.includes('application/x-www-form-urlencoded')) return undefined;
    if (Buffer.byteLength(text, 'utf8') > BODY_LIMIT_BYTES) throw tooLargeError(false);
    return Object.fromEntries(new URLSearchParams(text));
  }
  return readJsonText(text, load);
}
