// SimControl: what /api/sim/* and the HTTP edge may ask of a world (World implements it; http may not import world.ts).
import type { Principal } from '../domain/model.js';
import type { Fault, FaultSpec } from '../ports/faults.js';
import type { PriceOverride, SpecificChain } from '../ports/prices.js';
import type { StoreDump } from '../ports/store.js';
import type { JournalEntry, JournalFilter } from './journal.js';
import type { HandlerResult } from './route.js';

/** A scheduler job that ran while time moved. */
export interface SimJob { kind: string; competitionId: string; at: number }

/** One manual price; without `specificChain` the world picks the chains (see `setPrices`). */
export interface SimPriceInput { token: string; specificChain?: SpecificChain; price: number; symbol?: string }

/** A request as the edge gate sees it, after authentication. */
export interface GateRequest {
  method: string;
  path: string;
  principal: Principal;
  authorization?: string | undefined;
  ip?: string | undefined;
  headers: Record<string, string>;
}

/** An answered request, for the journal. */
export interface AnsweredRequest { method: string; path: string; status: number; principal: Principal; routeId: string | null }

/** Simulation control of one world. Rule violations throw `DomainError` (SIM_* codes). */
export interface SimControl {
  /**
   * Back to the seeded baseline, optionally with another seed and replaced options. The world's
   * admin key (else `adminKey`, the caller's) is kept. Snapshots, faults and the journal are dropped.
   */
  reset(input: { seed?: number | string; options?: Record<string, unknown>; adminKey?: string; admin?: boolean }): Promise<{ seed: number | string; now: number; adminKey: string | null }>;
  /**
   * True for the control key: the world's configured admin key, or the key that authenticated the
   * last reset. It authenticates `/api/sim/*` even while the world has no admin (after a reset with
   * `admin: false`), so a client that creates its admin with `POST /api/admin/setup` can reset again.
   */
  isControlKey(key: string | null): boolean;
  /** Moves virtual time forward, running due jobs. */
  advance(ms: number): Promise<SimJob[]>;
  /** Moves virtual time to `ms`; earlier than now is a 400. */
  setTime(ms: number): Promise<SimJob[]>;
  /**
   * Sets manual overrides. Without `specificChain`: `svm` for non-0x tokens, else every EVM chain
   * whose catalogue lists the token, else `eth`. Returns the overrides set.
   */
  setPrices(list: SimPriceInput[]): Promise<PriceOverride[]>;
  /** Drops every manual override and loaded tape (back to the feed). */
  clearPrices(): Promise<void>;
  /** Loads tapes (`"<chain>:<address>"` -> [[epochMs | ISO, price], ...]); returns their keys. */
  loadTapes(tapes: Record<string, unknown>): Promise<string[]>;
  /** Current manual overrides and loaded tape keys. */
  prices(): { overrides: PriceOverride[]; tapes: string[] };
  snapshot(): Promise<string>;
  /** Restores a snapshot (any number of times); unknown id is a 404. */
  restore(id: string): Promise<void>;
  dump(): Promise<StoreDump>;
  /** Loads a dump document; a malformed one is a 400 and leaves the world as it was. */
  load(doc: unknown): Promise<void>;
  addFault(spec: FaultSpec): Promise<Fault>;
  faults(): Fault[];
  /** Removes a fault; unknown id is a 404. */
  removeFault(id: string): Promise<void>;
  /** Journal entries matching every given filter, oldest first. */
  requests(filter: JournalFilter): JournalEntry[];
  /** Journals an answered request at the current virtual time. */
  record(r: AnsweredRequest): void;
  /**
   * Runs before the handler (after authentication): a `rateLimit` fault or the upstream rate
   * limiter may answer 429 instead. Null = go on. `/api/sim/*` always passes.
   */
  gate(req: GateRequest): Promise<HandlerResult | null>;
  /** Wall-time delay (ms) latency faults add to an answer under `path` (applied by the Koa server only). */
  latencyMs(path: string): number;
}

/** True for the simulation control paths (exempt from rate limits and rate-limit faults). */
export function isSimPath(path: string): boolean {
  return path === '/api/sim' || path.startsWith('/api/sim/');
}
