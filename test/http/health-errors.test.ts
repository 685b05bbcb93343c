// Health endpoints and the transport-level error envelope (malformed JSON, 413, unknown routes, CORS).
import { expect } from 'chai';
import { findRoute, routeTable } from '../../src/http/dispatch.js';
import { ROUTES } from '../../src/http/resources/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/actors.js';

describe('GET /api/health', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ startTime: '2025-05-01T00:00:00Z' }); });
  after(() => s.close());

  it('answers status, virtual timestamp, uptime and version without a success field (200)', async () => {
    await s.world.advance(90_000);
    const res = await s.call('GET', '/api/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok', timestamp: '2025-05-01T00:01:30.000Z', uptime: 90, version: s.world.config.version });
  });

  it('adds the current and legacy service keys, all ok, on /detailed (200)', async () => {
    const res = await s.call('GET', '/api/health/detailed');
    expect(res.status).to.equal(200);
    expect(res.body).to.not.have.property('success');
    expect(Object.keys(res.body.services)).to.have.members([
      'priceTrackerService', 'balanceService', 'tradeSimulatorService', 'competitionService', 'userService', 'agentService',
      'priceTracker', 'balanceManager', 'tradeSimulator', 'competitionManager', 'teamManager', 'userManager', 'agentManager',
    ]);
    expect(Object.values(res.body.services).every((v) => v === 'ok')).to.equal(true);
  });
});

describe('error envelope', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(() => s.close());

  it('rejects malformed JSON (400)', async () => {
    expectError(await s.call('POST', '/api/admin/setup', { raw: '{"username": ' }), 400, 'Invalid JSON in request body');
  });

  it('rejects a body over 1 MB (413)', async () => {
    expectError(await s.call('POST', '/api/admin/setup', { body: { pad: 'x'.repeat(1_100_000) } }), 413, 'Request body too large (limit 1 MB)');
  });

  it('answers an unknown route with a JSON 404', async () => {
    expectError(await s.call('GET', '/api/xyz'), 404, 'Cannot GET /api/xyz');
    expectError(await s.call('DELETE', '/api/health'), 404, 'Cannot DELETE /api/health');
  });

  it('routes a path with one trailing slash, case-sensitively, a literal segment before a parameter', async () => {
    expect((await s.call('GET', '/api/health/')).status).to.equal(200);
    expectError(await s.call('GET', '/api/health//'), 404, 'Cannot GET /api/health//');
    expectError(await s.call('GET', '/API/health'), 404, 'Cannot GET /API/health');
    // `/api/competitions/leaderboard` (agent key) wins over `/api/competitions/{competitionId}` (no key needed).
    expectError(await s.call('GET', '/api/competitions/leaderboard'), 401,
      '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
  });

  it('finds routes without the server as the router does, remembering its answers but never sharing params', () => {
    const table = routeTable(ROUTES);
    const first = findRoute(table, 'GET', '/api/competitions/c%201/agents');
    expect([first?.def.id, first?.params]).to.deep.equal(['competitions.agents', { competitionId: 'c 1' }]);
    first!.params.competitionId = 'changed by a caller';
    expect(findRoute(table, 'GET', '/api/competitions/c%201/agents')?.params).to.deep.equal({ competitionId: 'c 1' });
    expect(findRoute(table, 'GET', '/api/competitions/leaderboard')?.def.id).to.equal('competitions.leaderboard');
    expect(findRoute(table, 'GET', '/api/nowhere')).to.equal(null);
    expect(findRoute(table, 'GET', '/api/nowhere')).to.equal(null);
  });

  it('answers HEAD of a GET route as the GET, without its body (200)', async () => {
    const res = await s.call('HEAD', '/api/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.equal(undefined);
    expect(Number(res.headers.get('content-length'))).to.be.greaterThan(0);
  });

  it('asks for a key before answering 404 under the agent-key prefixes (401)', async () => {
    expectError(await s.call('GET', '/api/agent/nowhere'), 401,
      '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
  });

  it('names the failing field on schema errors (400)', async () => {
    expectError(await s.call('POST', '/api/admin/setup', { body: { username: 'x', password: 'short', email: 'nope' } }), 400,
      'Invalid request: password (must NOT have fewer than 8 characters); email (must match format "email")');
  });

  it('sends CORS headers for browser bots', async () => {
    const res = await s.call('OPTIONS', '/api/health', { headers: { origin: 'http://example.com', 'access-control-request-method': 'GET' } });
    expect(res.status).to.equal(204);
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
  });
});
