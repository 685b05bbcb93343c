// Wire shapes of the simulation control API: faults, jobs, journal entries and overrides (times as ISO strings).
import type { Fault, FaultSpec } from '../../../ports/faults.js';
import type { PriceOverride } from '../../../ports/prices.js';
import type { JournalEntry } from '../../journal.js';
import type { SimJob } from '../../world-port.js';
import { iso } from '../shared/time.js';
import type { Infer } from '../../typed-route.js';
import type { faultBody } from './request.js';

/**
 * A validated `POST /api/sim/faults` body -> the fault to store (`now` = default of a stale fault's
 * `at`). The body schema requires each kind's fields (its `allOf`), so they are present here.
 */
export function faultSpec(b: Infer<typeof faultBody>, now: number): FaultSpec {
  const target = { token: b.token!, ...(b.specificChain !== undefined ? { specificChain: b.specificChain } : {}) };
  switch (b.kind) {
    case 'priceStale': return { kind: 'priceStale', ...target, at: b.at !== undefined ? Date.parse(b.at) : now };
    case 'constraintFail': return { kind: 'constraintFail', ...target, metric: b.metric! };
    case 'rateLimit': return { kind: 'rateLimit', path: b.path!, remaining: b.count ?? null, retryAfter: b.retryAfter ?? 60 };
    case 'latency': return { kind: 'latency', path: b.path!, ms: b.ms! };
    default: return { kind: b.kind, ...target };
  }
}

/** A stored fault on the wire (`at` as ISO). */
export function apiFault(f: Fault): Record<string, unknown> {
  return f.kind === 'priceStale' ? { ...f, at: iso(f.at) } : { ...f };
}

/** A job that ran while the clock moved. */
export function apiJob(j: SimJob) {
  return { kind: j.kind, competitionId: j.competitionId, at: iso(j.at) };
}

/** A journal entry (`at` as ISO virtual time). */
export function apiRequest(e: JournalEntry) {
  return { ...e, at: iso(e.at) };
}

/** A manual override as the client named it (`token`, not `address`). */
export function apiOverride(o: PriceOverride) {
  return { token: o.address, specificChain: o.specificChain, price: o.price, ...(o.symbol !== undefined ? { symbol: o.symbol } : {}) };
}
