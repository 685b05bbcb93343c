// `compsim fork`'s reader: GET requests to an untrusted source with a page cache on disk, a size cap per answer, an overall deadline, a concurrency cap, a request rate limit, Retry-After, and redirects followed only within the source unless allowed.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cappedText } from '../http/capped-text.js';

/** What the reader needs from the outside world; tests pass a fake clock and fetch. */
export interface ForkIo {
  fetch: typeof fetch;
  /** Milliseconds on some monotonic or wall clock (only differences and HTTP dates are read). */
  now(): number;
  /** Waits `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/** A failure reading the source: the message names the request and what went wrong. Never retried. */
export class ForkSourceError extends Error {
  constructor(message: string, readonly status?: number, readonly sourceError?: string) {
    super(message);
  }
}

/** A redirect to another origin that was followed (`--follow-redirects`). */
export interface FollowedRedirect { from: string; to: string }

/** Options of {@link SourceReader}. */
export interface ReaderOptions {
  /** Base URL of the source, without a trailing slash. */
  from: string;
  apiKey?: string;
  /** Requests in flight at once (1-4). */
  concurrency: number;
  /** Requests started per second (undefined: no limit). */
  rate?: number;
  /** Where fetched answers are kept (`DIR/.fork-cache`). */
  cacheDir: string;
  io: ForkIo;
  /** Largest answer read, in bytes: a larger one is refused (not retried). */
  maxAnswerBytes: number;
  /** The instant (on `io.now()`) by which everything must be read; a wait or request past it fails. */
  deadline: number;
  /** Follow redirects to another origin (the API key is never sent there). */
  followRedirects: boolean;
  /** Called after each answer (fetched or found in the cache). */
  onAnswer?: (fromCache: boolean) => void;
  /** Called with a warning (a long wait the source asked for). */
  onWarning?: (text: string) => void;
  /** Retries of one request after a 429/503 or a transport failure (default 6). */
  maxRetries?: number;
}

/** What one `get` checks and keeps of an answer. */
export interface GetOptions {
  /** The answer's problem (naming the field), or null when it fits. */
  validate?: (body: Record<string, unknown>) => string | null;
  /** What of a fetched answer is kept (and returned). */
  keep?: (body: Record<string, unknown>) => Record<string, unknown>;
}

/** Waits after a 429/503 without a usable Retry-After, and after a transport failure, doubling from 1 s. */
const BACKOFF_MS = 1000;
/** A request without an answer after this long is abandoned and retried like a dropped connection. */
const REQUEST_TIMEOUT_MS = 120_000;
/** Longest Retry-After honoured as given (a longer one is cut to this). */
const MAX_WAIT_MS = 10 * 60_000;
/** A wait longer than this is reported as a warning. */
const WARN_WAIT_MS = 60_000;
/** Redirects followed for one request. */
const MAX_REDIRECTS = 5;
/** An HTTP date as servers send it (IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date, capped at ten minutes), or undefined for anything else (a negative number, a word). */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.min(MAX_WAIT_MS, Number(v) * 1000);
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v);
  if (!Number.isFinite(at)) return undefined;
  return Math.min(MAX_WAIT_MS, Math.max(0, at - now));
}

/** `n` bytes in MB, for messages. */
const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/**
 * Reads JSON answers from the source. Each answer is kept under a cache name in `cacheDir`; a name
 * already there is read from disk and not fetched again (an interrupted fork resumes where it
 * stopped). At most `concurrency` requests are in flight and, with `rate`, request starts are
 * spaced 1/rate s apart. A 429 or 503 waits for its Retry-After (or a doubling back-off) and tries
 * again; so does a transport failure. Everything else that goes wrong is permanent and fails at
 * once: an answer over the size cap, a redirect loop, a redirect out of HTTP or (unless allowed)
 * to another origin, a body that is not JSON, an answer that does not fit its schema.
 */
export class SourceReader {
  private inFlight = 0;
  private readonly queue: (() => void)[] = [];
  private nextStart = -Infinity;
  private readonly origin: string;
  /** Requests sent (retries and redirects included), retries, answers read from the cache, and time waited. */
  readonly stats = { requests: 0, retries: 0, cached: 0, waitedMs: 0 };
  /** Redirects to another origin that were followed. */
  readonly redirects: FollowedRedirect[] = [];

  constructor(private readonly o: ReaderOptions) {
    mkdirSync(o.cacheDir, { recursive: true });
    this.origin = new URL(o.from).origin;
  }

  /** The JSON answer of `GET path?query`, from the cache under `name` or fetched (and then cached); either way checked by `validate`. */
  async get(name: string, path: string, query: Record<string, string> = {}, g: GetOptions = {}): Promise<Record<string, unknown>> {
    const url = this.url(path, query);
    const file = join(this.o.cacheDir, `${name}.json`);
    const cached = this.fromCache(file);
    if (cached !== undefined) {
      this.check(url, cached, g);
      this.stats.cached++;
      this.o.onAnswer?.(true);
      return cached;
    }
    const fetched = await this.slot(() => this.fetchJson(url));
    this.check(url, fetched, g);
    const body = g.keep ? g.keep(fetched) : fetched;
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(body));
    renameSync(tmp, file);
    this.o.onAnswer?.(false);
    return body;
  }

  private url(path: string, query: Record<string, string>): string {
    const qs = new URLSearchParams(query).toString();
    return `${this.o.from}${path}${qs === '' ? '' : `?${qs}`}`;
  }

  /** A kept answer, or undefined when there is none, it is torn (written without the rename, by hand) or over the size cap. */
  private fromCache(file: string): Record<string, unknown> | undefined {
    if (!existsSync(file) || statSync(file).size > this.o.maxAnswerBytes) return undefined;
    try {
      const body = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }

  private check(url: string, body: Record<string, unknown>, g: GetOptions): void {
    const problem = g.validate?.(body);
    if (problem) throw new ForkSourceError(`GET ${url}: the answer does not fit the API: ${problem}`);
  }

  /** Runs `fn` once fewer than `concurrency` requests are in flight. */
  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.o.concurrency) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.inFlight++;
    try {
      return await fn();
    } finally {
      this.inFlight--;
      this.queue.shift()?.();
    }
  }

  /** Waits `ms` unless that runs past the deadline; a wait over a minute is reported. */
  private async wait(ms: number, why: string): Promise<void> {
    if (ms <= 0) return;
    const now = this.o.io.now();
    if (now + ms > this.o.deadline) throw new ForkSourceError(`${why}: waiting ${Math.ceil(ms / 1000)} s more would run past the --deadline`);
    if (ms > WARN_WAIT_MS) this.o.onWarning?.(`${why}: waiting ${Math.ceil(ms / 1000)} s`);
    this.stats.waitedMs += ms;
    await this.o.io.sleep(ms);
  }

  /** Waits for this request's turn under the rate limit. */
  private async paced(url: string): Promise<void> {
    if (this.o.rate === undefined) return;
    const now = this.o.io.now();
    const at = Math.max(now, this.nextStart);
    this.nextStart = at + 1000 / this.o.rate;
    await this.wait(at - now, `GET ${url} (--rate)`);
  }

  private async fetchJson(url: string): Promise<Record<string, unknown>> {
    const maxRetries = this.o.maxRetries ?? 6;
    for (let attempt = 0; ; attempt++) {
      if (this.o.io.now() >= this.o.deadline) throw new ForkSourceError(`GET ${url}: the fork ran past its --deadline`);
      await this.paced(url);
      let res: Response;
      let text: string;
      try {
        res = await this.follow(url);
        if ((res.status === 429 || res.status === 503) && attempt < maxRetries) {
          await res.body?.cancel().catch(() => undefined);
          this.stats.retries++;
          const asked = retryAfterMs(res.headers.get('retry-after'), this.o.io.now());
          await this.wait(asked ?? BACKOFF_MS * 2 ** attempt, `the source answered GET ${url} with ${res.status}${asked !== undefined ? ' and Retry-After' : ''}`);
          continue;
        }
        text = await this.capped(res, url);
      } catch (err) {
        if (err instanceof ForkSourceError) throw err;
        if (attempt >= maxRetries) throw new ForkSourceError(`cannot reach ${url}: ${describe(err)}`);
        this.stats.retries++;
        await this.wait(BACKOFF_MS * 2 ** attempt, `GET ${url} failed (${describe(err)})`);
        continue;
      }
      return answerBody(url, res.status, text);
    }
  }

  /** Fetches `url`, following redirects within the source's origin (others only with `followRedirects`, never with the key), refusing loops and non-HTTP targets. */
  private async follow(url: string): Promise<Response> {
    const seen = new Set<string>([url]);
    let current = url;
    for (let hops = 0; ; hops++) {
      const crossOrigin = new URL(current).origin !== this.origin;
      const headers: Record<string, string> = { accept: 'application/json' };
      if (this.o.apiKey !== undefined && !crossOrigin) headers.authorization = `Bearer ${this.o.apiKey}`;
      this.stats.requests++;
      const timeout = Math.max(1, Math.min(REQUEST_TIMEOUT_MS, this.o.deadline - this.o.io.now()));
      const res = await this.o.io.fetch(current, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeout) });
      if (![301, 302, 303, 307, 308].includes(res.status)) return res;
      await res.body?.cancel().catch(() => undefined);
      const location = res.headers.get('location');
      if (location === null) throw new ForkSourceError(`GET ${current} answered ${res.status} without a Location`, res.status);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new ForkSourceError(`GET ${current} redirects to '${location.slice(0, 200)}', which is not a URL`, res.status);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new ForkSourceError(`GET ${current} redirects to ${next.protocol} (${next.href.slice(0, 200)}); fork follows http and https only`, res.status);
      if (next.origin !== this.origin && !this.o.followRedirects) {
        throw new ForkSourceError(`GET ${current} redirects to another origin, ${next.origin}; pass --follow-redirects to follow it (the API key is not sent there)`, res.status);
      }
      if (seen.has(next.href)) throw new ForkSourceError(`GET ${url} redirects in a loop (back to ${next.href})`, res.status);
      if (hops + 1 > MAX_REDIRECTS) throw new ForkSourceError(`GET ${url} redirects more than ${MAX_REDIRECTS} times`, res.status);
      if (next.origin !== this.origin) this.redirects.push({ from: current, to: next.href });
      seen.add(next.href);
      current = next.href;
    }
  }

  /** The answer's text, refused as soon as it passes the size cap (by its Content-Length, or while reading). */
  private async capped(res: Response, url: string): Promise<string> {
    const max = this.o.maxAnswerBytes;
    const refuse = (what: string) => new ForkSourceError(`GET ${url}: the answer is ${what}, more than the ${mb(max)} fork reads (--max-answer-mb)`, res.status);
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > max) {
      await res.body?.cancel().catch(() => undefined);
      throw refuse(mb(declared));
    }
    const text = await cappedText(res, max);
    if (text === null) throw refuse(`over ${mb(max)}`);
    return text;
  }
}

/** The JSON object of a 200 answer; anything else is a {@link ForkSourceError} naming the status and the source's error text. */
function answerBody(url: string, status: number, text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ForkSourceError(`GET ${url} answered ${status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}`, status);
  }
  if (status !== 200 || body === null || typeof body !== 'object' || Array.isArray(body)) {
    const error = (body as { error?: unknown } | null)?.error;
    const said = typeof error === 'string' ? error.slice(0, 500) : undefined;
    throw new ForkSourceError(`GET ${url} answered ${status}${said !== undefined ? `: ${said}` : status === 200 ? ' with JSON that is not an object' : ''}`, status, said);
  }
  return body as Record<string, unknown>;
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'no answer in time';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

/** Runs `tasks` with at most `n` at once; resolves to their results in order. */
export async function pool<T>(n: number, tasks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After a failure no task starts: the caller has its error, and nothing runs on behind its back.
    while (next < tasks.length && !failed) {
      const i = next++;
      try {
        out[i] = await tasks[i]!();
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  // Every worker settled before the first error is passed on.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(n, tasks.length) }, worker));
  const failure = settled.find((r) => r.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
  return out;
}
