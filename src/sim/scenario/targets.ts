// Targets: where scenario requests go. The HTTP target speaks to any base URL; the in-process one is built in cli/.
import type { Json, Scenario } from './types.js';

/** One request as the runner sends it (query separate from the path, body as JSON). */
export interface TargetRequest {
  method: string;
  /** Path without query string, e.g. `/api/trade/execute`. */
  path: string;
  /** Query parameters in the order given. */
  query: Record<string, string>;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** JSON body; `undefined` sends none. */
  body?: Json;
}

/** One response: the status and the parsed JSON body (text when not JSON, `undefined` when empty). */
export interface TargetResponse {
  status: number;
  body: Json | undefined;
  /**
   * Optional: the answer before it was serialised, a value whose JSON text `body` is (the in-process
   * target's). The response log writes this value directly, so such a target can parse `body` only
   * when the runner reads it.
   */
  sent?: unknown;
}

/** Nesting past which {@link answerView} copies rather than checks (a cyclic answer ends there too). */
const VIEW_DEPTH = 300;

/**
 * True when `v` reads as its own JSON round trip through enumerable string keys and indices:
 * plain objects (no `toJSON`, no `__proto__` member) and arrays of strings, finite numbers other
 * than -0, booleans and nulls (a hole reads as undefined, so it is not). Inherited enumerable
 * members are ruled out by the caller.
 */
function isOwnJson(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !(v === 0 && 1 / v < 0);
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) return true;
  if (depth >= VIEW_DEPTH) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  if (Array.isArray(v)) {
    if (proto !== Array.prototype) return false;
    for (let i = 0; i < v.length; i++) if (!isOwnJson(v[i], depth + 1)) return false;
    return true;
  }
  if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  // Members JSON leaves out (symbol keys, non-enumerable ones) stay, but the matcher reads neither.
  for (const k in v) if (k === '__proto__' || !isOwnJson((v as Record<string, unknown>)[k], depth + 1)) return false;
  return true;
}

const NOTHING = {};

/**
 * The answer's body for reading now, within the step: the target's unserialised answer itself
 * when that is already what its JSON text parses back to (no copy), else {@link TargetResponse.body}.
 * A request that changes the world may change such objects, so what is read this way is kept no
 * longer than until the next such request (reads, as a report sends, leave it as it is).
 */
export function answerView(res: TargetResponse): unknown {
  const sent = res.sent;
  if (sent === undefined || sent === null || typeof sent !== 'object') return res.body;
  // An enumerable member added to Object.prototype would be walked as if it were the answer's own.
  for (const _ in NOTHING) return res.body;
  return isOwnJson(sent, 0) ? sent : res.body;
}

/**
 * A server the runner talks to. The runner calls `begin` once per scenario, then sends
 * `POST /api/sim/reset` with the scenario's seed and world through `send`, so every target
 * starts each scenario from the same state and gives the same responses.
 */
export interface Target {
  /** Shown in output: `in-process` or the base URL. */
  readonly label: string;
  /** Prepares a scenario (in-process: a fresh world); resolves to the admin key the reset call uses. */
  begin(scenario: Scenario): Promise<{ adminKey: string }>;
  /** Sends one request; never rejects for an HTTP error status (only for transport failures). */
  send(req: TargetRequest): Promise<TargetResponse>;
  /** Releases resources. */
  close(): Promise<void>;
}

/** `?a=1&b=2` (empty string when there is no query). */
export function queryString(query: Record<string, string>): string {
  const qs = new URLSearchParams(Object.entries(query)).toString();
  return qs === '' ? '' : `?${qs}`;
}

/** Parses response text the way the runner records it: JSON when it parses, else the text; '' -> undefined. */
export function parseBody(text: string): Json | undefined {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

/** Options of {@link httpTarget}. */
export interface HttpTargetOptions {
  /** Admin key of the target (it must run the sim API). */
  adminKey: string;
  /** `fetch` implementation (tests). */
  fetch?: typeof fetch;
}

/** A target at a base URL such as `http://127.0.0.1:3000` (any compatible server started with the sim API). */
export function httpTarget(baseUrl: string, options: HttpTargetOptions): Target {
  const base = baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  return {
    label: base,
    begin: async () => ({ adminKey: options.adminKey }),
    async send(req) {
      const headers: Record<string, string> = { ...req.headers };
      const withBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
      if (withBody) headers['content-type'] ??= 'application/json';
      let res: Response;
      try {
        res = await doFetch(`${base}${req.path}${queryString(req.query)}`, {
          method: req.method, headers, ...(withBody ? { body: JSON.stringify(req.body) } : {}),
        });
      } catch (err) {
        const cause = (err as { cause?: { message?: string } }).cause?.message;
        throw new Error(`cannot reach ${base}: ${cause ?? (err as Error).message}`);
      }
      return { status: res.status, body: parseBody(await res.text()) };
    },
    close: async () => undefined,
  };
}
