// Hostile-input fuzzing of the whole route registry: a rich seeded world, request arbitraries built from each route's schemas, and the per-request checks (no 5xx, error envelope, rejected requests change nothing).
import fc from 'fast-check';
import type { PlainRequest } from '../../src/http/dispatch.js';
import type { RouteDef } from '../../src/http/route.js';
import { ROUTES } from '../../src/http/resources/index.js';
import type { TargetRequest, TargetResponse } from '../../src/harness/targets.js';
import type { Json } from '../../src/harness/types.js';
import { TOKENS } from './model.js';

/** A uuid nobody has. */
export const NOBODY = '00000000-0000-4000-8000-000000000000';

/** Ids and keys of the fuzz world, by kind. */
export interface Pools {
  admin: string;
  /** Agent A (rich: in every competition, has traded), agent B, a deactivated agent C, D whose key was reset. */
  agents: { a: Agent; b: Agent; c: Agent; d: Agent };
  teamKey: string | null;
  teamId: string | null;
  /** D's key before its reset, and C's (deactivated) key. */
  oldKey: string;
  deactivatedKey: string;
  competitions: string[];
  users: string[];
  arenas: string[];
  snapshots: string[];
  faults: string[];
}

/** One agent of the fuzz world. */
export interface Agent { id: string; key: string; userId: string; email: string }

/** Sends one request somewhere (the in-process driver or a served world). */
export type Send = (req: TargetRequest) => Promise<Pick<TargetResponse, 'status' | 'body'>>;

const must = async (send: Send, req: TargetRequest, ok = [200, 201]): Promise<any> => {
  const res = await send(req);
  if (!ok.includes(res.status)) throw new Error(`fuzz world set-up: ${req.method} ${req.path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/**
 * Builds the fuzz world through the API: agents A-D (C deactivated, D's key reset), a team, an
 * active competition A and B trade in, a pending one A joined, an ended one, a perps one, an
 * arena, a sim snapshot and a fault, and ten minutes of snapshots.
 */
export async function buildFuzzWorld(send: Send, admin: string): Promise<Pools> {
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const post = (path: string, body: Json, key = admin) => must(send, { method: 'POST', path, query: {}, headers: as(key), body });
  const agent = async (n: string): Promise<Agent> => {
    const email = `${n}@fuzz.example`;
    const b = await post('/api/admin/users', { walletAddress: `0x${n.charCodeAt(0).toString(16).padStart(40, '0')}`, agentName: `fuzz ${n}`, agentEmail: email, agentWalletAddress: `0x${n.charCodeAt(0).toString(16).padStart(40, 'f')}` });
    return { id: b.agent.id, key: b.agent.apiKey, userId: b.user.id, email };
  };
  const a = await agent('a');
  const b = await agent('b');
  const c = await agent('c');
  const d = await agent('d');
  const oldKey = d.key;
  d.key = (await post('/api/agent/reset-api-key', {}, d.key)).apiKey;
  let teamKey: string | null = null;
  let teamId: string | null = null;
  const team = await send({ method: 'POST', path: '/api/public/teams/register', query: {}, headers: {}, body: { teamName: 'Fuzz Team', email: 'team@fuzz.example', contactPerson: 'T' } });
  if (team.status < 300) {
    teamKey = (team.body as any).team?.apiKey ?? null;
    teamId = (team.body as any).team?.id ?? null;
  }
  const balances = [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 5000 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 10 },
    { specificChain: 'eth', tokenSymbol: 'eth', amount: 1 }];
  const active = (await post('/api/admin/competition/start', { name: 'Fuzz Active', tradingType: 'allow', agentIds: [a.id, b.id, c.id, d.id, ...(teamId ? [teamId] : [])], paperTradingInitialBalances: balances })).competition.id;
  const pending = (await post('/api/admin/competition/create', { name: 'Fuzz Pending', paperTradingInitialBalances: balances })).competition.id;
  await post(`/api/competitions/${pending}/agents/${a.id}`, {}, a.key);
  const ended = (await post('/api/admin/competition/start', { name: 'Fuzz Ended', tradingType: 'allow', agentIds: [a.id, b.id] })).competition.id;
  const perpsRes = await send({ method: 'POST', path: '/api/admin/competition/start', query: {}, headers: as(admin), body: { name: 'Fuzz Perps', type: 'perpetual_futures', agentIds: [a.id, b.id] } });
  const perps = perpsRes.status === 200 ? [(perpsRes.body as any).competition.id as string] : [];
  for (const [i, k] of [a.key, b.key].entries()) {
    await post('/api/trade/execute', { competitionId: active, fromToken: TOKENS.USDC.address, toToken: TOKENS.SOL.address, amount: String(100 + i), reason: 'fuzz' }, k);
  }
  await post('/api/trade/execute', { competitionId: ended, fromToken: TOKENS.USDC.address, toToken: TOKENS.WETH.address, amount: '50', reason: 'fuzz' }, a.key);
  await post('/api/sim/clock', { advanceMs: 600_000 });
  await post('/api/admin/competition/end', { competitionId: ended });
  await post(`/api/admin/agents/${c.id}/deactivate`, { reason: 'fuzz' });
  const arena = (await post('/api/admin/arenas', { id: 'fuzz-arena', name: 'Fuzz Arena', createdBy: 'fuzz', category: 'crypto_trading', skill: 'spot_paper_trading' }).catch(() => null))?.arena?.id;
  const snap = (await post('/api/sim/snapshots', {})).id as string;
  const fault = (await post('/api/sim/faults', { kind: 'priceZero', token: TOKENS.JUP.address })).id as string;
  return {
    admin, agents: { a, b, c, d }, teamKey, teamId, oldKey, deactivatedKey: c.key,
    competitions: [active, pending, ended, ...perps], users: [a.userId, b.userId], arenas: ['default-paper-arena', ...(arena ? [arena] : [])],
    snapshots: [snap], faults: [fault],
  };
}

/** Strings no handler should choke on. */
export const HOSTILE_STRINGS: string[] = [
  '', ' ', 'null', 'undefined', 'NaN', 'Infinity', '-Infinity', '1e308', '-1e308', '1e-400', '-1', '0', '-0', '0x', '00', '1.', '.5', '1,5',
  '9'.repeat(400), "' OR 1=1 --", "'; DROP TABLE agents; --", '" OR ""="', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
  '../../etc/passwd', '%00', '%2e%2e%2f', '\u0000', 'a\u0000b', '\r\n\r\nX-Injected: 1', '\u202e\u200b\ufeff', '😀'.repeat(40), '\ud800',
  'x'.repeat(20_000), '${7*7}', '{{7*7}}', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'true', 'false', '[]', '{}',
  NOBODY, 'not-a-uuid', '00000000-0000-0000-0000-000000000000', 'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ', 'default-paper-arena',
  '2025-13-45T99:99:99Z', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '+275760-09-13T00:00:00.000Z', 'svm', 'evm', 'eth', 'base',
];

/** Numbers of every awkward kind (NaN and the infinities travel as strings; JSON has no such numbers). */
export const HOSTILE_NUMBERS: Json[] = [0, -0, -1, 1, 0.5, -0.000001, 1e-7, 5e-324, 1e308, -1e308, 1.7976931348623157e308, 2 ** 53 + 1, 1e21, 123456789.12345679, 3, 100, 101, 10_000];

function deepNest(depth: number, leaf: Json): Json {
  let v: Json = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { a: v };
  return v;
}

const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom<Json>(true, false, null, [], {}, [null], { '': '' }, { __proto__: 1 } as unknown as Json, [1, 'a', {}]) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: fc.constantFrom(20, 200, 3000, 20_000).map((d) => deepNest(d, 'deep')) },
  { weight: 1, arbitrary: fc.constantFrom(1000, 30_000).map((n) => Array.from({ length: n }, (_, i) => i)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** A plausible value for a field, by name (so requests get past validation into the domain). */
function plausible(name: string, p: Pools): fc.Arbitrary<Json> {
  const { a, b, c } = p.agents;
  const tokens = [TOKENS.SOL.address, TOKENS.USDC.address, TOKENS.WETH.address, TOKENS.BURN.address, TOKENS.BONK.address, '0x000000000000000000000000000000000000dEaD', '0x1111111111111111111111111111111111111111'];
  const iso = fc.constantFrom('2025-06-02T12:30:00.000Z', '2025-07-01T00:00:00Z', '2020-01-01T00:00:00Z', '2025-06-02T12:10:00.000Z');
  const n = name.toLowerCase();
  if (n === 'competitionid') return fc.constantFrom(...p.competitions, NOBODY);
  if (n === 'agentid' || n === 'votedagentid' || n === 'teamid') return fc.constantFrom(a.id, b.id, c.id, ...(p.teamId ? [p.teamId] : []), NOBODY);
  if (n === 'agentids' || n === 'teamids') return fc.subarray([a.id, b.id, c.id, NOBODY]);
  if (n === 'userid') return fc.constantFrom(...p.users, NOBODY);
  if (n.endsWith('token') || n === 'token') return fc.constantFrom(...tokens);
  if (n.includes('amount') || n === 'sizeusd' || n === 'price' || n === 'ms' || n === 'advancems') return fc.constantFrom<Json>('1', '0.5', 100, '1e3', 0.000001, 2500, '2500');
  if (n.endsWith('date') || n === 'set' || n === 'at' || n === 'since' || n === 'starttime') return iso;
  if (n.includes('email')) return fc.constantFrom('x@y.example', 'fuzz@fuzz.example', 'a@fuzz.example');
  if (n.includes('wallet')) return fc.constantFrom('0x' + 'ab'.repeat(20), '0x' + '0'.repeat(40), '0x61'.padEnd(42, '0'));
  if (n === 'fromchain' || n === 'tochain' || n === 'chain') return fc.constantFrom('svm', 'evm');
  if (n.includes('specificchain')) return fc.constantFrom('svm', 'eth', 'base', 'polygon');
  if (n === 'paperTradingInitialBalances'.toLowerCase() || n === 'defaultinitialbalances') return fc.constant([{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 100 }]);
  if (n === 'prices') return fc.constant([{ token: TOKENS.SOL.address, price: 200 }]);
  if (n === 'kind') return fc.constantFrom('priceMissing', 'priceZero', 'priceStale', 'constraintFail', 'rateLimit', 'latency');
  if (n === 'path') return fc.constantFrom('/api/trade', '/api/price', '/');
  if (n === 'seed') return fc.constantFrom<Json>(1, 'fuzz');
  if (n === 'limit' || n === 'offset' || n === 'bucket') return fc.constantFrom<Json>('0', '1', '2', '100', '101', '-1');
  if (n === 'sort') return fc.constantFrom('rank', '-rank', 'name', '-createdAt', 'score', 'nonsense', '-');
  if (n === 'status') return fc.constantFrom('active', 'pending', 'ended', 'Open', 'Closed');
  if (n.includes('name') || n === 'reason' || n === 'description' || n === 'contactperson' || n === 'handle') return fc.constantFrom('fuzzer', 'fuzz_x', 'r');
  return fc.constantFrom<Json>('x', 1, true);
}

/** A value for a field: plausible, or hostile (wrong type, odd text, odd number, deep, huge). */
function fieldValue(name: string, schema: unknown, p: Pools): fc.Arbitrary<Json> {
  const s = (schema ?? {}) as { enum?: Json[]; type?: string | string[]; properties?: Record<string, unknown> };
  const options: { weight: number; arbitrary: fc.Arbitrary<Json> }[] = [{ weight: 5, arbitrary: plausible(name, p) }, { weight: 5, arbitrary: hostileValue }];
  if (s.enum) options.push({ weight: 3, arbitrary: fc.constantFrom(...s.enum) });
  if (s.properties) options.push({ weight: 3, arbitrary: objectFor(s as Record<string, unknown>, p) });
  return fc.oneof(...options);
}

/** An object for an object schema: some of its properties (plausible or hostile), sometimes extra keys. */
function objectFor(schema: Record<string, unknown> | undefined, p: Pools): fc.Arbitrary<Json> {
  const props = (schema?.properties ?? {}) as Record<string, unknown>;
  const entries = Object.entries(props);
  const known = fc.record(Object.fromEntries(entries.map(([k, v]) => [k, fieldValue(k, v, p)])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, Json>>;
  const extra = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'x', '', '$where', 'id', 'status', 'apiKey', 'role'), hostileValue, { maxKeys: 2 });
  return fc.tuple(known, fc.option(extra, { freq: 4 })).map(([k, e]) => ({ ...k, ...(e ?? {}) }) as Json);
}

/** A body for a route: from its schema mostly, else arbitrary JSON or odd top-level values. */
function bodyFor(route: RouteDef, p: Pools): fc.Arbitrary<Json | undefined> {
  return fc.oneof(
    { weight: 8, arbitrary: objectFor(route.schemas?.body as Record<string, unknown> | undefined, p) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json> },
    { weight: 1, arbitrary: fc.constantFrom<Json | undefined>(undefined, null, [], 'text', 42, true, {}) },
  );
}

/** Query strings for a route: its schema's parameters (strings, sometimes repeated), plausible or hostile. */
function queryFor(route: RouteDef, p: Pools): fc.Arbitrary<Record<string, string | string[]>> {
  const props = ((route.schemas?.query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}) as Record<string, unknown>;
  const names = [...Object.keys(props), 'competitionId', 'token', 'limit'];
  const asText = (v: Json): string => {
    try {
      return (typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, 3000);
    } catch {
      return '['.repeat(3000);
    }
  };
  const value = (n: string) => fc.oneof(
    { weight: 6, arbitrary: fieldValue(n, props[n], p).map(asText) },
    { weight: 1, arbitrary: fc.array(fieldValue(n, props[n], p).map(asText), { minLength: 2, maxLength: 3 }) },
  );
  return fc.dictionary(fc.constantFrom(...names), fc.constant(0), { maxKeys: 4 }).chain((keys) =>
    fc.record(Object.fromEntries(Object.keys(keys).map((k) => [k, value(k)])) as Record<string, fc.Arbitrary<string | string[]>>));
}

/** URL-encodes an id (a lone surrogate cannot be encoded: sent as its replacement). */
function encodeId(s: string): string {
  try {
    return encodeURIComponent(s.slice(0, 300)) || '%20';
  } catch {
    return '%EF%BF%BD';
  }
}

/** A path parameter: an existing id of the right kind, a stranger, or hostile text (URL-encoded). */
function paramFor(name: string, route: RouteDef, p: Pools): fc.Arbitrary<string> {
  const { a, b, c } = p.agents;
  let valid: string[];
  if (name === 'competitionId') valid = p.competitions;
  else if (name === 'agentId') valid = [a.id, b.id, c.id];
  else if (name === 'teamId') valid = p.teamId ? [p.teamId, a.id] : [a.id];
  else if (route.path.startsWith('/api/sim/snapshots')) valid = p.snapshots;
  else if (route.path.startsWith('/api/sim/faults')) valid = p.faults;
  else if (route.path.includes('arenas')) valid = p.arenas;
  else valid = ['1', 'pos-1'];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: fc.constant(NOBODY) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).map(encodeId) },
    { weight: 1, arbitrary: fc.constantFrom('..', '%', '%E0%A4%A', '%2F', 'a/b', '%00', valid[0]!.toUpperCase()) },
  );
}

/** Authorization headers: none, admin, each agent (own, other, deactivated, reset), the team, and malformed ones. */
function authFor(p: Pools): fc.Arbitrary<string | undefined> {
  const { a, b, d } = p.agents;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(`Bearer ${p.admin}`, `Bearer ${a.key}`, `Bearer ${b.key}`, `Bearer ${d.key}`) },
    { weight: 1, arbitrary: fc.constantFrom<string | undefined>(undefined, ...(p.teamKey ? [`Bearer ${p.teamKey}`] : [])) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(`Bearer ${p.oldKey}`, `Bearer ${p.deactivatedKey}`, 'Bearer', 'Bearer ', `bearer ${p.admin}`, `Basic ${p.admin}`,
        `Bearer ${p.admin} extra`, `Bearer ${a.key.slice(0, -1)}x`, 'Bearer 0123456789abcdef_0123456789abcdef', `Bearer ${'x'.repeat(5000)}`,
        'Bearer _', 'Bearer \u00e9\u00e9', `Bearer ${a.key}\u0000`, `Bearer  ${a.key}`),
    },
  );
}

/** A hostile request, as dispatch takes it, with its route (null: an unknown path). */
export interface FuzzRequest { route: RouteDef | null; req: PlainRequest }

/** Requests over every route of the registry (uniformly), plus unknown paths and methods. */
export function requestArb(p: Pools, routes: readonly RouteDef[] = ROUTES): fc.Arbitrary<FuzzRequest> {
  const known = fc.constantFrom(...routes).chain((route) => {
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const params = fc.tuple(...names.map((n) => paramFor(n, route, p)));
    const hasBody = route.method !== 'GET';
    return fc.tuple(params, queryFor(route, p), hasBody ? bodyFor(route, p) : fc.constant(undefined), authFor(p)).map(([vals, query, body, auth]) => {
      let i = 0;
      const path = route.path.replace(/\{\w+\}/g, () => vals[i++]!);
      return { route, req: { method: route.method, path, query, headers: auth !== undefined ? { authorization: auth } : {}, ...(body !== undefined ? { body } : {}), ip: '127.0.0.1' } };
    });
  });
  const unknown = fc.tuple(
    fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
    fc.constantFrom('/api/nope', '/api/trade', '/api/agent', '/api/competitions/x/y/z/w', '/api/admin', '/api/sim', '/', '//api//health', '/api/account/x', `/api/${'x'.repeat(3000)}`),
    authFor(p),
  ).map(([method, path, auth]) => ({ route: null, req: { method, path, query: {}, headers: auth !== undefined ? { authorization: auth } : {}, ip: '127.0.0.1' } }));
  return fc.oneof({ weight: 30, arbitrary: known }, { weight: 1, arbitrary: unknown });
}

/**
 * GET routes whose success legitimately changes state: a quote draws slippage from the seeded
 * generator; a wallet-verification nonce is issued and stored for the later verify call.
 */
export const STATEFUL_READS = new Set(['trade.quote', 'auth.nonce']);

/** Requests run after every accepted write: stored input must never break a later answer or a scheduler job. */
export function afterWriteRequests(p: Pools): { method: string; path: string; admin: boolean; query?: Record<string, string>; body?: Json }[] {
  const out: { method: string; path: string; admin: boolean; query?: Record<string, string>; body?: Json }[] = [
    { method: 'GET', path: '/api/admin/agents', admin: true }, { method: 'GET', path: '/api/agents', admin: false },
    { method: 'GET', path: '/api/competitions', admin: false }, { method: 'GET', path: '/api/sim/dump', admin: true },
    { method: 'GET', path: '/api/admin/arenas', admin: true }, { method: 'GET', path: '/api/admin/teams', admin: true },
    { method: 'GET', path: '/api/leaderboard', admin: false }, { method: 'GET', path: '/api/health/detailed', admin: false },
    { method: 'GET', path: `/api/agents/${p.agents.a.id}`, admin: false }, { method: 'GET', path: `/api/agents/${p.agents.a.id}/competitions`, admin: false },
  ];
  for (const c of p.competitions) {
    for (const suffix of ['', '/agents', '/rules', '/timeline', '/trades']) out.push({ method: 'GET', path: `/api/competitions/${c}${suffix}`, admin: true });
    out.push({ method: 'GET', path: '/api/competitions/leaderboard', admin: true, query: { competitionId: c } });
  }
  // The scheduler runs every due job (starts, snapshots, ends) on whatever the write stored.
  out.push({ method: 'POST', path: '/api/sim/clock', admin: true, body: { advanceMs: 86_400_000 } });
  out.push({ method: 'GET', path: '/api/competitions', admin: false, query: { status: 'ended' } });
  return out;
}

/** Why an answer breaks the rules (null when it is fine): 5xx, a body that cannot be sent, or a bad error envelope (HEAD answers carry no body). */
export function answerProblem(status: number, body: unknown, method = 'GET'): string | null {
  if (status >= 500) return `status ${status}`;
  if (method === 'HEAD') return null;
  try {
    JSON.stringify(body);
  } catch (err) {
    return `the answer cannot be serialised (${(err as Error).message})`;
  }
  if (status >= 400) {
    const b = body as { success?: unknown; error?: unknown } | null;
    if (!b || typeof b !== 'object' || b.success !== false || typeof b.error !== 'string' || b.error === '') return `error body is not {success:false, error}: ${String(JSON.stringify(body)).slice(0, 200)}`;
  }
  return null;
}

/** A short printable form of a request. */
export function showRequest(r: PlainRequest): string {
  const body = r.body === undefined ? '' : ` ${String(JSON.stringify(r.body)).slice(0, 300)}`;
  const q = r.query && Object.keys(r.query).length > 0 ? `?${String(JSON.stringify(r.query)).slice(0, 200)}` : '';
  const auth = (r.headers as Record<string, string>).authorization;
  return `${r.method} ${r.path.slice(0, 200)}${q}${body}${auth ? ` [auth ${auth.slice(0, 30)}]` : ''}`;
}
