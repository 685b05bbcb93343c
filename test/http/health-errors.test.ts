// Health endpoints and the transport-level error envelope (malformed JSON, 413, unknown routes, CORS).
import { expect } from 'chai';
import { createDoor } from '../../src/http/adapters/door.js';
import { createWorld } from '../../src/world/world.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/actors.js';
import { checkServed } from '../helpers/answers.js';

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

  it('routes a request without a socket as the server does: decoded params, literal segments first, unknown paths to no route', async () => {
    const door = createDoor();
    const world = await createWorld({});
    const get = async (path: string) => checkServed('GET', path, await door.serve(world, { method: 'GET', path, headers: {} }));
    // `%31` is `1`: the router decodes the parameter before validation reads it as a uuid.
    const param = await get('/api/competitions/00000000-0000-4000-8000-00000000000%31/agents');
    expect([param.routeId, param.status, JSON.parse(param.text)]).to.deep.equal(['competitions.agents', 404, { success: false, error: 'Competition not found' }]);
    expect((await get('/api/competitions/leaderboard')).routeId).to.equal('competitions.leaderboard');
    const nowhere = await get('/api/nowhere');
    expect([nowhere.routeId, nowhere.status, nowhere.text]).to.deep.equal([null, 404, '{"success":false,"error":"Cannot GET /api/nowhere"}']);
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
