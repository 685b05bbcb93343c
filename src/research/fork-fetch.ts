// `compsim fork`'s reader: GET requests to the source with a page cache on disk, a concurrency cap, a request rate limit and Retry-After.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the reader needs from the outside world; tests pass a fake clock and fetch. */
export interface ForkIo {
  fetch: typeof fetch;
  /** Milliseconds on some monotonic or wall clock (only differences and HTTP dates are read). */
  now(): number;
  /** Waits `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/** The real clock, timers and fetch. */
export function systemIo(): ForkIo {
  return {
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

/** A failure reading the source: the message names the request and what went wrong. */
export class ForkSourceError extends Error {
  constructor(message: string, readonly status?: number, readonly sourceError?: string) {
    super(message);
  }
}

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
  /** Called after each answer (fetched or found in the cache). */
  onAnswer?: (fromCache: boolean) => void;
  /** Retries of one request after a 429/503 or a transport failure (default 6). */
  maxRetries?: number;
}

/** Waits after a 429/503 without Retry-After, and after a transport failure, doubling from 1 s. */
const BACKOFF_MS = 1000;
/** A request without an answer after this long is abandoned and retried like a dropped connection. */
const REQUEST_TIMEOUT_MS = 120_000;
/** Longest Retry-After honoured as given (a longer one is cut to this). */
const MAX_WAIT_MS = 10 * 60_000;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.min(MAX_WAIT_MS, Number(v) * 1000);
  const at = Date.parse(v);
  if (!Number.isFinite(at)) return undefined;
  return Math.min(MAX_WAIT_MS, Math.max(0, at - now));
}

/**
 * Reads JSON answers from the source. Each answer is kept under a cache name in `cacheDir`; a name
 * already there is read from disk and not fetched again (an interrupted fork resumes where it
 * stopped). At most `concurrency` requests are in flight and, with `rate`, request starts are
 * spaced 1/rate s apart. A 429 or 503 waits for its Retry-After (or a doubling back-off) and tries
 * again; so does a transport failure.
 */
export class SourceReader {
  private inFlight = 0;
  private readonly queue: (() => void)[] = [];
  private nextStart = -Infinity;
  /** Requests sent (retries included) and answers read from the cache. */
  readonly stats = { requests: 0, retries: 0, cached: 0, waitedMs: 0 };

  constructor(private readonly o: ReaderOptions) {
    mkdirSync(o.cacheDir, { recursive: true });
  }

  /**
   * The JSON answer of `GET path?query`, from the cache under `name` or fetched (and then cached);
   * `keep` picks what of a fetched answer is kept (and returned).
   */
  async get(name: string, path: string, query: Record<string, string> = {}, keep?: (body: Record<string, unknown>) => Record<string, unknown>): Promise<Record<string, unknown>> {
    const file = join(this.o.cacheDir, `${name}.json`);
    if (existsSync(file)) {
      try {
        const body = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        this.stats.cached++;
        this.o.onAnswer?.(true);
        return body;
      } catch {
        // A torn file (written without the rename, by hand): fetch it again.
      }
    }
    const fetched = await this.slot(() => this.fetchJson(path, query));
    const body = keep ? keep(fetched) : fetched;
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(body));
    renameSync(tmp, file);
    this.o.onAnswer?.(false);
    return body;
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

  private async wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    this.stats.waitedMs += ms;
    await this.o.io.sleep(ms);
  }

  /** Waits for this request's turn under the rate limit. */
  private async paced(): Promise<void> {
    if (this.o.rate === undefined) return;
    const now = this.o.io.now();
    const at = Math.max(now, this.nextStart);
    this.nextStart = at + 1000 / this.o.rate;
    await this.wait(at - now);
  }

  private async fetchJson(path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    const qs = new URLSearchParams(query).toString();
    const url = `${this.o.from}${path}${qs === '' ? '' : `?${qs}`}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.o.apiKey !== undefined) headers.authorization = `Bearer ${this.o.apiKey}`;
    const maxRetries = this.o.maxRetries ?? 6;
    for (let attempt = 0; ; attempt++) {
      await this.paced();
      this.stats.requests++;
      let res: Response;
      let text: string;
      try {
        res = await this.o.io.fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        text = (res.status === 429 || res.status === 503) && attempt < maxRetries ? '' : await res.text();
      } catch (err) {
        if (attempt >= maxRetries) throw new ForkSourceError(`cannot reach ${url}: ${describe(err)}`);
        this.stats.retries++;
        await this.wait(BACKOFF_MS * 2 ** attempt);
        continue;
      }
      if ((res.status === 429 || res.status === 503) && attempt < maxRetries) {
        await res.arrayBuffer().catch(() => undefined);
        this.stats.retries++;
        await this.wait(retryAfterMs(res.headers.get('retry-after'), this.o.io.now()) ?? BACKOFF_MS * 2 ** attempt);
        continue;
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ForkSourceError(`GET ${url} answered ${res.status} with a body that is not JSON: ${text.slice(0, 120)}`, res.status);
      }
      if (res.status !== 200 || body === null || typeof body !== 'object' || Array.isArray(body)) {
        const error = (body as { error?: unknown } | null)?.error;
        throw new ForkSourceError(`GET ${url} answered ${res.status}${typeof error === 'string' ? `: ${error}` : ''}`, res.status, typeof error === 'string' ? error : undefined);
      }
      return body as Record<string, unknown>;
    }
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
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
