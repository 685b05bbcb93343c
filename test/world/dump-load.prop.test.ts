// POST /api/sim/load with randomly broken documents (property): a real dump with random fields of random rows and aux states replaced by random JSON is refused with 400 and changes nothing, or loads and every GET route still answers below 500.
import { expect } from 'chai';
import fc from 'fast-check';
import type { PlainRequest } from '../../src/http/dispatch.js';
import { ROUTES } from '../../src/http/resources/index.js';
import type { StoreSnapshot } from '../../src/ports/store.js';
import { budget } from '../property/budget.js';
import { Driver } from '../property/driver.js';
import { answerProblem, HOSTILE_NUMBERS, HOSTILE_STRINGS, NOBODY, showRequest, type Pools } from '../property/hostile.js';
import { TOKENS } from '../property/model.js';
import { buildRichWorld, type RichWorld } from './dump-world.js';

const SEED = 20250810;
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** A dump document as plain JSON. */
interface Doc { format: string; version: number; tables: Record<string, Record<string, Json>[]>; seqs: Record<string, number>; aux: Record<string, Json> }

/** One change: the value at `path` (from the document root) replaced, or deleted when `value` is undefined. */
interface Mutation { path: (string | number)[]; value: Json | undefined }

/** Every string of the document that names something (ids, keys, addresses): a replaced id that points elsewhere is the subtle case. */
function idsOf(d: Doc): string[] {
  const out = new Set<string>([NOBODY, TOKENS.SOL.address, TOKENS.USDC.address, 'default-paper-arena']);
  for (const rows of Object.values(d.tables)) for (const r of rows) for (const [k, v] of Object.entries(r)) if (typeof v === 'string' && /id$/i.test(k)) out.add(v);
  return [...out];
}

/** A value of the same JSON type as `current` (so it often passes the schema), or anything at all. */
function valueFor(current: Json | undefined, ids: string[]): fc.Arbitrary<Json | undefined> {
  const anything = fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> },
    { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, [], {}, '', 0) },
  );
  let same: fc.Arbitrary<Json> | null = null;
  if (typeof current === 'string') {
    same = fc.oneof(fc.constantFrom(...ids), fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 1000)), fc.string({ maxLength: 12 }));
  } else if (typeof current === 'number') {
    same = fc.oneof(
      fc.constantFrom(...(HOSTILE_NUMBERS as number[]), -1e15, 8.64e15, -8.64e15, 2 ** 31, current + 1, current - 1, -current),
      fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
  } else if (typeof current === 'boolean') {
    same = fc.boolean();
  } else if (Array.isArray(current)) {
    same = fc.oneof(fc.constant<Json>([]), fc.array(fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>, { maxLength: 3 }), fc.constant(current.slice(1)));
  }
  const options: { weight: number; arbitrary: fc.Arbitrary<Json | undefined> }[] = [
    { weight: 3, arbitrary: anything },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ];
  if (same) options.push({ weight: 6, arbitrary: same });
  return fc.oneof(...options);
}

/** Paths to every field of every row (one level into objects and arrays of objects too) and every aux state and its parts. */
function fieldPaths(d: Doc): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: Json, path: (string | number)[], depth: number) => {
    out.push(path);
    if (depth === 0 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) v.slice(0, 2).forEach((x, i) => walk(x, [...path, i], depth - 1));
    else for (const [k, x] of Object.entries(v)) walk(x, [...path, k], depth - 1);
  };
  for (const [name, rows] of Object.entries(d.tables)) rows.forEach((r, i) => { for (const [k, v] of Object.entries(r)) walk(v, ['tables', name, i, k], 2); });
  for (const [k, v] of Object.entries(d.aux)) walk(v, ['aux', k], 3);
  for (const k of Object.keys(d.seqs)) out.push(['seqs', k]);
  return out;
}

function get(root: unknown, path: (string | number)[]): Json | undefined {
  let v = root as Json | undefined;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string, Json>)[k] : undefined;
  return v;
}

function apply(doc: Doc, m: Mutation): void {
  const parent = get(doc, m.path.slice(0, -1)) as Record<string | number, Json> | undefined;
  if (parent === null || typeof parent !== 'object') return;
  const key = m.path[m.path.length - 1]!;
  if (m.value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else {
    parent[key] = m.value;
  }
}

/** One to three mutations: a field replaced or deleted, a stray field added to a row, or a row removed. */
function mutationsArb(d: Doc): fc.Arbitrary<Mutation[]> {
  const paths = fieldPaths(d);
  const ids = idsOf(d);
  const rows = Object.entries(d.tables).flatMap(([name, rs]) => rs.map((_, i) => ['tables', name, i] as (string | number)[]));
  const change = fc.constantFrom(...paths).chain((path) => valueFor(get(d, path), ids).map((value): Mutation => ({ path, value })));
  const stray = fc.tuple(fc.constantFrom(...rows), fc.constantFrom('padding', 'extra', 'constructor', '__proto__'), fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>)
    .map(([row, k, value]): Mutation => ({ path: [...row, k], value }));
  // A whole row removed leaves whatever pointed at it dangling (a hand-edited document's usual state).
  const removal = fc.constantFrom(...rows).map((path): Mutation => ({ path, value: undefined }));
  return fc.array(fc.oneof({ weight: 8, arbitrary: change }, { weight: 1, arbitrary: stray }, { weight: 1, arbitrary: removal }), { minLength: 1, maxLength: 3 });
}

/** One request per GET route of the registry: ids of the world in the path and in `competitionId`, the admin key or agent A's. */
function getRequests(p: Pools, admin: string, competitionId: string, agentId: string): PlainRequest[] {
  return ROUTES.filter((r) => r.method === 'GET').map((r) => {
    const path = r.path.replace('{competitionId}', competitionId).replace('{agentId}', agentId)
      .replace('{teamId}', p.teamId ?? agentId).replace('{id}', p.arenas[p.arenas.length - 1]!);
    const query = ((r.schemas?.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
    const q: Record<string, string> = {};
    if ('competitionId' in query) q.competitionId = competitionId;
    if ('token' in query) q.token = TOKENS.SOL.address;
    if ('fromToken' in query) Object.assign(q, { fromToken: TOKENS.USDC.address, toToken: TOKENS.SOL.address, amount: '10' });
    const key = r.auth === 'admin' ? admin : r.generation === 'legacy' && p.teamKey ? p.teamKey : p.agents.a.key;
    return { method: 'GET', path, query: q, headers: { authorization: `Bearer ${key}` }, ip: '127.0.0.1' };
  });
}

describe('POST /api/sim/load with randomly broken documents (property)', function () {
  this.timeout(budget(120_000, 3_600_000));
  let rich: RichWorld;
  let baseline: StoreSnapshot;
  before(async () => {
    rich = await buildRichWorld();
    baseline = await rich.t.world.deps.store.snapshot();
  });

  it('refuses the document (400, world unchanged) or loads it and answers every GET route and a day of scheduler jobs below 500', async () => {
    const { t, pools } = rich;
    const doc = rich.dump as unknown as Doc;
    const agents = [pools.agents.a.id, pools.agents.b.id];
    let accepted = 0;
    let refused = 0;
    await fc.assert(fc.asyncProperty(mutationsArb(doc), fc.constantFrom(...pools.competitions), fc.constantFrom(...agents), async (muts, cid, aid) => {
      await t.world.deps.store.restore(baseline);
      const broken = structuredClone(doc);
      for (const m of muts) apply(broken, m);
      const before = await t.world.deps.store.snapshot();
      const res = await t.plain({ method: 'POST', path: '/api/sim/load', query: {}, headers: { authorization: `Bearer ${t.admin}` }, body: broken, ip: '127.0.0.1' });
      const what = muts.map((m) => `${m.path.join('.')} = ${m.value === undefined ? '(deleted)' : JSON.stringify(m.value).slice(0, 80)}`).join('; ');
      expect(res.bug, `${what}: ${(res.bug as Error)?.stack}`).to.equal(undefined);
      if (res.status !== 200) {
        refused += 1;
        expect(res.status, `${what}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect((res.body as { success?: unknown }).success).to.equal(false);
        expect((res.body as { error?: string }).error).to.match(/^Invalid world document: /);
        expect(Driver.diff(before, await t.world.deps.store.snapshot()), `${what}: a refused load changed the world`).to.deep.equal([]);
        return;
      }
      accepted += 1;
      const reqs: PlainRequest[] = [
        ...getRequests(pools, t.admin, cid, aid),
        // The scheduler then runs every due job (snapshots, starts, ends, script actions) on the loaded rows.
        { method: 'POST', path: '/api/sim/clock', query: {}, headers: { authorization: `Bearer ${t.admin}` }, body: { advanceMs: 86_400_000 }, ip: '127.0.0.1' },
        ...getRequests(pools, t.admin, cid, aid).filter((r) => !r.path.startsWith('/api/sim/')),
      ];
      for (const req of reqs) {
        const r = await t.plain(req);
        const problem = r.bug !== undefined ? (r.bug as Error)?.stack?.split('\n').slice(0, 4).join(' | ') : answerProblem(r.status, r.body);
        expect(problem, `after loading ${what}: ${showRequest(req)} -> ${r.status}`).to.equal(null);
      }
    }), { seed: SEED, numRuns: budget(400, 5000, 60), endOnFailure: true });
    // Both outcomes must occur, or the property tests nothing.
    expect(accepted).to.be.greaterThan(10);
    expect(refused).to.be.greaterThan(10);
  });
});
