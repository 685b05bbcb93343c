// How the MCP server's requests reach an API: in process through the server's own request path, or over HTTP with fetch.
import { cappedText } from '../http/capped-text.js';
import { createDoor } from '../http/adapters/door.js';
import { ROUTES } from '../http/resources/index.js';
import type { HttpWorld, RouteDef } from '../http/route.js';
import type { ApiRequest } from './tools.js';

/** An API's answer: its status and text, and the text's JSON (undefined when it is none). */
export interface ApiAnswer {
  status: number;
  text: string;
  json: unknown;
}

/** Sends one request with `key` as its bearer key; rejects only when the API cannot be reached. */
export type Send = (req: ApiRequest, key: string) => Promise<ApiAnswer>;

/**
 * Requests served by `world` in this process, through the door `compsim serve` mounts (no
 * socket): the body goes in as the JSON text a client sends, the answer comes back as the text
 * the server sends.
 */
export function inProcessSend(world: HttpWorld, routes: readonly RouteDef[] = ROUTES): Send {
  const door = createDoor({ routes });
  return async (req, key) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const res = await door.serve(world, {
      method: req.method, path: req.path, headers, query: req.query, ip: '127.0.0.1', ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
    });
    return { status: res.status, text: res.text, json: res.text === '' ? undefined : JSON.parse(res.text) };
  };
}

/** Bounds of a remote answer. */
export interface RemoteOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Longest wait for a whole answer, in ms (default 30 000). */
  timeoutMs?: number;
  /** Largest answer read, in bytes (default 8 MiB). */
  maxBytes?: number;
}

/** The text of `res`, read up to `max` bytes; a longer answer rejects (its body is cancelled). */
async function boundedText(res: Response, max: number): Promise<string> {
  const text = await cappedText(res, max);
  if (text === null) throw new Error(`the answer is larger than ${max} bytes`);
  return text;
}

/** Requests sent with fetch to the API at `baseUrl` (a compsim server, a world's base URL or the hosted service). */
export function remoteSend(baseUrl: string, options: RemoteOptions = {}): Send {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBytes = options.maxBytes ?? 8 * 2 ** 20;
  const base = baseUrl.replace(/\/+$/, '');
  return async (req, key) => {
    const search = new URLSearchParams(req.query).toString();
    const url = `${base}${req.path}${search ? `?${search}` : ''}`;
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'application/json' };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      res = await doFetch(url, { method: req.method, headers, signal, ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}) });
      text = await boundedText(res, maxBytes);
    } catch (err) {
      // undici says only "fetch failed"; the reason (refused, unknown host, ...) is its cause.
      const cause = (err as Error & { cause?: unknown }).cause;
      const reason = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms`
        : `${(err as Error).message}${cause instanceof Error ? ` (${cause.message})` : ''}`;
      throw new Error(`${req.method} ${url} failed: ${reason}`);
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json };
  };
}
