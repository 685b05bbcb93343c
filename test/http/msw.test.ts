// msw handlers: a small bot using plain fetch against https://api.example is served by a world in-process, no socket.
import { expect } from 'chai';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { handlers } from '../../src/http/adapters/msw.js';
import { createWorld, type World } from '../../src/world/world.js';
import { WorldHost } from '../../src/world/world-host.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { TOK } from '../helpers/trading.js';
import { checkMswAnswers } from '../helpers/answers.js';
import { ROUTES } from '../../src/http/resources/index.js';

const BASE = 'https://api.example';

/** The bot under test: buys SOL with a share of its USDC, the way a bot would against the hosted service. */
async function tinyBot(apiKey: string, competitionId: string, share: number): Promise<{ ok: boolean; bought: number }> {
  const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const balances = await (await fetch(`${BASE}/api/agent/balances?competitionId=${competitionId}`, { headers: auth })).json() as { balances: { symbol: string; amount: number }[] };
  const usdc = balances.balances.find((b) => b.symbol === 'USDC')!.amount;
  const res = await fetch(`${BASE}/api/trade/execute`, {
    method: 'POST', headers: auth,
    body: JSON.stringify({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: String(usdc * share), reason: 'tiny bot' }),
  });
  const body = await res.json() as { success: boolean; transaction: { toAmount: number } };
  return { ok: body.success, bought: body.transaction.toAmount };
}

describe('msw handlers (compsim/msw)', () => {
  let world: World;
  const server = setupServer();
  checkMswAnswers(server);
  before(() => server.listen({ onUnhandledRequest: 'bypass' }));
  after(() => server.close());
  beforeEach(async () => {
    world = await createWorld({ admin: { apiKey: ADMIN_KEY }, slippage: 'none' });
    server.resetHandlers(...handlers(world, { baseUrl: BASE }));
  });

  const admin = (path: string, body: unknown) => fetch(`${BASE}${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() as any }));

  it('runs a bot written with plain fetch against the world, with the same answers as the HTTP server', async () => {
    const user = await admin('/api/admin/users', { walletAddress: '0x00000000000000000000000000000000000000b1', agentName: 'Fetch Bot' });
    expect(user.status).to.equal(201);
    const start = await admin('/api/admin/competition/start', {
      name: 'msw cup', agentIds: [user.body.agent.id], paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }],
    });
    expect(start.status).to.equal(200);
    const r = await tinyBot(user.body.agent.apiKey, start.body.competition.id, 0.15);
    expect(r).to.deep.equal({ ok: true, bought: 1 });
    const rows = await world.deps.store.read((tx) => tx.all('trades'));
    expect(rows).to.have.length(1);
  });

  it('answers errors, queries, malformed JSON and unknown routes like the server', async () => {
    const health = await fetch(`${BASE}/api/health`);
    expect(health.status).to.equal(200);
    expect(await health.json()).to.include({ status: 'ok' });
    const noKey = await fetch(`${BASE}/api/price?token=${TOK.SOL}`);
    expect(noKey.status).to.equal(401);
    const price = await fetch(`${BASE}/api/price?token=${TOK.SOL}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(await price.json()).to.include({ success: true, price: 150, symbol: 'SOL' });
    const bad = await fetch(`${BASE}/api/admin/users`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: '{"walletAddress":' });
    expect(bad.status).to.equal(400);
    expect(await bad.json()).to.deep.equal({ success: false, error: 'Invalid JSON in request body' });
    const big = await fetch(`${BASE}/api/admin/users`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ x: 'y'.repeat(1_100_000) }) });
    expect(big.status).to.equal(413);
    const missing = await fetch(`${BASE}/api/nowhere`);
    expect(missing.status).to.equal(404);
    expect(await missing.json()).to.deep.equal({ success: false, error: 'Cannot GET /api/nowhere' });
  });

  it('reads bodies as the server does: strict JSON, no __proto__ keys, other types unread, 200 MB for a world load', async () => {
    const post = async (path: string, body: string, type = 'application/json') => {
      const r = await fetch(`${BASE}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': type }, body });
      return { status: r.status, body: await r.json() as unknown };
    };
    const invalid = { status: 400, body: { success: false, error: 'Invalid JSON in request body' } };
    for (const text of ['5', '"x"', 'null', '  ']) expect(await post('/api/admin/users', text), text).to.deep.equal(invalid);
    // Well-formed JSON with a __proto__ key (spelt out or escaped, at any depth) gets its own message.
    const protoKey = { status: 400, body: { success: false, error: 'Invalid request body: a "__proto__" key is not allowed (at any depth)' } };
    for (const text of ['{"walletAddress":"0x1","__proto__":{"admin":true}}', '{"a":{"\\u005f_proto__":1}}']) {
      expect(await post('/api/admin/users', text), text).to.deep.equal(protoKey);
    }
    // Not read as JSON: the body is empty, so the wallet is missing.
    expect(await post('/api/admin/users', '{"walletAddress":"0x1"}', 'text/plain'))
      .to.deep.equal({ status: 400, body: { success: false, error: 'Wallet address is required' } });
    expect(await post('/api/sim/load', JSON.stringify({ x: 'y'.repeat(1_100_000) })))
      .to.deep.equal({ status: 400, body: { success: false, error: "Invalid world document: format must be 'compsim-world', got null" } });
    expect(await post('/api/admin/users', JSON.stringify({ x: 'y'.repeat(1_100_000) })))
      .to.deep.equal({ status: 413, body: { success: false, error: 'Request body too large (limit 1 MB)' } });
    expect(await world.deps.store.read((tx) => tx.all('users'))).to.have.length(0);
    // Refused bodies are journaled like any answered request, as the server does.
    const journal = await (await fetch(`${BASE}/api/sim/requests`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json() as { requests: { path: string; status: number }[] };
    expect(journal.requests.filter((r) => r.path === '/api/admin/users').map((r) => r.status)).to.deep.equal([400, 400, 400, 400, 400, 400, 400, 413]);
  });

  it('intercepts only its base URL; with no base URL it serves every origin', async () => {
    // A real local server answering a marker: reached only when msw does not intercept.
    const real = createHttpServer((_req, res) => res.end(JSON.stringify({ marker: 'real' }))).listen(0, '127.0.0.1');
    await new Promise((r) => real.once('listening', r));
    const local = `http://127.0.0.1:${(real.address() as AddressInfo).port}/api/health`;
    try {
      expect(await (await fetch(local)).json()).to.deep.equal({ marker: 'real' });
      server.resetHandlers(...handlers(world));
      expect(await (await fetch(local)).json()).to.include({ status: 'ok' });
    } finally {
      real.close();
    }
  });

  it('answers /worlds/{id}/api/* in the worlds of a host, each isolated', async () => {
    const host = await WorldHost.open(world, { serverKey: '5e55e55e55e55e55_5e55e55e55e55e55' });
    server.resetHandlers(...handlers(world, { baseUrl: BASE, worlds: host }));
    const created = await admin('/api/sim/worlds', { seed: 3, startTime: '2026-01-01T00:00:00Z' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ id: 'w1', basePath: '/worlds/w1', url: '/worlds/w1' });
    const clock = await (await fetch(`${BASE}/worlds/w1/api/sim/clock`, { headers: { authorization: `Bearer ${created.body.adminKey}` } })).json();
    expect(clock).to.deep.equal({ success: true, now: '2026-01-01T00:00:00.000Z' });
    expect((await (await fetch(`${BASE}/api/sim/clock`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).json() as { now: string }).now).to.equal('2025-01-01T00:00:00.000Z');
    const missing = await fetch(`${BASE}/worlds/w9/api/health`);
    expect([missing.status, await missing.json()]).to.deep.equal([404, { success: false, error: 'World not found: w9' }]);
  });
});

describe('msw handlers: one per route', () => {
  let world: World;
  const unhandled: string[] = [];
  const server = setupServer();
  before(() => server.listen({ onUnhandledRequest: (request) => void unhandled.push(`${request.method} ${request.url}`) }));
  after(() => server.close());
  beforeEach(async () => {
    world = await createWorld({ admin: { apiKey: ADMIN_KEY } });
    unhandled.length = 0;
  });

  it('lists one handler per route, literal paths before parameterised ones, then the JSON 404 for other /api paths', () => {
    const headers = handlers(world, { baseUrl: BASE }).map((h) => h.info.header);
    expect(headers).to.include.members([`POST ${BASE}/api/trade/execute`, `GET ${BASE}/api/competitions/:competitionId`, `GET ${BASE}/api/competitions/leaderboard`]);
    expect(headers.indexOf(`GET ${BASE}/api/competitions/leaderboard`)).to.be.lessThan(headers.indexOf(`GET ${BASE}/api/competitions/:competitionId`));
    // The last one takes every method (msw shows it as a pattern).
    expect(headers.at(-1)).to.match(/ https:\/\/api\.example\/api\/\*$/);
    expect(headers.slice(0, -1)).to.have.length(ROUTES.length);
  });

  it('lets a test override one route with server.use while every other route still reaches the world', async () => {
    server.resetHandlers(...handlers(world, { baseUrl: BASE }));
    server.use(http.get(`${BASE}/api/health`, () => HttpResponse.json({ status: 'down' }, { status: 503 })));
    const health = await fetch(`${BASE}/api/health`);
    expect([health.status, await health.json()]).to.deep.equal([503, { status: 'down' }]);
    const clock = await fetch(`${BASE}/api/sim/clock`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(await clock.json()).to.deep.equal({ success: true, now: '2025-01-01T00:00:00.000Z' });
    server.resetHandlers(...handlers(world, { baseUrl: BASE }));
    expect((await fetch(`${BASE}/api/health`)).status).to.equal(200);
    expect(unhandled).to.deep.equal([]);
  });

  it('answers a mistyped /api path with the JSON 404, or with unknownRoutes: false leaves it to onUnhandledRequest', async () => {
    server.resetHandlers(...handlers(world, { baseUrl: BASE }));
    const typo = await fetch(`${BASE}/api/trade/exeucte`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect([typo.status, await typo.json()]).to.deep.equal([404, { success: false, error: 'Cannot POST /api/trade/exeucte' }]);
    expect(unhandled).to.deep.equal([]);
    // A real local server stands behind the bypassed request, so the test reaches no network.
    const real = createHttpServer((_req, res) => res.end('{}')).listen(0, '127.0.0.1');
    await new Promise((r) => real.once('listening', r));
    try {
      const local = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
      server.resetHandlers(...handlers(world, { baseUrl: local, unknownRoutes: false }));
      await fetch(`${local}/api/trade/exeucte`, { method: 'POST' });
      expect(unhandled).to.deep.equal([`POST ${local}/api/trade/exeucte`]);
      expect((await fetch(`${local}/api/health`)).status).to.equal(200);
    } finally {
      real.close();
    }
  });
});
