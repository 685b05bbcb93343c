// Step vocabulary -> requests: `call` as written, the other verbs as calls of the sim control API (/api/sim/*).
import { setOwn, StepInputError } from './interpolate.js';
import type { TargetRequest } from './targets.js';
import type { BalanceSetting, CallStep, FaultDef, Json, PriceOverride, Step } from './types.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `"1h30m"` -> 5400000; a number is taken as milliseconds. */
export function parseDuration(v: number | string): number {
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 0) throw new StepInputError(`duration must be a whole number of ms >= 0, got ${v}`);
    return v;
  }
  if (!/^(\d+(ms|s|m|h|d|w))+$/.test(v)) throw new StepInputError(`not a duration: "${v}" (e.g. "90s", "5m", "1h30m", "7d")`);
  let total = 0;
  for (const [, n, unit] of v.matchAll(/(\d+)(ms|s|m|h|d|w)/g)) total += Number(n) * UNIT_MS[unit!]!;
  return total;
}

/** A parsed call line. */
export interface CallLine {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
}

/** Splits `"GET /api/x?a=1"` into method, path and query. */
export function parseCallLine(line: string): CallLine {
  const m = /^([A-Z]+) (\/\S*)$/.exec(line);
  if (!m) throw new StepInputError(`call must be "METHOD /path", got "${line}"`);
  const [, method, target] = m;
  const q = target!.indexOf('?');
  const path = q < 0 ? target! : target!.slice(0, q);
  const query = q < 0 ? {} : Object.fromEntries(new URLSearchParams(target!.slice(q + 1)));
  return { method: method!, path, query };
}

/** The call line's query with the step's `query` values on top, as strings (booleans and numbers as written in JSON). */
function mergedQuery(line: Readonly<Record<string, string>>, q: CallStep['query']): Record<string, string> {
  const out: Record<string, string> = { ...line };
  if (q === undefined) return out;
  for (const k of Object.keys(q)) setOwn(out, k, String(q[k]));
  return out;
}

/** The request of an interpolated `call` step (Authorization comes from the runner's actor lookup). */
export function callRequest(step: CallStep, authKey: string | undefined): TargetRequest {
  const { method, path, query } = parseCallLine(step.call);
  const headers: Record<string, string> = {};
  if (authKey !== undefined) headers.authorization = `Bearer ${authKey}`;
  for (const [k, v] of Object.entries(step.headers ?? {})) headers[k.toLowerCase()] = v;
  const req: TargetRequest = { method, path, query: mergedQuery(query, step.query), headers };
  if (step.body !== undefined && method !== 'GET') req.body = step.body;
  return req;
}

/** A sim API request of a non-`call` step, plus how the runner should use the answer. */
export interface SimRequest {
  request: Omit<TargetRequest, 'headers'>;
  /** `snapshot` and `fault` answers carry an id the runner keeps under the step's name. */
  keepId?: { kind: 'snapshot' | 'fault'; name: string };
}

function toNumber(v: number | string, what: string): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw new StepInputError(`${what} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

function priceEntry(p: PriceOverride): Json {
  return { token: p.token, ...(p.specificChain !== undefined ? { specificChain: p.specificChain } : {}), price: toNumber(p.price, 'setPrice.price') };
}

function balanceEntry(b: BalanceSetting): Json {
  return { token: b.token, ...(b.specificChain !== undefined ? { specificChain: b.specificChain } : {}), amount: toNumber(b.amount, 'setBalance.amount') };
}

/** `toISOString`'s own form for years 0-9999, fields captured: year, month, day, hour. */
const CANONICAL_ISO = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * True when `s` is what `toISOString` gives for the instant `Date.parse` reads from it. The parser
 * takes days past the month's end and hour 24 as later instants; those are written differently.
 */
function isCanonicalIso(s: string): boolean {
  const m = CANONICAL_ISO.exec(s);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || Number(m[4]) > 23) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!);
}

/** The clock request of `setTime` or a call's `at` (`what` names it in errors): `POST /api/sim/clock {set: <ISO>}`. */
export function setTimeRequest(value: unknown, what: string): SimRequest['request'] & { body: { set: string } } {
  const ms = typeof value === 'number' ? value : Date.parse(String(value));
  // A Date holds instants within 8.64e15 ms of the epoch (an interpolated number may be anything).
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new StepInputError(`${what}: not an ISO instant: "${String(value)}"`);
  // A replay's calls each carry an instant already in that form: formatting it again costs more than checking it.
  const set = typeof value === 'string' && isCanonicalIso(value) ? value : new Date(ms).toISOString();
  return { method: 'POST', path: '/api/sim/clock', query: {}, body: { set } };
}

/** Looks up a runner-side name (snapshot or fault) -> the id the target gave. */
export type IdLookup = (kind: 'snapshot' | 'fault', name: string) => string;

/**
 * The sim API request of an interpolated non-`call` step; `null` for `note`. Faults without a
 * name are kept under `fault<N>` (N = step index) so they can still be removed.
 */
export function simRequest(step: Exclude<Step, CallStep>, index: number, ids: IdLookup): SimRequest | null {
  const post = (path: string, body?: Json): SimRequest['request'] => ({ method: 'POST', path, query: {}, ...(body !== undefined ? { body } : {}) });
  if ('advance' in step) return { request: post('/api/sim/clock', { advanceMs: parseDuration(step.advance) }) };
  if ('setTime' in step) return { request: setTimeRequest(step.setTime, 'setTime') };
  if ('setPrice' in step) {
    if (step.setPrice === 'clear') return { request: { method: 'DELETE', path: '/api/sim/prices', query: {} } };
    const list = Array.isArray(step.setPrice) ? step.setPrice : [step.setPrice];
    return { request: post('/api/sim/prices', { prices: list.map(priceEntry) }) };
  }
  if ('setBalance' in step) {
    const { agentId, competitionId, balances } = step.setBalance;
    return { request: post('/api/sim/balances', { agentId, competitionId, balances: balances.map(balanceEntry) }) };
  }
  if ('fault' in step) {
    if ('remove' in step.fault) {
      return { request: { method: 'DELETE', path: `/api/sim/faults/${encodeURIComponent(ids('fault', String(step.fault.remove)))}`, query: {} } };
    }
    return { request: post('/api/sim/faults', step.fault as FaultDef as Json), keepId: { kind: 'fault', name: step.name ?? `fault${index}` } };
  }
  if ('snapshot' in step) return { request: post('/api/sim/snapshots'), keepId: { kind: 'snapshot', name: step.snapshot } };
  if ('restore' in step) return { request: post(`/api/sim/snapshots/${encodeURIComponent(ids('snapshot', step.restore))}/restore`) };
  return null;
}
