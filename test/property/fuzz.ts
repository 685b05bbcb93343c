// Runs hostile requests against a fuzz world (in-process through dispatch, or served over HTTP): every answer checked, every rejected request proven to change nothing, the world restored after accepted writes.
import fc from 'fast-check';
import type { PlainRequest } from '../../src/http/dispatch.js';
import { createResponseChecker, type ResponseChecker } from '../../src/http/response-check.js';
import type { RouteDef } from '../../src/http/route.js';
import { ROUTES } from '../../src/http/resources/index.js';
import type { StoreSnapshot } from '../../src/ports/store.js';
import type { TargetRequest, TargetResponse } from '../../src/harness/targets.js';
import type { World } from '../../src/world/world.js';
import type { Figures } from './budget.js';
import { Driver } from './driver.js';
import {
  afterWriteRequests, answerProblem, buildFuzzWorld, requestArb, showRequest, STATEFUL_READS, type FuzzRequest, type Pools,
} from './hostile.js';

let responses: ResponseChecker | undefined;
/** The documented-response checker of the whole registry (compiled once). */
const checker = () => (responses ??= createResponseChecker(ROUTES));

/** One problem the fuzzer found (deduplicated by route and kind). */
export interface Finding { key: string; detail: string }

/** How the fuzzer reaches a world: a plain request in, status and parsed body out (plus any 500 stack it can see). */
export interface Transport {
  world: World;
  admin: string;
  send(req: TargetRequest): Promise<TargetResponse>;
  plain(req: PlainRequest): Promise<{ status: number; body: unknown; bug?: unknown }>;
  /** Requests sent so far. */
  count(): number;
}

/** The in-process transport: dispatch without sockets (no JSON round trip for hostile bodies). */
export async function inProcess(): Promise<Transport> {
  const d = await Driver.create({ seed: 'hostile', startTime: '2025-06-02T12:00:00.000Z', world: {} });
  return {
    world: d.world, admin: Driver.adminKey, send: (r) => d.send(r), count: () => d.requests,
    async plain(req) {
      const res = await d.raw(req);
      const bug = d.bugs.splice(0)[0]?.err;
      return { status: res.status, body: res.body, ...(bug !== undefined ? { bug } : {}) };
    },
  };
}

/** The fuzz world with its baseline (restored after every accepted write). */
export class FuzzWorld {
  private dirty = false;
  private constructor(private t: Transport, public pools: Pools, private baseline: StoreSnapshot, private deps: unknown) {}

  static async create(t: Transport): Promise<FuzzWorld> {
    const pools = await buildFuzzWorld((r) => t.send(r), t.admin);
    return new FuzzWorld(t, pools, await t.world.deps.store.snapshot(), t.world.deps);
  }

  get requests(): number {
    return this.t.count();
  }

  /** Back to the fuzz world as built (rebuilt when a sim reset or load swapped the world's core). */
  private async restore(): Promise<void> {
    if (this.t.world.deps !== this.deps) {
      const res = await this.t.send({ method: 'POST', path: '/api/sim/reset', query: {}, headers: { authorization: `Bearer ${this.t.admin}` }, body: { seed: 'hostile' } });
      if (res.status !== 200) throw new Error(`fuzz world reset failed: ${res.status}`);
      this.pools = await buildFuzzWorld((r) => this.t.send(r), this.t.admin);
      this.baseline = await this.t.world.deps.store.snapshot();
      this.deps = this.t.world.deps;
    } else {
      await this.t.world.deps.store.restore(this.baseline);
    }
    this.dirty = false;
  }

  /** Sends one hostile request; returns what is wrong with how the world took it. */
  async probe(fr: FuzzRequest): Promise<Finding[]> {
    if (this.dirty) await this.restore();
    const { req, route } = fr;
    const id = route?.id ?? `unknown ${req.method}`;
    const out: Finding[] = [];
    const store = () => this.t.world.deps.store;
    const before = await store().snapshot();
    const res = await this.t.plain(req);
    const stack = (e: unknown) => (e as Error)?.stack?.split('\n').slice(0, 4).join(' | ') ?? String(e);
    if (res.bug !== undefined) out.push({ key: `${id}: 500`, detail: `${showRequest(req)} -> ${stack(res.bug)}` });
    const problem = answerProblem(res.status, res.body, req.method);
    if (problem && res.bug === undefined) out.push({ key: `${id}: ${problem.slice(0, 40)}`, detail: `${showRequest(req)} -> ${problem}` });
    if (!problem && req.method !== 'HEAD') {
      // The answer as it crosses the wire must match the route's documented response schema.
      const wire = res.body === undefined ? undefined : JSON.parse(JSON.stringify(res.body)) as unknown;
      const v = checker().check({ routeId: route?.id ?? null, method: req.method, path: req.path, status: res.status, body: wire });
      if (v) out.push({ key: `${id}: ${res.status} undocumented`, detail: `${showRequest(req)} -> ${v.message.slice(0, 400)}` });
    }
    const swapped = this.t.world.deps !== this.deps;
    const changed = swapped ? ['the whole world (core swapped)'] : Driver.diff(before, await store().snapshot());
    if (res.status >= 400 && changed.length > 0) out.push({ key: `${id}: rejected but changed state`, detail: `${showRequest(req)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}; changed ${changed.slice(0, 5).join(', ')}` });
    if (res.status < 400 && req.method === 'GET' && !STATEFUL_READS.has(id) && changed.length > 0) out.push({ key: `${id}: read changed state`, detail: `${showRequest(req)}; changed ${changed.slice(0, 5).join(', ')}` });
    if (res.status < 400 && changed.length > 0) {
      this.dirty = true;
      // Whatever a write stored, every later read must still answer properly.
      for (const r of afterWriteRequests(this.pools)) {
        const after = await this.t.plain({
          method: r.method, path: r.path, query: r.query ?? {}, headers: r.admin ? { authorization: `Bearer ${this.t.admin}` } : {}, ip: '127.0.0.1',
          ...(r.body !== undefined ? { body: r.body } : {}),
        });
        const p = after.bug !== undefined ? stack(after.bug) : after.status === 429 ? null : answerProblem(after.status, after.body);
        if (p) out.push({ key: `${id}: poisons ${r.path}`, detail: `${showRequest(req)} then ${r.method} ${r.path} -> ${p}` });
      }
    }
    return out;
  }
}

/**
 * Fuzzes every route of `routes` with `perRoute` requests each, then `perRoute * 4` over the whole
 * registry and unknown paths (fixed seeds), collecting findings (the first detail of each kind)
 * instead of stopping at the first, so a run reports everything it saw.
 */
export async function fuzzRoutes(t: Transport, routes: readonly RouteDef[], perRoute: number, seed: number, fig: Figures): Promise<Map<string, Finding>> {
  const w = await FuzzWorld.create(t);
  const found = new Map<string, Finding>();
  const start = w.requests;
  const run = async (fr: FuzzRequest) => {
    fig.commands += 1;
    for (const f of await w.probe(fr)) if (!found.has(f.key)) found.set(f.key, f);
  };
  for (const [i, route] of routes.entries()) for (const fr of fc.sample(requestArb(w.pools, [route]), { seed: seed + i, numRuns: perRoute })) await run(fr);
  for (const fr of fc.sample(requestArb(w.pools, routes), { seed, numRuns: perRoute * 4 })) await run(fr);
  fig.requests += w.requests - start;
  fig.runs += 1;
  return found;
}
