// Property-test driver: a world served in-process through serveRequest exactly as the scenario runner's in-process target does, plus state marks to prove a request changed nothing.
import { IN_PROCESS_ADMIN_KEY } from '../../src/world/in-process-target.js';
import { snapshotDump } from '../../src/adapters/memory/memory-store.js';
import { findRoute, serveRequest, routeTable as mountRoutes, type PlainRequest, type PlainResponse, type RouteTable } from '../../src/http/dispatch.js';
import { ROUTES } from '../../src/http/resources/index.js';
import type { StoreDump, StoreSnapshot } from '../../src/ports/store.js';
import { parseBody, type TargetRequest, type TargetResponse } from '../../src/harness/targets.js';
import type { Json, ScenarioWorld } from '../../src/harness/types.js';
import { createWorld, type World } from '../../src/world/world.js';
import { checkServed } from '../helpers/answers.js';

let table: RouteTable | undefined;

/** The compiled route table (compiled once per process: Ajv compilation is the slow part). */
export function routeTable(): RouteTable {
  table ??= mountRoutes(ROUTES);
  return table;
}

/** What crosses the wire: JSON text and back (as the in-process target does). */
function wire(value: unknown): Json | undefined {
  if (value === undefined || value === null) return undefined;
  return parseBody(typeof value === 'string' ? value : JSON.stringify(value));
}

/** Where a world starts: the fields of a scenario document that the runner's reset uses. */
export interface WorldStart { seed: number | string; startTime: string; world: ScenarioWorld }

/** An unexpected server error seen by the driver (a 500 is always a bug). */
export interface Bug { req: TargetRequest; err: unknown }

/**
 * A world behind {@link serveRequest}, reset the way the scenario runner resets a target, so a
 * recorded step list replays to the same answers with `compsim run`.
 */
export class Driver {
  /** Requests sent (for the run figures). */
  requests = 0;
  /** Unexpected errors behind 500 answers. */
  readonly bugs: Bug[] = [];

  private constructor(readonly world: World, readonly start: WorldStart) {}

  /** The in-process admin key (redacted from response logs, as every admin key is). */
  static readonly adminKey = IN_PROCESS_ADMIN_KEY;

  /** A world as the in-process target's `begin` builds it, then the runner's reset call. */
  static async create(start: WorldStart): Promise<Driver> {
    const world = await createWorld({ ...(start.world as object), seed: start.seed, startTime: start.startTime, admin: { apiKey: IN_PROCESS_ADMIN_KEY } });
    const d = new Driver(world, start);
    await d.reset();
    return d;
  }

  /** `POST /api/sim/reset` with the start's seed and options (what the runner sends first). */
  async reset(): Promise<void> {
    const body = { seed: this.start.seed, options: { startTime: this.start.startTime, ...(this.start.world as Record<string, Json>) } } as Json;
    const res = await this.send({ method: 'POST', path: '/api/sim/reset', query: {}, headers: { authorization: `Bearer ${IN_PROCESS_ADMIN_KEY}` }, body });
    if (res.status !== 200) throw new Error(`reset failed: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** One request, as the in-process target sends it (JSON round trip both ways; no body on GET). */
  async send(req: TargetRequest): Promise<TargetResponse> {
    this.requests += 1;
    const withBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
    const res = checkServed(req.method, req.path, await serveRequest(this.world, findRoute(routeTable(), req.method, req.path), {
      method: req.method, path: req.path, headers: { ...req.headers }, query: { ...req.query },
      readBody: () => (withBody ? wire(req.body) : undefined), ip: '127.0.0.1',
    }, (err) => this.bugs.push({ req, err })));
    return { status: res.status, body: wire(res.body) };
  }

  /** One request exactly as given (no JSON round trip: hostile bodies may be too deep to stringify). */
  async raw(req: PlainRequest): Promise<PlainResponse> {
    this.requests += 1;
    return checkServed(req.method, req.path, await serveRequest(this.world, findRoute(routeTable(), req.method, req.path), { ...req, readBody: () => req.body },
      (err) => this.bugs.push({ req: { method: req.method, path: req.path, query: {}, headers: {} }, err })));
  }

  /** A mark of the whole mutable state (rows are immutable, so marks are cheap and compare by identity). */
  mark(): Promise<StoreSnapshot> {
    return this.world.deps.store.snapshot();
  }

  /** Paths where two marks differ (empty when the state is the same). */
  static diff(a: StoreSnapshot, b: StoreSnapshot): string[] {
    return dumpDiff(snapshotDump(a), snapshotDump(b));
  }

  /** A mark as a dump document (rows shared, not copied). */
  static asDump(s: StoreSnapshot): StoreDump {
    return snapshotDump(s);
  }
}

/** Paths (`tables.balances[3]`, `seqs.trades`, `aux.ids`) where two dumps differ. */
export function dumpDiff(a: StoreDump, b: StoreDump): string[] {
  const out: string[] = [];
  const names = new Set([...Object.keys(a.tables), ...Object.keys(b.tables)]);
  for (const n of names) {
    const ra = (a.tables[n] ?? []) as unknown[];
    const rb = (b.tables[n] ?? []) as unknown[];
    if (ra.length !== rb.length) {
      out.push(`tables.${n} (${ra.length} -> ${rb.length} rows)`);
      continue;
    }
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i] && JSON.stringify(ra[i]) !== JSON.stringify(rb[i])) out.push(`tables.${n}[${i}]`);
  }
  for (const k of new Set([...Object.keys(a.seqs ?? {}), ...Object.keys(b.seqs ?? {})])) {
    if ((a.seqs ?? {})[k] !== (b.seqs ?? {})[k]) out.push(`seqs.${k}`);
  }
  for (const k of new Set([...Object.keys(a.aux ?? {}), ...Object.keys(b.aux ?? {})])) {
    if (JSON.stringify((a.aux ?? {})[k]) !== JSON.stringify((b.aux ?? {})[k])) out.push(`aux.${k}`);
  }
  return out;
}
