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

/**
 * Fixed windows as rate-limiter-flexible's memory limiter keeps them: a window opens at the first
 * request of a key and lasts the bucket's duration; every request counts (refused ones too), and a
 * request is refused once a count passes the bucket's points. Time is the world's clock, passed in.
 */
export class RateLimiter implements AuxState {
  private windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly buckets: Record<BucketName, Bucket> = UPSTREAM_BUCKETS) {}

  /** Counts one request of `key` to `path` at `now`; null when allowed. */
  consume(key: string, path: string, now: number): Refusal | null {
    for (const name of bucketsFor(path)) {
      const b = this.buckets[name];
      const id = `${name}:${key}`;
      let w = this.windows.get(id);
      if (!w || now >= w.resetAt) {
        this.windows.delete(id); // re-insert so capture order follows window age
        w = { count: 0, resetAt: now + b.ms };
        this.windows.set(id, w);
      }
      w.count += 1;
      if (w.count > b.points) return { msBeforeNext: w.resetAt - now, resetAt: w.resetAt };
    }
    return null;
  }

  capture(): unknown {
    return [...this.windows].map(([id, w]) => [id, w.count, w.resetAt]);
  }

  apply(v: unknown): void {
    if (!Array.isArray(v)) throw new Error('rateLimits: expected [[bucketKey, count, resetAt], ...]');
    const next = new Map<string, { count: number; resetAt: number }>();
    for (const e of v as unknown[]) {
      if (!Array.isArray(e) || typeof e[0] !== 'string' || !Number.isFinite(e[1]) || !Number.isFinite(e[2])) throw new Error(`rateLimits: bad window ${JSON.stringify(e)}`);
      next.set(e[0], { count: e[1] as number, resetAt: e[2] as number });
    }
    this.windows = next;
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
