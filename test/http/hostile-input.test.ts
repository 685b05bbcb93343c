// Hostile-input sweep: every registered route gets odd ids, bodies, queries and headers; nothing may answer 5xx.
import { expect } from 'chai';
import fc from 'fast-check';
import { ROUTES } from '../../src/http/resources/index.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { startArena, TOK } from '../helpers/trading.js';
import { budget } from '../property/budget.js';

const IDS = ['x', '00000000-0000-4000-8000-000000000000', '%E0%A4%A', '..', 'a'.repeat(300), '%00', "1' OR 1=1", 'default-paper-arena'];
const FIXED_BODIES: unknown[] = [null, [], 'text', 42, true, {}, { name: {} }, { competitionId: 5 }, { user: [], agent: 'x' },
  { paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'x'.repeat(30), amount: -1 }] }, { rewards: { '-1': 'a' } },
  { name: 'n', startDate: 'not-a-date', agentIds: ['nope'] }, { walletAddress: '0x' + 'f'.repeat(40), agentName: '' }];
const QUERIES: Record<string, string>[] = [{}, { limit: '0' }, { limit: '1e9', offset: '-1' }, { sort: '-', token: '' }, { agentId: 'bad', name: '%' }];

function fill(path: string, id: string): string {
  return path.replace(/\{\w+\}/g, id);
}

describe('hostile input sweep over every route', function () {
  this.timeout(60_000);
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());

  it('never answers 5xx, whatever the ids, bodies, queries or keys', async () => {
    const generated = fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: 20250101, numRuns: budget(12, 120, 3) });
    const failures: string[] = [];
    const probe = async (method: string, path: string, body: unknown) => {
      for (const key of [ADMIN_KEY, undefined]) {
        const res = await s.call(method, path, { ...(key ? { key } : {}), ...(body !== undefined ? { raw: JSON.stringify(body) } : {}) });
        if (res.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(body)} -> ${res.status}`);
        else if (res.status >= 400) expect(res.body.success, `${method} ${path}`).to.equal(false);
      }
    };
    // The fast lane probes every third route of the table (npm test probes them all).
    const stride = budget(1, 1, 3);
    for (const [i, route] of ROUTES.entries()) {
      if (i % stride !== 0) continue;
      const hasBody = route.method === 'POST' || route.method === 'PUT';
      // Every odd id with an empty body, then every odd body with a well-formed id.
      if (route.path.includes('{')) for (const id of IDS) await probe(route.method, fill(route.path, id), hasBody ? {} : undefined);
      if (hasBody) for (const body of [...FIXED_BODIES, ...generated]) await probe(route.method, fill(route.path, IDS[1]!), body);
      else await probe(route.method, fill(route.path, IDS[1]!), undefined);
      for (const query of QUERIES) {
        const res = await s.call(route.method, fill(route.path, IDS[1]!), { key: ADMIN_KEY, query });
        if (res.status >= 500) failures.push(`${route.method} ${route.path}?${new URLSearchParams(query)} -> ${res.status}`);
      }
    }
    expect(failures, failures.slice(0, 20).join('\n')).to.deep.equal([]);
  });

  it('survives odd headers and repeated query parameters', async () => {
    const res = await fetch(`${s.url}/api/price?token=a&token=b`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(res.status).to.equal(400);
    const bad = await s.call('GET', '/api/admin/agents', { headers: { authorization: 'Bearer \u00ff'.replace('\u00ff', 'x'.repeat(5000)) } });
    expect(bad.status).to.equal(401);
  });

  it('trade execute and quote with an agent key: never 5xx, and a rejected trade changes nothing', async () => {
    const a = await startArena({ tradingType: 'allow' }, 1, { slippage: 'upstream' });
    try {
      const tokens = fc.constantFrom<unknown>(TOK.SOL, TOK.SVM_USDC, TOK.WETH, TOK.BONK, TOK.EVM_BURN, '', '0x', 'x'.repeat(500), 42, null, {}, ['a']);
      const amounts = fc.constantFrom<unknown>('1', '0.0000001', '1e308', 'Infinity', '-0', 'NaN', '1e-320', 1e308, -1, 0, '10abc', '', true, {}, []);
      const chains = fc.constantFrom<unknown>(undefined, 'evm', 'svm', 'btc', 1, null);
      const bodies = fc.record({
        fromToken: tokens, toToken: tokens, amount: amounts, reason: fc.constantFrom<unknown>('r', '', 5, null, undefined),
        competitionId: fc.constantFrom<unknown>(undefined, a.competitionId, 'x', '', 7, '00000000-0000-4000-8000-000000000000'),
        fromChain: chains, toChain: chains, fromSpecificChain: fc.constantFrom<unknown>(undefined, 'eth', 'nope', 3),
      }, { requiredKeys: [] });
      const failures: string[] = [];
      for (const body of fc.sample(bodies, { seed: 77, numRuns: budget(300, 3000, 60) })) {
        const before = JSON.stringify(await a.s.world.dump());
        const res = await a.s.call('POST', '/api/trade/execute', { key: a.agents[0]!.apiKey, raw: JSON.stringify(body) });
        if (res.status >= 500) failures.push(`execute ${JSON.stringify(body)} -> ${res.status}`);
        if (res.status >= 400) {
          expect(res.body.success).to.equal(false);
          if (JSON.stringify(await a.s.world.dump()) !== before) failures.push(`rejected but changed state: ${JSON.stringify(body)}`);
        }
        const query = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
        const q = await a.s.call('GET', '/api/trade/quote', { key: a.agents[0]!.apiKey, query });
        if (q.status >= 500) failures.push(`quote ${JSON.stringify(query)} -> ${q.status}`);
      }
      expect(failures, failures.slice(0, 20).join('\n')).to.deep.equal([]);
    } finally {
      await a.s.close();
    }
  });
});
