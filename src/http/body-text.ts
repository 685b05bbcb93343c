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
