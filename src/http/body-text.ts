// Request body limits and messages, and a body's text read as compsim serve's koa-bodyparser reads it, for the callers without a socket (msw handlers, the in-process target).
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
/** The 400 message of a body holding a `__proto__` key (valid JSON, refused so no object's prototype can be set from outside). */
export const PROTO_KEY_MESSAGE = 'Invalid request body: a "__proto__" key is not allowed (at any depth)';

/** Thrown by {@link refuseProto}, so the catch below can tell it from malformed JSON. */
class ProtoKeyError extends SyntaxError {}

/** The 413 error of a body over its limit. */
export function tooLargeError(load: boolean): HttpError {
  return new HttpError(413, `Request body too large (limit ${load ? '200' : '1'} MB)`);
}

/** koa-bodyparser's strict mode: a JSON body must be an object or an array. */
const STRICT_JSON = /^[\x20\x09\x0a\x0d]*(\[|\{)/;

/** koa-bodyparser refuses a `__proto__` key at any depth; JSON.parse calls this for every key it reads. */
function refuseProto(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new ProtoKeyError('forbidden __proto__ key');
  return value;
}

/**
 * A request body's text with its `Content-Type` as `compsim serve` reads it: `''` -> undefined
 * (dispatch takes it as `{}`); JSON (or no type) over the limit -> 413; not an object or array,
 * malformed -> 400 `Invalid JSON in request body`; with a `__proto__` key -> 400 {@link PROTO_KEY_MESSAGE}; forms as forms
 * (1 MB); other types not at all (undefined).
 */
export function readBodyText(text: string, type: string | undefined, load: boolean): unknown {
  if (text === '') return undefined;
  if (type !== undefined && type !== '' && !type.includes('json')) {
    if (!type.includes('application/x-www-form-urlencoded')) return undefined;
    if (Buffer.byteLength(text, 'utf8') > BODY_LIMIT_BYTES) throw tooLargeError(false);
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (Buffer.byteLength(text, 'utf8') > (load ? LOAD_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES)) throw tooLargeError(load);
  // A leading BOM is dropped, as koa-bodyparser's decoder drops it.
  const str = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (str === '') return {};
  try {
    if (!STRICT_JSON.test(str)) throw new SyntaxError('not an object or an array');
    return JSON.parse(str, refuseProto);
  } catch (err) {
    throw new HttpError(400, err instanceof ProtoKeyError ? PROTO_KEY_MESSAGE : INVALID_JSON_MESSAGE);
  }
}
