// Simulation control API (/api/sim/*, admin key; compsim only): reset, clock, prices, snapshots, dump/load, faults, journal.
import { parseBearer } from '../../../domain/access/auth.js';
import { DomainError } from '../../../domain/errors.js';
import type { JournalFilter } from '../../journal.js';
import type { HttpWorld, RouteDef } from '../../route.js';
import { route, type Infer } from '../../typed-route.js';
import type { SimControl } from '../../world-port.js';
import { apiFault, apiJob, apiOverride, apiRequest, faultSpec } from './serialize.js';
import { iso } from '../shared/time.js';
import { clockBody, faultBody, idParams, loadBody, pricesBody, requestsQuery, resetBody, tapeBody } from './request.js';
import { clockGetResponses, clockSetResponses, dumpResponses, faultCreateResponses, faultDeleteResponses, faultListResponses, loadResponses, okOnlyResponses, pricesListResponses, pricesSetResponses, requestsResponses, resetResponses, restoreResponses, snapshotResponses, tapeResponses } from './response.js';

const base = { generation: 'sim', tag: 'sim', auth: 'admin' } as const;

/** The world's control, or a 404 when this world offers none. */
function sim(world: HttpWorld): SimControl {
  if (!world.sim) throw new DomainError('SIM_UNAVAILABLE');
  return world.sim;
}

const now = (world: HttpWorld) => iso(world.deps.clock.now());
/** Most jobs a clock move lists with `details: true`. */
export const MAX_JOB_DETAILS = 1000;

/** Journal query -> filter; `since` is a seq (digits) or an instant (the schema checked which). */
function journalFilter(q: Infer<typeof requestsQuery>): JournalFilter {
  const f: JournalFilter = {};
  if (q.method !== undefined) f.method = q.method;
  if (q.path !== undefined) f.path = q.path;
  if (q.status !== undefined) f.status = q.status;
  if (q.agentId !== undefined) f.agentId = q.agentId;
  if (q.limit !== undefined) f.limit = q.limit;
  if (q.since !== undefined) {
    if (/^\d+$/.test(q.since)) f.sinceSeq = Number(q.since);
    else f.sinceTime = Date.parse(q.since);
  }
  return f;
}

/** `/api/sim/*`. Mounted in-process by default and by `compsim serve --sim-api`. */
export const SIM_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'sim.reset', method: 'POST', path: '/api/sim/reset', summary: 'Reset the world to its seeded baseline (optionally another seed and options)',
    schemas: { responses: resetResponses, body: resetBody },
    handler: async ({ world, body, headers }) => {
      const key = parseBearer(headers.authorization);
      const r = await sim(world).reset({
        ...(body.seed !== undefined ? { seed: body.seed } : {}), ...(body.options ? { options: body.options } : {}), ...(key ? { adminKey: key } : {}),
        ...(body.admin === false ? { admin: false } : {}),
      });
      return { body: { success: true, seed: r.seed, now: iso(r.now), adminKey: r.adminKey } };
    },
  }),
  route({
    ...base, id: 'sim.clock.get', method: 'GET', path: '/api/sim/clock', summary: 'Current virtual time',
    schemas: { responses: clockGetResponses },
    handler: async ({ world }) => ({ body: { success: true, now: now(world) } }),
  }),
  route({
    ...base, id: 'sim.clock.set', method: 'POST', path: '/api/sim/clock', summary: 'Advance or set virtual time, running due jobs',
    schemas: { responses: clockSetResponses, body: clockBody },
    handler: async ({ world, body }) => {
      const c = sim(world);
      const { advanceMs, set } = body;
      let jobs;
      if (advanceMs !== undefined && set === undefined) jobs = await c.advance(advanceMs);
      else if (set !== undefined && advanceMs === undefined) jobs = await c.setTime(Date.parse(set));
      else throw new DomainError('SIM_INVALID', { where: 'body', reason: 'give exactly one of advanceMs or set' });
      const ran: Record<string, number> = {};
      for (const j of jobs) ran[j.kind] = (ran[j.kind] ?? 0) + 1;
      const details = body.details !== true ? {}
        : { jobs: jobs.slice(0, MAX_JOB_DETAILS).map(apiJob), ...(jobs.length > MAX_JOB_DETAILS ? { jobsOmitted: jobs.length - MAX_JOB_DETAILS } : {}) };
      return { body: { success: true, now: now(world), ran, ...details } };
    },
  }),
  route({
    ...base, id: 'sim.prices.set', method: 'POST', path: '/api/sim/prices', summary: 'Set manual price overrides',
    schemas: { responses: pricesSetResponses, body: pricesBody },
    handler: async ({ world, body }) => ({ body: { success: true, overrides: (await sim(world).setPrices(body.prices)).map(apiOverride) } }),
  }),
  route({
    ...base, id: 'sim.prices.list', method: 'GET', path: '/api/sim/prices', summary: 'Manual overrides and loaded tapes',
    schemas: { responses: pricesListResponses },
    handler: async ({ world }) => {
      const p = sim(world).prices();
      return { body: { success: true, overrides: p.overrides.map(apiOverride), tapes: p.tapes } };
    },
  }),
  route({
    ...base, id: 'sim.prices.clear', method: 'DELETE', path: '/api/sim/prices', summary: 'Clear every manual override and loaded tape',
    schemas: { responses: okOnlyResponses },
    handler: async ({ world }) => {
      await sim(world).clearPrices();
      return { body: { success: true } };
    },
  }),
  route({
    ...base, id: 'sim.prices.tape', method: 'POST', path: '/api/sim/prices/tape', summary: 'Load recorded price tapes on top of the feed',
    schemas: { responses: tapeResponses, body: tapeBody },
    handler: async ({ world, body }) => ({ body: { success: true, tapes: await sim(world).loadTapes(body.tapes) } }),
  }),
  route({
    ...base, id: 'sim.snapshots.create', method: 'POST', path: '/api/sim/snapshots', summary: 'Snapshot the whole world',
    schemas: { responses: snapshotResponses },
    handler: async ({ world }) => ({ body: { success: true, id: await sim(world).snapshot() } }),
  }),
  route({
    ...base, id: 'sim.snapshots.restore', method: 'POST', path: '/api/sim/snapshots/{id}/restore', summary: 'Restore a snapshot (any number of times)',
    schemas: { responses: restoreResponses, params: idParams },
    handler: async ({ world, params }) => {
      await sim(world).restore(params.id!);
      return { body: { success: true, now: now(world) } };
    },
  }),
  route({
    ...base, id: 'sim.dump', method: 'GET', path: '/api/sim/dump', summary: "The whole world as a versioned 'compsim-world' document",
    schemas: { responses: dumpResponses },
    handler: async ({ world }) => ({ body: { success: true, ...(await sim(world).dump()) } }),
  }),
  route({
    ...base, id: 'sim.load', method: 'POST', path: '/api/sim/load', summary: "Replace the world with a 'compsim-world' document (body up to 200 MB)",
    schemas: { responses: loadResponses, body: loadBody },
    handler: async ({ world, body }) => {
      await sim(world).load(body);
      return { body: { success: true, now: now(world) } };
    },
  }),
  route({
    ...base, id: 'sim.faults.create', method: 'POST', path: '/api/sim/faults', summary: 'Inject a fault (price, constraint, rate limit, latency)',
    schemas: { responses: faultCreateResponses, body: faultBody },
    handler: async ({ world, body }) => {
      const f = await sim(world).addFault(faultSpec(body, world.deps.clock.now()));
      return { body: { success: true, id: f.id, fault: apiFault(f) } };
    },
  }),
  route({
    ...base, id: 'sim.faults.list', method: 'GET', path: '/api/sim/faults', summary: 'Active faults, oldest first',
    schemas: { responses: faultListResponses },
    handler: async ({ world }) => ({ body: { success: true, faults: sim(world).faults().map(apiFault) } }),
  }),
  route({
    ...base, id: 'sim.faults.delete', method: 'DELETE', path: '/api/sim/faults/{id}', summary: 'Remove a fault',
    schemas: { responses: faultDeleteResponses, params: idParams },
    handler: async ({ world, params }) => {
      await sim(world).removeFault(params.id!);
      return { body: { success: true } };
    },
  }),
  route({
    ...base, id: 'sim.requests', method: 'GET', path: '/api/sim/requests', summary: 'Journal of answered requests (last 10000), oldest first',
    schemas: { responses: requestsResponses, query: requestsQuery },
    handler: async ({ world, query }) => ({ body: { success: true, requests: sim(world).requests(journalFilter(query)).map(apiRequest) } }),
  }),
];
