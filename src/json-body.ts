// Request bodies of the common shapes (plain JSON, no body), read without koa-bodyparser's per-request machinery and with its exact results.
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { parseJsonBody, statusError } from './http/body-text.js';

/** The content types read here; any other (charsets, parameters, forms, upper case) goes to koa-bodyparser. */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8']);

/**
 * The parsed body of a request in one of the shapes `compsim serve` sees all the time, with the
 * result koa-bodyparser (JSON and form, strict) would give: no `Content-Type` -> `{}` without
 * reading; `application/json` (optionally `; charset=utf-8`) with a `Content-Length` of at most
 * `limit` bytes and no `Content-Encoding` -> the parsed JSON (errors carry status 400). Returns
 * `null` for every other request, which then goes through koa-bodyparser.
 */
export function readPlainBody(req: IncomingMessage, limit: number): Promise<unknown> | null {
  const type = req.headers['content-type'];
  if (type === undefined) return Promise.resolve({});
  const lengthHeader = req.headers['content-length'];
  if (!PLAIN_JSON.has(type) || req.headers['content-encoding'] !== undefined || req.headers['transfer-encoding'] !== undefined
    || lengthHeader === undefined || !/^\d{1,9}$/.test(lengthHeader)) return null;
  const length = Number(lengthHeader);
  if (length > limit) return null;
  // Node's parser hands a request over before it pushes the body; when the whole body came with the
  // head (the usual case), it is buffered by the next microtask and taken in one read, no listeners.
  return Promise.resolve().then(() => {
    // Paused with all `length` bytes buffered (the parser never pushes more than Content-Length, and
    // may not have flagged the message complete yet): read() hands over all of them.
    const whole = req.readableLength === length && length > 0 && !req.readableFlowing ? (req.read() as Buffer | null) : null;
    return whole !== null ? parseJsonBody(whole.toString('utf8')) : listen(req, length);
  });
}

/** Reads a body as it arrives; its length must be `length`. */
function listen(req: IncomingMessage, length: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Most bodies arrive in one chunk: that one is decoded at the end, without a StringDecoder. A
    // decoder only tells a tail cut inside a character apart; a body ending in one is not JSON
    // either way, and mid-body bytes decode the same (U+FFFD for each bad sequence).
    let first: Buffer | null = null;
    let decoder: StringDecoder | null = null;
    let text = '';
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (decoder === null) {
        if (first === null) {
          first = chunk;
          return;
        }
        decoder = new StringDecoder('utf8');
        text = decoder.write(first);
      }
      text += decoder.write(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (decoder !== null) text += decoder.end();
      else if (first !== null) text = first.toString('utf8');
      if (received !== length) {
        reject(statusError(new Error('request size did not match content length'), 400));
        return;
      }
      try {
        resolve(parseJsonBody(text));
      } catch (err) {
        reject(err);
      }
    };
    const onError = (err: Error) => {
      cleanup();
      reject(statusError(err, 400));
    };
    const onClose = () => {
      cleanup();
      reject(statusError(new Error('request aborted'), 400));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
