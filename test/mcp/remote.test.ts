// The MCP server against a running server (fetch): the same answers as in process, and an unreachable, slow, huge or non-JSON server as tool errors.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { remoteApiVersion } from '../../src/cli/mcp.js';
import { inProcessSend, remoteSend, type Send } from '../../src/mcp/send.js';
import type { ApiRequest } from '../../src/mcp/tools.js';
import type { WorldFixture } from '../../src/world/fixture.js';
import { callTool, connectMcp } from '../helpers/mcp.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

const DEMO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture;
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** A fetch that records the URLs it is asked for and answers with `answer`. */
function fakeFetch(answer: () => Promise<Response>, urls: string[] = []): typeof fetch {
  return (async (url: string | URL | Request) => {
    urls.push(String(url));
    return answer();
  }) as typeof fetch;
}

describe('MCP server against a running server (--url)', function () {
  this.timeout(60_000);
  let s: TestServer;

  beforeEach(async () => {
    s = await startTestServer({ fixture: DEMO, admin: { ...DEMO.admin, apiKey: ADMIN_KEY } });
  });
  afterEach(() => s.close());

  it('sends the same requests as the in-process path and gets the same answers', async () => {
    const key = s.world.fixture.agents[0]!.apiKey;
    const active = s.world.fixture.competitions[0]!.id;
    const requests: ApiRequest[] = [
      { method: 'GET', path: '/api/agent/profile', query: {} },
      { method: 'GET', path: '/api/price', query: { token: SOL, specificChain: 'svm' } },
      { method: 'GET', path: `/api/competitions/${active}/agents`, query: { limit: '2' } },
      { method: 'POST', path: '/api/trade/execute', query: {}, body: { fromToken: USDC, toToken: SOL, amount: 1e9, reason: 'too much', competitionId: active } },
      { method: 'GET', path: '/api/nowhere', query: {} },
    ];
    const local = inProcessSend(s.world);
    const remote = remoteSend(s.url);
    for (const r of requests) expect(await remote(r, key), `${r.method} ${r.path}`).to.deep.equal(await local(r, key));
  });

  it('trades, refuses and moves time through MCP tools over HTTP', async () => {
    const session = await connectMcp(s.world, { send: remoteSend(s.url), adminKey: ADMIN_KEY });
    try {
      const active = s.world.fixture.competitions[0]!.id;
      const refused = await callTool(session.client, 'execute_trade', { fromToken: USDC, toToken: SOL, amount: 1e9, reason: 'too much', competitionId: active });
      expect(refused).to.include({ isError: true, text: `Insufficient balance\ndetails: {"rule":"balance","token":"${USDC}","requested":1000000000,"available":5000}` });
      const trade = await callTool(session.client, 'execute_trade', { fromToken: USDC, toToken: SOL, amount: 10, reason: 'small', competitionId: active });
      expect(trade.isError, trade.text).to.equal(false);
      expect((await callTool(session.client, 'sim_advance', { advanceMs: 60_000 })).json.now).to.equal('2025-06-02T12:01:00.000Z');
    } finally {
      await session.close();
    }
  });

  it('joins the base URL (a world\'s path included) with the path and the encoded query', async () => {
    const urls: string[] = [];
    const send = remoteSend('http://127.0.0.1:9/worlds/w1/', { fetch: fakeFetch(async () => Response.json({ success: true }), urls) });
    const answer = await send({ method: 'GET', path: '/api/price', query: { token: 'a&b', chain: 'svm' } }, 'k');
    expect(answer).to.deep.equal({ status: 200, text: '{"success":true}', json: { success: true } });
    expect(urls).to.deep.equal(['http://127.0.0.1:9/worlds/w1/api/price?token=a%26b&chain=svm']);
  });

  it('reports an unreachable server as a tool error naming the request', async () => {
    await s.close();
    const session = await connectMcp(s.world, { send: remoteSend(s.url) });
    try {
      const a = await callTool(session.client, 'get_profile');
      expect(a.isError).to.equal(true);
      expect(a.text).to.match(new RegExp(`^get_profile: GET ${s.url}/api/agent/profile failed: fetch failed \\(.*ECONNREFUSED.*\\)$`));
    } finally {
      await session.close();
      s = await startTestServer();
    }
  });

  it('bounds a remote answer: too large or too slow is a tool error, never a hang or a crash', async () => {
    const big: Send = remoteSend('http://127.0.0.1:9', { maxBytes: 100, fetch: fakeFetch(async () => new Response('x'.repeat(101))) });
    const slow: Send = remoteSend('http://127.0.0.1:9', { timeoutMs: 5, fetch: fakeFetch(async () => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError'))) });
    for (const [send, reason] of [[big, 'the answer is larger than 100 bytes'], [slow, 'no answer within 5 ms']] as const) {
      const session = await connectMcp(s.world, { send });
      try {
        expect(await callTool(session.client, 'get_profile')).to.include({ isError: true, text: `get_profile: GET http://127.0.0.1:9/api/agent/profile failed: ${reason}` });
      } finally {
        await session.close();
      }
    }
  });

  it('reports an answer that is not the API\'s envelope by its status and text', async () => {
    const send = remoteSend('http://127.0.0.1:9', { fetch: fakeFetch(async () => new Response('<html>Bad Gateway</html>', { status: 502 })) });
    const session = await connectMcp(s.world, { send });
    try {
      expect(await callTool(session.client, 'get_profile')).to.include({ isError: true, text: 'HTTP 502: <html>Bad Gateway</html>' });
    } finally {
      await session.close();
    }
  });

  it('takes the tools\' API version from the server: what compsim reports, else the hosted service\'s newest (2026-08)', async () => {
    const key = s.world.fixture.agents[0]!.apiKey;
    expect(await remoteApiVersion(remoteSend(s.url), key)).to.equal('spec');
    const v2025 = await startTestServer({ fixture: DEMO, admin: { ...DEMO.admin, apiKey: ADMIN_KEY }, apiVersion: '2025-10' });
    try {
      expect(await remoteApiVersion(remoteSend(v2025.url), key)).to.equal('2025-10');
    } finally {
      await v2025.close();
    }
    const notCompsim: Send = async () => ({ status: 200, text: '{"status":"ok"}', json: { status: 'ok' } });
    expect(await remoteApiVersion(notCompsim, key)).to.equal('2026-08');
    const unreachable: Send = () => Promise.reject(new Error('connect ECONNREFUSED'));
    expect(await remoteApiVersion(unreachable, key)).to.equal('2026-08');
  });
});
