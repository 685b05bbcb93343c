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

/**
 * The target did not answer at all (connection refused or reset, unknown host): an
 * infrastructure failure, not the scenario's. An HTTP error status is an answer, never this.
 */
export class TargetUnreachable extends Error {}

/** The TargetUnreachable of a failed fetch to `base`, naming the cause (`connect ECONNREFUSED 127.0.0.1:3000`). */
export function unreachable(base: string, err: unknown): TargetUnreachable {
  const cause = (err as { cause?: { message?: string } }).cause?.message;
  return new TargetUnreachable(`cannot reach ${base}: ${cause ?? (err as Error).message}`);
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
        throw unreachable(base, err);
      }
      return { status: res.status, body: parseBody(await res.text()) };
    },
    close: async () => undefined,
  };
}
