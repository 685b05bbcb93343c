// Property-test driver: a world served in-process through the door exactly as the scenario runner's in-process target does, plus state marks to prove a request changed nothing.
import { IN_PROCESS_ADMIN_KEY } from '../../src/world/in-process-target.js';
import { snapshotDump } from '../../src/adapters/memory/memory-store.js';
import { createDoor, type Door, type DoorResponse } from '../../src/http/adapters/door.js';
import type { PlainRequest } from '../../src/http/dispatch.js';
import type { StoreDump, StoreSnapshot } from '../../src/ports/store.js';
import { targetResponse, type TargetRequest, type TargetResponse } from '../../src/harness/targets.js';
import type { Json, ScenarioWorld } from '../../src/harness/types.js';
import { createWorld, type World } from '../../src/world/world.js';
import { checkServed } from '../helpers/answers.js';

let shared: { door: Door; bugs: Bug[] } | undefined;

/** The door of every driver (its route table built once per process), reporting 500s to the driver whose request it is serving. */
function door(): { door: Door; bugs: Bug[] } {
  shared ??= (() => {
    const bugs: Bug[] = [];
    return { door: createDoor({ onBug: (err) => bugs.push({ req: { method: '?', path: '?', query: {}, headers: {} }, err }) }), bugs };
  })();
  return shared;
}

/** A body's JSON text; a body too deep for JSON.stringify is sent as the text of such a body (as the HTTP fuzzer does). */
function jsonText(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch {
    return `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  }
}

/** Where a world starts: the fields of a scenario document that the runner's reset uses. */
export interface WorldStart { seed: number | string; startTime: string; world: ScenarioWorld }

/** An unexpected server error seen by the driver (a 500 is always a bug). */
export interface Bug { req: TargetRequest; err: unknown }

/**
 * A world behind the door, reset the way the scenario runner resets a target, so a
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

  /** One request, as the in-process target sends it (JSON text both ways; no body on GET). */
  async send(req: TargetRequest): Promise<TargetResponse> {
    const withBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
    const res = await this.serve({ ...req, headers: withBody ? { 'content-type': 'application/json', ...req.headers } : req.headers }, withBody ? JSON.stringify(req.body) : undefined);
    return targetResponse(res.status, res.text, res.text !== '');
  }

  /** One request as given, its body sent as JSON text (however hostile). */
  async raw(req: PlainRequest): Promise<DoorResponse> {
    const withBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
    // Query arrays become repeated parameters, as over HTTP.
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) for (const x of [v].flat()) qs.append(k, String(x));
    const query = qs.toString();
    return this.serve({ method: req.method, path: req.path, query: {}, headers: withBody ? { 'content-type': 'application/json', ...req.headers } as Record<string, string> : req.headers as Record<string, string> }, withBody ? jsonText(req.body) : undefined, query);
  }

  /** Serves one request through the door; a 500's error goes to {@link bugs}. */
  private async serve(req: TargetRequest, body: string | undefined, query: string | Record<string, string> = req.query): Promise<DoorResponse> {
    this.requests += 1;
    const { door: d, bugs } = door();
    const res = checkServed(req.method, req.path, await d.serve(this.world, { method: req.method, path: req.path, query, headers: req.headers, ip: '127.0.0.1', ...(body !== undefined ? { body } : {}) }));
    for (const b of bugs.splice(0)) this.bugs.push({ req, err: b.err });
    return res;
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
