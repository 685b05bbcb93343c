// Upstream's per-agent rate limiter on the world's clock: fixed windows per bucket, deterministic, a store aux state.
import type { Principal } from '../domain/model.js';
import type { AuxState } from '../ports/store.js';
import type { HandlerResult } from './route.js';

/** One bucket: `points` requests per `ms` window. */
export interface Bucket { points: number; ms: number }

/** Upstream's buckets (rate-limiter.middleware.ts). */
export const UPSTREAM_BUCKETS = {
  global: { points: 3000, ms: 60_000 },
  hourly: { points: 10_000, ms: 3_600_000 },
  trade: { points: 100, ms: 60_000 },
  price: { points: 300, ms: 60_000 },
  account: { points: 30, ms: 60_000 },
} as const satisfies Record<string, Bucket>;

type BucketName = keyof typeof UPSTREAM_BUCKETS;

/**
 * Buckets a path consumes, in upstream's order: global, hourly, then at most one endpoint bucket.
 * `/api/account` (the team generation's account bucket) counts like `/api/agent`; `/health...` is exempt.
 */
export function bucketsFor(path: string): BucketName[] {
  const p = path.toLowerCase();
  if (p.startsWith('/health')) return [];
  const extra: BucketName | null = p.includes('/api/trade') ? 'trade' : p.includes('/api/price') ? 'price'
    : p.includes('/api/agent') || p.includes('/api/account') ? 'account' : null;
  return extra ? ['global', 'hourly', extra] : ['global', 'hourly'];
}

/** A rejected request: how long until the window that refused it resets. */
export interface Refusal { msBeforeNext: number; resetAt: number }

/** What identifies the caller to the limiter (upstream's rule). */
export interface LimiterCaller { principal: Principal; authorization?: string | undefined; ip?: string | undefined; headers?: Record<string, string> }

/**
 * Upstream's limiter key: the agent id when authenticated as an agent; else the part of a
 * `Bearer a_b` key before its only `_`; else `ip:<client ip>` (Cloudflare header, first public
 * X-Forwarded-For entry, socket address).
 */
export function limiterKey(c: LimiterCaller): string {
  if (c.principal.kind === 'agent') return c.principal.agentId;
  const auth = c.authorization;
  if (auth?.startsWith('Bearer ')) {
    const token = auth.slice(7);
    const i = token.indexOf('_');
    if (i > 0 && i < token.length - 1 && token.indexOf('_', i + 1) === -1) return token.slice(0, i);
  }
  const h = c.headers ?? {};
  if (h['cf-ray'] && h['cf-connecting-ip'] && h['cf-connecting-ip'] !== 'unknown') return `ip:${h['cf-connecting-ip']}`;
  const first = h['x-forwarded-for']?.split(',')[0]?.trim();
  if (first && first !== 'unknown' && !/^(10\.|192\.168\.|172\.16\.|127\.)/.test(first)) return `ip:${first}`;
  return `ip:${c.ip ?? 'unknown'}`;
}

/** Most windows kept at once; past it the oldest is dropped (its caller starts a fresh window). */
export const MAX_WINDOWS = 50_000;
/** Pending window changes that make a journal record of their own (fewer ride with the next record). */
const CHANGES_PER_RECORD = 256;

type Window = { count: number; resetAt: number };
/** A window as captured and journaled: `[bucket:key, count, resetAt]`; `[bucket:key]` alone is a removal. */
type Entry = [string, number, number] | [string];

/**
 * Fixed windows as rate-limiter-flexible's memory limiter keeps them: a window opens at the first
 * request of a key and lasts the bucket's duration; every request counts (refused ones too), and a
 * request is refused once a count passes the bucket's points. Time is the world's clock, passed in.
 * A window is dropped once it has passed (it limits nothing any more), and at most
 * {@link MAX_WINDOWS} are kept. A file store journals the changed windows, not all of them.
 */
export class RateLimiter implements AuxState {
  /** Windows per bucket, oldest first: a window that reopens is re-inserted, so each map is in reset order. */
  private windows = new Map<BucketName, Map<string, Window>>();
  private size = 0;
  /** Changes not yet journaled (kept only once a journaling store has asked for them). */
  private pending: Entry[] = [];
  private journaled = false;
  /** Windows as they were before the current transaction changed them (undefined: absent). */
  private undo: [BucketName, string, Window | undefined][] = [];

  constructor(private readonly buckets: Record<BucketName, Bucket> = UPSTREAM_BUCKETS) {}

  /** Windows kept. */
  get kept(): number {
    return this.size;
  }

  /** Drops every window (a load or reset starts every caller afresh); journaled like any change. */
  clear(): void {
    for (const [name, m] of this.windows) for (const key of [...m.keys()]) this.set(name, key, undefined);
  }

  /** Counts one request of `key` to `path` at `now`; null when allowed. */
  consume(key: string, path: string, now: number): Refusal | null {
    for (const [name, m] of this.windows) { // passed windows go first, oldest first
      for (const [id, old] of m) {
        if (now < old.resetAt) break;
        this.set(name, id, undefined);
      }
    }
    for (const name of bucketsFor(path)) {
      const b = this.buckets[name];
      const m = this.bucket(name);
      let w = m.get(key);
      if (!w) {
        if (this.size >= MAX_WINDOWS) this.evictOldest();
        w = { count: 0, resetAt: now + b.ms };
      }
      w = { count: w.count + 1, resetAt: w.resetAt };
      this.set(name, key, w);
      if (w.count > b.points) return { msBeforeNext: w.resetAt - now, resetAt: w.resetAt };
    }
    return null;
  }

  capture(): unknown {
    // Buckets in a fixed order, so a state rebuilt from journaled changes captures the same.
    return (Object.keys(this.buckets) as BucketName[]).flatMap((name) => [...this.windows.get(name) ?? []].map(([key, w]) => [`${name}:${key}`, w.count, w.resetAt]));
  }

  apply(v: unknown): void {
    if (!Array.isArray(v)) throw new Error('rateLimits: expected [[bucketKey, count, resetAt], ...]');
    this.windows = new Map();
    this.size = 0;
    for (const e of v as [string, number, number][]) {
      const name = Array.isArray(e) && typeof e[0] === 'string' ? e[0].slice(0, e[0].indexOf(':')) : '';
      if (!Object.hasOwn(this.buckets, name) || !Number.isFinite(e[1]) || !Number.isFinite(e[2])) throw new Error(`rateLimits: bad window ${JSON.stringify(e)}`);
      this.bucket(name as BucketName).set(e[0].slice(name.length + 1), { count: e[1], resetAt: e[2] });
      this.size += 1;
    }
    this.pending = [];
    this.undo = [];
  }

  /** A transaction starts: changes from here on are undone by {@link rollback}. */
  begin(): void {
    this.undo = [];
  }

  /** Undoes the current transaction's changes (a window put back goes to the end of its bucket; only expiry order notices). */
  rollback(): void {
    for (const [name, key, w] of this.undo.reverse()) this.set(name, key, w, false);
    this.undo = [];
  }

  /** Changes since the last call, once there are enough for a record of their own or `all` is set; else undefined. */
  takeChanges(all: boolean): Entry[] | undefined {
    this.journaled = true;
    if (this.pending.length === 0 || (!all && this.pending.length < CHANGES_PER_RECORD)) return undefined;
    const out = this.pending;
    this.pending = [];
    return out;
  }

  private bucket(name: BucketName): Map<string, Window> {
    let m = this.windows.get(name);
    if (!m) this.windows.set(name, (m = new Map<string, Window>()));
    return m;
  }

  /** Drops the window that opened first, whatever its bucket. */
  private evictOldest(): void {
    let oldest: [BucketName, string, number] | null = null;
    for (const [name, m] of this.windows) {
      const first = m.entries().next().value;
      if (first && (!oldest || first[1].resetAt - this.buckets[name].ms < oldest[2])) oldest = [name, first[0], first[1].resetAt - this.buckets[name].ms];
    }
    if (oldest) this.set(oldest[0], oldest[1], undefined);
  }

  /** Sets (at the end of its bucket when new or reopened) or removes a window, noting the change. */
  private set(name: BucketName, key: string, w: Window | undefined, logUndo = true): void {
    const m = this.bucket(name);
    const old = m.get(key);
    if (logUndo) this.undo.push([name, key, old]);
    const id = `${name}:${key}`;
    if (old && (!w || w.resetAt !== old.resetAt)) {
      m.delete(key);
      this.size -= 1;
      if (this.journaled) this.pending.push([id]);
    }
    if (w) {
      if (!m.has(key)) this.size += 1;
      m.set(key, w);
      if (this.journaled) this.pending.push([id, w.count, w.resetAt]);
    }
  }
}

/** Upstream's 429: whole seconds rounded (at least 1), `Retry-After` and `X-RateLimit-Reset` (epoch ms, virtual). */
export function tooManyRequests(r: Refusal): HandlerResult {
  const secs = Math.round(r.msBeforeNext / 1000) || 1;
  return {
    status: 429,
    body: { success: false, error: `Rate limit exceeded. Try again in ${secs} seconds.` },
    headers: { 'Retry-After': String(secs), 'X-RateLimit-Reset': String(r.resetAt) },
  };
}
