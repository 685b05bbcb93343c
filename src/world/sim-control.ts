// World-level simulation control: reset, clock, prices, tapes, snapshots, dump/load, faults, edge gate and journal.
import { findAdminByKey, parseBearer } from '../domain/access/auth.js';
import { DomainError } from '../domain/errors.js';
import { resolvePerpsAsset } from '../domain/perps/assets.js';
import { TABLES } from '../domain/tables.js';
import { DUMP_VERSION } from '../adapters/memory/memory-store.js';
import { contentProblem, type WorldChecks } from './dump-check.js';
import type { RequestJournal } from '../http/journal.js';
import { limiterKey, tooManyRequests } from '../http/rate-limit.js';
import { isSimPath, type SimControl, type SimJob, type SimPriceInput } from '../http/world-port.js';
import { MAX_CLOCK_JUMP_MS } from '../http/resources/sim/request.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { CLOCK_RANGE_TEXT, inClockRange } from '../ports/clock.js';
import { SPECIFIC_CHAINS, type PriceOverride, type SpecificChain } from '../ports/prices.js';
import { OptionError } from './options-check.js';
import { errorMessage } from './world-dirs.js';
import type { StoreDump, Sync } from '../ports/store.js';
import { MAX_MOVE_SNAPSHOT_ROWS, snapshotRowsUntil, type Job } from './scheduler.js';
import type { ResettableOptions, World, WorldCore } from './world.js';

/** What the control needs from the World's internals. */
export interface SimControlParts {
  core: () => WorldCore;
  hasSnapshot: (id: string) => boolean;
  journal: RequestJournal;
}

const iso = (ms: number) => new Date(ms).toISOString();
const jobs = (js: Job[]): SimJob[] => js.map((j) => ({ kind: j.kind, competitionId: j.competitionId, at: j.at }));
const EVM_CHAINS = SPECIFIC_CHAINS.filter((c) => c !== 'svm');

/** Names of the store aux states a world may attach (see buildCore in world.ts); dumps carry them under `aux`. */
export const AUX_STATES = ['clock', 'ids', 'priceOverrides', 'priceTapes', 'faults', 'rateLimits', 'mode'] as const;

/**
 * Why a dump document cannot be loaded, or null when it can: first its structure (format,
 * version, known tables of rows with ids, sequences, known aux states), then its contents (every
 * row against its table's schema, ids, sequences, aux states; see dump-check.ts).
 */
export function dumpProblem(doc: unknown, auxNames: readonly string[], world: WorldChecks = {}): string | null {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return 'expected a JSON object';
  const d = doc as Partial<StoreDump>;
  if (d.format !== 'compsim-world') return `format must be 'compsim-world', got ${JSON.stringify(d.format ?? null)}`;
  if (d.version !== DUMP_VERSION) return `unsupported version ${JSON.stringify(d.version ?? null)} (this build reads ${DUMP_VERSION})`;
  if (!d.tables || typeof d.tables !== 'object' || Array.isArray(d.tables)) return 'tables must be an object of row arrays';
  for (const [name, rows] of Object.entries(d.tables)) {
    // Own names only: `toString` or `__proto__` are no tables of this store.
    if (!Object.hasOwn(TABLES, name)) return `unknown table '${name}'`;
    if (!Array.isArray(rows)) return `tables.${name} must be an array`;
    const bad = (rows as { id?: unknown }[]).findIndex((r) => !r || typeof r !== 'object' || (typeof r.id !== 'string' && typeof r.id !== 'number'));
    if (bad >= 0) return `tables.${name}[${bad}] needs a string or number id`;
  }
  if (d.seqs !== undefined) {
    if (!d.seqs || typeof d.seqs !== 'object' || Array.isArray(d.seqs)) return 'seqs must be an object of numbers';
    for (const [k, v] of Object.entries(d.seqs)) if (!Number.isInteger(v)) return `seqs.${k} must be an integer`;
  }
  if (d.aux !== undefined) {
    if (!d.aux || typeof d.aux !== 'object' || Array.isArray(d.aux)) return 'aux must be an object';
    for (const k of Object.keys(d.aux)) if (!auxNames.includes(k)) return `unknown aux state '${k}'`;
  }
  return contentProblem(d.tables, d.seqs, d.aux, world);
}

/** Chains a manual price without `specificChain` applies to. */
function chainsFor(core: WorldCore, token: string): SpecificChain[] {
  if (!token.startsWith('0x')) return ['svm'];
  const known = EVM_CHAINS.filter((c) => core.prices.catalogue().find(token, c) !== undefined);
  return known.length > 0 ? known : ['eth'];
}

function tapeTime(v: unknown, where: string): number {
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw new DomainError('SIM_INVALID', { where, reason: `not an epoch-ms number or ISO time: ${JSON.stringify(v)}` });
  return ms;
}

/** A reset's or a creation's failure as the 400 of the control API: an option error names its field under `options`. */
export function optionsFailure(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  if (err instanceof OptionError) return new DomainError('SIM_INVALID', { where: `options.${err.field}`, reason: err.reason });
  return new DomainError('SIM_INVALID', { where: 'options', reason: errorMessage(err) });
}

/** Refuses a clock target outside the clock's range (400 naming `where`). */
function checkTarget(target: number, where: string): void {
  if (inClockRange(target)) return;
  const at = Number.isFinite(target) && Math.abs(target) <= 8.64e15 ? iso(target) : `${target} ms`;
  throw new DomainError('SIM_INVALID', { where, reason: `the clock would reach ${at}, outside its range ${CLOCK_RANGE_TEXT}` });
}

/** Reset, clock moves and the control key. */
function lifecycleControls(world: World, parts: SimControlParts): Pick<SimControl, 'reset' | 'isControlKey' | 'advance' | 'setTime'> {
  const { core } = parts;
  /** Refuses, before anything runs, a clock move that would create too many snapshot rows for one request. */
  const boundMove = async (target: number, where: string) => {
    checkTarget(target, where);
    const { deps } = core();
    const rows = await deps.store.read((t) => snapshotRowsUntil(t, target, deps.config.snapshotIntervalMs));
    if (rows <= MAX_MOVE_SNAPSHOT_ROWS) return;
    throw new DomainError('SIM_INVALID', {
      where, reason: `the move would create ${rows} portfolio snapshot rows (competitions x participants x snapshot rounds), `
        + `more than the ${MAX_MOVE_SNAPSHOT_ROWS} one request may create: move the clock in smaller steps`,
    });
  };
  let controlKey: string | null = world.adminKey;
  return {
    async reset({ seed, options, adminKey, admin }) {
      const keep = world.adminKey ?? adminKey ?? controlKey ?? undefined;
      try {
        await world.reset(seed, {
          ...(options ? { options: options as ResettableOptions } : {}),
          ...(admin === false ? { admin: false as const } : keep ? { adminKey: keep } : {}),
        });
      } catch (err) {
        throw optionsFailure(err);
      }
      if (keep) controlKey = keep;
      return { seed: world.config.seed, now: world.deps.clock.now(), adminKey: world.adminKey };
    },

    isControlKey: (key) => key !== null && controlKey !== null && key === controlKey,

    async advance(ms) {
      await boundMove(world.deps.clock.now() + ms, 'advanceMs');
      return jobs(await world.advance(ms));
    },

    async setTime(ms) {
      const now = world.deps.clock.now();
      if (!Number.isFinite(ms)) throw new DomainError('SIM_INVALID', { where: 'set', reason: 'not a valid time' });
      if (ms < now) throw new DomainError('SIM_INVALID', { where: 'set', reason: `time only moves forward: ${iso(ms)} is before now, ${iso(now)}` });
      if (ms - now > MAX_CLOCK_JUMP_MS) throw new DomainError('SIM_INVALID', { where: 'set', reason: `more than 10 years ahead of now, ${iso(now)}` });
      await boundMove(ms, 'set');
      return jobs(await world.setTime(ms));
    },
  };
}

/** Manual prices and tapes. */
function priceControls(parts: SimControlParts): Pick<SimControl, 'setPrices' | 'clearPrices' | 'loadTapes' | 'prices'> {
  const { core } = parts;
  const tx = <R>(fn: () => Sync<R>) => core().store.transact(fn);
  return {
    async setPrices(list: SimPriceInput[]) {
      const c = core();
      const set: PriceOverride[] = [];
      // Its one caller, POST /api/sim/prices, has checked each price (a JSON number from 0 to MAX_PRICE; OverrideTable.set checks again).
      list.forEach((p) => {
        // A perps asset symbol (BTC, ETH, SOL, ...) sets the mark of its market's token.
        const market = p.specificChain ? null : resolvePerpsAsset(c.prices.catalogue(), p.token);
        const address = market?.address ?? p.token;
        for (const chain of market ? [market.specificChain] : p.specificChain ? [p.specificChain] : chainsFor(c, p.token)) {
          set.push({ address, specificChain: chain, price: p.price, ...(p.symbol !== undefined ? { symbol: p.symbol } : {}) });
        }
      });
      await tx(() => set.forEach((o) => c.prices.overrides.set(o)));
      return set;
    },

    async clearPrices() {
      const c = core();
      await tx(() => {
        c.prices.overrides.clear();
        c.prices.tapes.clear();
      });
    },

    async loadTapes(tapes) {
      const parsed: Record<string, [number, number][]> = {};
      for (const [raw, pts] of Object.entries(tapes)) {
        // A perps asset symbol as key stands for its market's `chain:address`.
        const market = raw.includes(':') ? null : resolvePerpsAsset(core().prices.catalogue(), raw);
        const k = market ? `${market.specificChain}:${market.address}` : raw;
        if (!Array.isArray(pts)) throw new DomainError('SIM_INVALID', { where: `tapes.${k}`, reason: 'must be an array of [time, price] points' });
        parsed[k] = pts.map((p: unknown, i) => {
          const where = `tapes.${k}.${i}`;
          if (!Array.isArray(p) || p.length !== 2) throw new DomainError('SIM_INVALID', { where, reason: 'must be a [time, price] pair' });
          return [tapeTime(p[0], where), p[1] as number];
        });
      }
      const c = core();
      try {
        return await tx(() => c.prices.tapes.load(parsed));
      } catch (err) {
        throw new DomainError('SIM_INVALID', { where: 'tapes', reason: errorMessage(err) });
      }
    },

    prices() {
      const c = core();
      return { overrides: c.prices.overrides.list(), tapes: c.prices.tapes.keys() };
    },
  };
}

/** Why a document's clock cannot be this world's (outside the clock's range once applied), or null. */
function clockProblem(c: WorldCore, doc: StoreDump): string | null {
  const v = doc.aux?.clock;
  if (typeof v !== 'number') return null;
  // A manual clock stores the instant, a system clock its offset from the wall clock.
  const at = c.clock instanceof SystemClock ? c.clock.now() - (c.clock.capture() as number) + v : v;
  return inClockRange(at) ? null : `aux.clock puts the world at ${at} ms, outside the clock's range ${CLOCK_RANGE_TEXT}`;
}

/** Snapshots, dump and load, faults. */
function stateControls(world: World, parts: SimControlParts): Pick<SimControl, 'snapshot' | 'restore' | 'dump' | 'load' | 'addFault' | 'faults' | 'removeFault'> {
  const { core } = parts;
  const tx = <R>(fn: () => Sync<R>) => core().store.transact(fn);
  return {
    snapshot: () => world.snapshot(),

    async restore(id) {
      if (!parts.hasSnapshot(id)) throw new DomainError('SIM_SNAPSHOT_NOT_FOUND', { id });
      await world.restore(id);
    },

    dump: () => world.dump(),

    async load(doc) {
      const c = core();
      // GET /api/sim/dump adds `success`; a document saved from it loads as is.
      const body = doc && typeof doc === 'object' && !Array.isArray(doc) ? { ...(doc as Record<string, unknown>) } : doc;
      if (body && typeof body === 'object') delete (body as { success?: unknown }).success;
      const problem = dumpProblem(body, AUX_STATES, { secrets: c.deps.secrets }) ?? clockProblem(c, body as StoreDump);
      if (problem) throw new DomainError('SIM_BAD_DUMP', { reason: problem });
      const before = await c.store.snapshot();
      try {
        await c.store.load(body as StoreDump);
      } catch (err) {
        await c.store.restore(before);
        throw new DomainError('SIM_BAD_DUMP', { reason: errorMessage(err) });
      }
      // A loaded world starts every caller's rate-limit windows afresh.
      if (c.limiter) await tx(() => c.limiter!.clear());
    },

    async addFault(spec) {
      const c = core();
      return tx(() => c.faults.add(spec));
    },

    faults: () => core().faults.all(),

    async removeFault(id) {
      const c = core();
      if (!(await tx(() => c.faults.remove(id)))) throw new DomainError('SIM_FAULT_NOT_FOUND', { id });
    },
  };
}

/** The request journal, the edge gate (rate limits and their faults) and latency faults. */
function edgeControls(parts: SimControlParts): Pick<SimControl, 'requests' | 'record' | 'gate' | 'latencyMs'> {
  const { core, journal } = parts;
  return {
    requests: (filter) => journal.list(filter),

    record(r) {
      journal.recordAt(r, core().deps.clock.now());
    },

    async gate(req) {
      if (isSimPath(req.path)) return null;
      const c = core();
      const faulted = c.faults.size > 0 && c.faults.pathFaults('rateLimit', req.path).some((f) => f.remaining !== 0);
      if (!faulted && !c.limiter) return null;
      return c.store.transact((t) => {
        const now = c.clock.now();
        const fault = faulted ? c.faults.takeRateLimit(req.path) : null;
        if (fault) return tooManyRequests({ msBeforeNext: fault.retryAfter * 1000, resetAt: now + fault.retryAfter * 1000 });
        if (!c.limiter || req.principal.kind === 'admin') return null;
        const key = req.principal.kind === 'anonymous' ? parseBearer(req.authorization) : null;
        if (key !== null && (findAdminByKey(c.deps, t, key))?.status === 'active') return null; // admin keys are exempt
        const refusal = c.limiter.consume(limiterKey(req), req.path, now);
        return refusal ? tooManyRequests(refusal) : null;
      });
    },

    latencyMs(path) {
      const c = core();
      if (c.faults.size === 0) return 0;
      return c.faults.pathFaults('latency', path).reduce((sum, f) => sum + f.ms, 0);
    },
  };
}

/** Builds the SimControl of a world. Every aux-state change runs as a store transaction (serialised, never undone by another's rollback). */
export function createSimControl(world: World, parts: SimControlParts): SimControl {
  return { ...lifecycleControls(world, parts), ...priceControls(parts), ...stateControls(world, parts), ...edgeControls(parts) };
}
