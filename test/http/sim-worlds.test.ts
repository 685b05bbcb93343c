// Many worlds on one server: /api/sim/worlds (create, list, delete, keys, limit, idle TTL), /worlds/{id} base paths on every route and page, and isolation.
import { expect } from 'chai';
import { checkedInProcessTarget } from '../helpers/answers.js';
import { ROUTES } from '../../src/http/resources/index.js';
import { runScenario } from '../../src/harness/runner.js';
import { loadScenario } from '../../src/harness/schema.js';
import { httpTarget } from '../../src/harness/targets.js';
import { expectError } from '../helpers/actors.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { SERVER_KEY, startHostServer, type HostServer } from '../helpers/worlds.js';

const KEY1 = '0000000000000001_0000000000000001';
const KEY2 = '0000000000000002_0000000000000002';

async function create(s: HostServer, body: Record<string, unknown> = {}, key = SERVER_KEY) {
  return s.call('POST', '/api/sim/worlds', { key, body });
}

describe('POST/GET/DELETE /api/sim/worlds', () => {
  let s: HostServer;
  beforeEach(async () => {
    s = await startHostServer({ maxWorlds: 2 });
  });
  afterEach(() => s.close());

  it('creates a world (201) with its id, admin key and base URL, lists it after the default one, and deletes it (200)', async () => {
    const res = await create(s, { seed: 7, startTime: '2025-06-02T12:00:00.000Z', idleTtlSeconds: 600 });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.deep.equal({
      success: true, id: 'w1', adminKey: KEY1, basePath: '/worlds/w1', url: `${s.url}/worlds/w1`, seed: 7,
      now: '2025-06-02T12:00:00.000Z', idleTtlSeconds: 600, status: 'ok', agents: [], competitions: [],
    });
    const list = await s.call('GET', '/api/sim/worlds', { key: ADMIN_KEY });
    expect(list.status).to.equal(200);
    expect(list.body.worlds.map((w: { id: string; basePath: string; url: string }) => [w.id, w.basePath, w.url])).to.deep.equal([
      ['default', '', s.url], ['w1', '/worlds/w1', `${s.url}/worlds/w1`],
    ]);
    // The new world's own admin key works there and nowhere else.
    expect((await s.call('GET', '/worlds/w1/api/sim/clock', { key: KEY1 })).body.now).to.equal('2025-06-02T12:00:00.000Z');
    expectError(await s.call('GET', '/api/sim/clock', { key: KEY1 }), 401, 'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
    expect((await s.call('DELETE', '/api/sim/worlds/w1', { key: SERVER_KEY })).body).to.deep.equal({ success: true });
    expectError(await s.call('GET', '/worlds/w1/api/health'), 404, 'World not found: w1');
    expect((await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds).to.have.length(1);
  });

  it('takes the world options, a fixture and the seed: the same seed gives the same ids as a world of its own', async () => {
    const fixture = { users: [{ walletAddress: '0xa11ce00000000000000000000000000000000001', name: 'Ann', agents: [{ name: 'Bot A', handle: 'bot_a' }] }] };
    const a = await create(s, { seed: 3, fixture, options: { slippage: 'none' } });
    expect(a.status, JSON.stringify(a.body)).to.equal(201);
    const agents = await s.call('GET', '/worlds/w1/api/admin/agents', { key: KEY1 });
    expect(agents.status).to.equal(200);
    expect(agents.body.agents.map((x: { name: string }) => x.name)).to.deep.equal(['Bot A']);
    const b = await create(s, { seed: 3, fixture });
    expect((await s.call('GET', '/worlds/w2/api/admin/agents', { key: KEY2 })).body.agents[0].id).to.equal(agents.body.agents[0].id);
    expect(b.body.adminKey).to.not.equal(a.body.adminKey);
  });

  it('builds a bundled world by name (201): the answer holds its agents with their keys and its competitions, as compsim serve --world demo prints them', async () => {
    const res = await create(s, { fixture: 'demo' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.deep.include({ id: 'w1', adminKey: KEY1, seed: 2025, now: '2025-06-02T12:00:00.000Z' });
    expect(res.body.agents.map((a: { name: string; handle: string; apiKey: string }) => [a.name, a.handle, a.apiKey])).to.deep.equal([
      ['Momentum Max', 'momentum_max', 'b98ebb472b7ef260_a2f263475061c28b'],
      ['Mean Reverter', 'mean_reverter', '7240512f6de8f7e2_18f07d0b875bfef5'],
      ['HODL Hannah', 'hodl_hannah', '0b78c73657a207ef_5d078692b7528eb5'],
    ]);
    expect(res.body.competitions).to.deep.equal([
      { id: '4421a217-5d98-4571-8eff-0af24dd26304', name: 'Demo Spring Cup', status: 'active' },
      { id: '623550bc-3017-4b16-9c68-c1cc04bdc5f1', name: 'Demo Summer Open', status: 'pending' },
    ]);
    // The keys answered are the world's own: the agent reads its balances there.
    const max = res.body.agents[0] as { id: string; apiKey: string };
    const balances = await s.call('GET', '/worlds/w1/api/agent/balances', { key: max.apiKey, query: { competitionId: '4421a217-5d98-4571-8eff-0af24dd26304' } });
    expect(balances.status, JSON.stringify(balances.body)).to.equal(200);
    expect(balances.body.agentId).to.equal(max.id);
    // The name works inside options too (the list POST /api/sim/reset takes).
    const viaOptions = await create(s, { options: { fixture: 'demo' } });
    expect(viaOptions.body.agents.map((a: { apiKey: string }) => a.apiKey)).to.deep.equal(res.body.agents.map((a: { apiKey: string }) => a.apiKey));
  });

  it('refuses a fixture name that is not a bundled world, and a fixture of another type (400), holding no world', async () => {
    expectError(await create(s, { fixture: 'nope' }), 400, "Invalid request: fixture (unknown bundled world 'nope'; bundled worlds: demo)");
    expectError(await create(s, { fixture: '../fixtures/worlds/demo' }), 400, "Invalid request: fixture (unknown bundled world '../fixtures/worlds/demo'; bundled worlds: demo)");
    expectError(await create(s, { options: { fixture: 'demo.json' } }), 400, "Invalid request: options.fixture (unknown bundled world 'demo.json'; bundled worlds: demo)");
    expectError(await create(s, { fixture: 42 }), 400, 'Invalid request: fixture (must be object,string)');
    expect(s.host.size).to.equal(0);
  });

  it('names the field alike for an unknown fixture name given to POST /api/sim/reset and to POST /api/sim/worlds (400)', async () => {
    const text = "Invalid request: options.fixture (unknown bundled world 'nope'; bundled worlds: demo)";
    expectError(await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: { options: { fixture: 'nope' } } }), 400, text);
    expectError(await create(s, { options: { fixture: 'nope' } }), 400, text);
    expect(s.host.size).to.equal(0);
  });

  it('refuses requests without a key or with a key that does not manage worlds (401); a world may delete itself only', async () => {
    expectError(await s.call('POST', '/api/sim/worlds', { body: {} }), 401, 'Admin authentication required. Use Authorization: Bearer YOUR_ADMIN_API_KEY');
    const invalid = 'Invalid key: worlds are managed with the server key or an admin key of the default world';
    expectError(await create(s, {}, '1111111111111111_1111111111111111'), 401, invalid);
    expectError(await s.call('GET', '/api/sim/worlds', { key: 'nope' }), 401, invalid);
    expect((await create(s, {}, ADMIN_KEY)).status).to.equal(201);
    expect((await create(s)).status).to.equal(201);
    expectError(await create(s, {}, KEY1), 401, invalid);
    expectError(await s.call('DELETE', '/api/sim/worlds/w2', { key: KEY1 }), 401, invalid);
    expect((await s.call('DELETE', '/api/sim/worlds/w2', { key: KEY2 })).status).to.equal(200);
    expect((await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds.map((w: { id: string }) => w.id)).to.deep.equal(['default', 'w1']);
  });

  it('lets a world delete itself through its own base path', async () => {
    await create(s);
    const res = await s.call('DELETE', '/worlds/w1/api/sim/worlds/w1', { key: KEY1 });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectError(await s.call('GET', '/worlds/w1/api/health'), 404, 'World not found: w1');
    await s.host.settled();
  });

  it('answers 429 at --max-worlds with the documented message, and creates again once one is deleted', async () => {
    expect((await create(s)).status).to.equal(201);
    expect((await create(s)).status).to.equal(201);
    expectError(await create(s), 429, 'World limit reached: this server holds at most 2 worlds besides the default one (compsim serve --max-worlds); delete one with DELETE /api/sim/worlds/{id}');
    expect(s.host.size).to.equal(2);
    await s.call('DELETE', '/api/sim/worlds/w1', { key: SERVER_KEY });
    const again = await create(s);
    expect(again.status).to.equal(201);
    expect(again.body.id).to.equal('w3');
  });

  it('refuses to delete the default world (400) or an unknown one (404), and bad creation input (400) without holding a world', async () => {
    expectError(await s.call('DELETE', '/api/sim/worlds/default', { key: SERVER_KEY }), 400, 'The default world cannot be deleted (reset it with POST /api/sim/reset)');
    expectError(await s.call('DELETE', '/api/sim/worlds/w9', { key: SERVER_KEY }), 404, 'World not found: w9');
    expectError(await create(s, { options: { colour: 'red' } }), 400, 'Invalid request: options.colour (must NOT have additional properties)');
    expectError(await create(s, { idleTtlSeconds: 0 }), 400, 'Invalid request: idleTtlSeconds (must be >= 1)');
    expectError(await create(s, { startTime: 'yesterday' }), 400,
      'Invalid request: startTime (must be an epoch-ms number or an ISO time from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z, got "yesterday")');
    expect(s.host.size).to.equal(0);
    // Nothing of a refused creation remains, not even a used id.
    expect((await create(s)).body.id).to.equal('w1');
  });

  it('drops a world once no request reached it for its idle TTL (wall time of the host; each request renews it)', async () => {
    await create(s, { idleTtlSeconds: 60 });
    await create(s);
    s.clock.ms += 59_000;
    expect((await s.call('GET', '/worlds/w1/api/health')).status).to.equal(200);
    s.clock.ms += 59_000;
    expect((await s.call('GET', '/worlds/w1/api/health')).status).to.equal(200);
    s.clock.ms += 60_000;
    expect(await s.host.sweep()).to.deep.equal(['w1']);
    expectError(await s.call('GET', '/worlds/w1/api/health'), 404, 'World not found: w1');
    s.clock.ms += 10 ** 9;
    expect((await s.call('GET', '/worlds/w2/api/health')).status).to.equal(200); // no TTL: kept
    expect((await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds.map((w: { id: string }) => w.id)).to.deep.equal(['default', 'w2']);
  });

  it('never expires a world while a request to it is under way, and counts idle time from the end of the last one', async () => {
    await create(s, { idleTtlSeconds: 60 });
    const world = s.host.acquire('w1'); // what a door does when a request for w1 arrives
    s.clock.ms += 600_000;
    expect(await s.host.sweep()).to.deep.equal([]);
    expect((await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds.map((w: { id: string }) => w.id)).to.deep.equal(['default', 'w1']);
    await world.deps.store.transact(() => undefined); // the long request's work
    s.host.release('w1');
    s.clock.ms += 59_000;
    expect(await s.host.sweep()).to.deep.equal([]);
    s.clock.ms += 1_000;
    expect(await s.host.sweep()).to.deep.equal(['w1']);
  });

  it('lets a world\'s creation key delete it after a load or a reset without admin replaced its admins', async () => {
    await create(s);
    await create(s);
    const other = await s.call('GET', '/worlds/w2/api/sim/dump', { key: KEY2 });
    expect((await s.call('POST', '/worlds/w1/api/sim/load', { key: KEY1, body: other.body })).status).to.equal(200);
    expectError(await s.call('GET', '/worlds/w1/api/admin/agents', { key: KEY1 }), 401, 'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
    expect((await s.call('DELETE', '/api/sim/worlds/w1', { key: KEY1 })).status).to.equal(200);
    expect((await s.call('POST', '/worlds/w2/api/sim/reset', { key: KEY2, body: { admin: false } })).status).to.equal(200);
    expect((await s.call('DELETE', '/api/sim/worlds/w2', { key: KEY2 })).status).to.equal(200);
    expect(s.host.size).to.equal(0);
  });

  it('builds a world\'s url from X-Forwarded-Host and -Proto only when they hold a host and http or https', async () => {
    const url = async (headers: Record<string, string>) => (await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: {}, headers })).body.url as string;
    const own = new URL(s.url).host;
    expect(await url({ 'x-forwarded-host': 'sim.example.org', 'x-forwarded-proto': 'https' })).to.equal('https://sim.example.org/worlds/w1');
    await s.call('DELETE', '/api/sim/worlds/w1', { key: SERVER_KEY });
    expect(await url({ 'x-forwarded-host': 'evil.example/"><script>', 'x-forwarded-proto': 'javascript' })).to.equal(`http://${own}/worlds/w2`);
    await s.call('DELETE', '/api/sim/worlds/w2', { key: SERVER_KEY });
    expect(await url({ 'x-forwarded-host': '[::1]:8443, proxy.internal', 'x-forwarded-proto': 'HTTPS,http' })).to.equal('https://[::1]:8443/worlds/w3');
  });

  it('drops an expired world at its next request even before a sweep', async () => {
    await create(s, { idleTtlSeconds: 5 });
    s.clock.ms += 5_000;
    expectError(await s.call('GET', '/worlds/w1/api/health'), 404, 'World not found: w1');
    expect(s.host.size).to.equal(0);
  });
});

describe('/worlds/{id} base paths', () => {
  let s: HostServer;
  before(async () => {
    s = await startHostServer({}, { seed: 99 });
    expect((await create(s, { seed: 1 })).status).to.equal(201);
  });
  after(() => s.close());

  /** A path of the route with every parameter filled (a uuid for ids, so validation passes where it can). */
  const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => (/id$/i.test(name) ? '3f1c9a4e-6b2d-4e8f-9a7c-1d2e3f4a5b6c' : 'x'));

  it('reach every route of the table in that world (its journal names each route; the default world sees none)', async () => {
    const routes = [...ROUTES].sort((a, b) => Number(b.id === 'sim.reset') - Number(a.id === 'sim.reset')); // a reset clears the journal: first
    for (const def of routes) {
      const res = await s.call(def.method, `/worlds/w1${fill(def.path)}`, { key: KEY1, ...(def.method === 'GET' ? {} : { body: {} }) });
      expect(res.status, `${def.id}: ${JSON.stringify(res.body)}`).to.not.equal(500);
      expect(res.body?.error ?? '', def.id).to.not.match(/^Cannot |^World not found/);
    }
    const journal = await s.call('GET', '/worlds/w1/api/sim/requests', { key: KEY1 });
    const seen = new Set(journal.body.requests.map((r: { routeId: string }) => r.routeId));
    const missing = ROUTES.filter((d) => d.id !== 'sim.requests' && !seen.has(d.id)).map((d) => d.id);
    expect(missing).to.deep.equal([]);
    expect(journal.body.requests.filter((r: { path: string }) => r.path.startsWith('/worlds/'))).to.deep.equal([]); // journaled without the base path
    const own = await s.call('GET', '/api/sim/requests', { key: ADMIN_KEY });
    expect(own.body.requests.map((r: { routeId: string | null }) => r.routeId)).to.deep.equal(['sim.worlds.create']); // the `before` hook's
  });

  it('serve the OpenAPI document with the world as its server, the dashboard and the docs page', async () => {
    const doc = await s.call('GET', '/worlds/w1/api/openapi.json');
    expect(doc.status).to.equal(200);
    expect(doc.body.servers).to.deep.equal([{ url: '/worlds/w1', description: 'world w1' }]);
    expect((await s.call('GET', '/api/openapi.json')).body.servers).to.deep.equal([{ url: '/' }]);
    for (const page of ['/worlds/w1', '/worlds/w1/', '/worlds/w1/api/docs']) {
      const res = await fetch(`${s.url}${page}`);
      expect(res.status, page).to.equal(200);
      expect(res.headers.get('content-type'), page).to.match(/^text\/html/);
    }
  });

  it('answer the default world under /worlds/default, and a JSON 404 for an unknown world', async () => {
    expect((await s.call('GET', '/worlds/default/api/sim/clock', { key: ADMIN_KEY })).status).to.equal(200);
    expectError(await s.call('GET', '/worlds/nope/api/health'), 404, 'World not found: nope');
    expectError(await s.call('GET', '/worlds/w1/api/nothing'), 404, 'Cannot GET /api/nothing');
  });
});

describe('world isolation', function () {
  this.timeout(120_000);

  it('keeps rate-limit windows apart even for the same key in two worlds of the same seed', async () => {
    const s = await startHostServer();
    try {
      const keys: string[] = [];
      for (const [id, admin] of [['w1', KEY1], ['w2', KEY2]] as const) {
        expect((await create(s, { seed: 8, options: { rateLimits: 'upstream' } })).body.id).to.equal(id);
        const u = await s.call('POST', `/worlds/${id}/api/admin/users`, { key: admin, body: { walletAddress: `0x${'c'.repeat(40)}`, agentName: 'Twin' } });
        keys.push(u.body.agent.apiKey);
      }
      expect(keys[0]).to.equal(keys[1]);
      const statuses = [];
      for (let i = 0; i < 31; i++) statuses.push((await s.call('GET', '/worlds/w1/api/agent/profile', { key: keys[0] })).status);
      expect(statuses.slice(0, 30).every((x) => x === 200)).to.equal(true);
      expect(statuses[30]).to.equal(429);
      expect((await s.call('GET', '/worlds/w2/api/agent/profile', { key: keys[1] })).status).to.equal(200);
    } finally {
      await s.close();
    }
  });

  it('gives two worlds with the same seed byte-identical logs while their requests interleave (and a third world busy with other things)', async () => {
    const s = await startHostServer();
    try {
      const before = (await s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
      const sc = loadScenario('scenarios/trading/execute-and-quote.scenario.json');
      const noise = loadScenario('scenarios/simulation/fault-injection.scenario.json');
      for (let i = 0; i < 3; i++) expect((await create(s)).status).to.equal(201);
      const target = (id: string, key: string) => httpTarget(`${s.url}/worlds/${id}`, { adminKey: key });
      const [a, b, c] = await Promise.all([
        runScenario(sc, target('w1', KEY1), { keepLog: true }),
        runScenario(sc, target('w2', KEY2), { keepLog: true }),
        runScenario(noise, target('w3', '0000000000000003_0000000000000003'), { keepLog: true }),
      ]);
      expect(a.ok && b.ok && c.ok, JSON.stringify([a.failure, b.failure, c.failure])).to.equal(true);
      expect(a.requests).to.be.greaterThan(5);
      expect(a.log).to.equal(b.log);
      const alone = await runScenario(sc, checkedInProcessTarget(), { keepLog: true });
      expect(a.log).to.equal(alone.log);
      // The journals agree too, and the default world never saw any of it.
      const journal = async (id: string, key: string) => (await s.call('GET', `/worlds/${id}/api/sim/requests`, { key })).body.requests;
      expect(await journal('w1', KEY1)).to.deep.equal(await journal('w2', KEY2));
      expect((await s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body).to.deep.equal(before);
    } finally {
      await s.close();
    }
  });
});
