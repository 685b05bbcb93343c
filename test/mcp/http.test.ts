// MCP over Streamable HTTP at /mcp on compsim serve --mcp: several agents on one world, each authenticated by its API key.
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseServeArgs } from '../../src/cli/args.js';
import { serve } from '../../src/cli/serve.js';
import { callTool } from '../helpers/mcp.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** `compsim serve` in this process on a free port with `extra` options; its banner's agent keys by handle. */
async function serveDemo(extra: string[]): Promise<{ url: string; keys: Record<string, string>; admin: string; banner: string; stop: () => Promise<void> }> {
  const out = new PassThrough();
  let banner = '';
  out.on('data', (d: Buffer) => (banner += d.toString()));
  const running = await serve(parseServeArgs(['--port', '0', '--world', 'demo', '--log-level', 'silent', ...extra]), out);
  const keys = Object.fromEntries([...banner.matchAll(/^agent .* \(@(\w+)\): (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const admin = /^admin key: (\S+)$/m.exec(banner)![1]!;
  return { ...running, keys, admin, banner };
}

/** A Client connected to `url`/mcp with `key` as its bearer key. */
async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'compsim-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

/** One raw POST to /mcp. */
async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

describe('compsim serve --mcp (Streamable HTTP at /mcp)', function () {
  this.timeout(60_000);

  it('lets several agents trade in one world, each as itself, with the agent tools only', async () => {
    const s = await serveDemo(['--mcp']);
    try {
      expect(s.banner).to.include(`MCP (Streamable HTTP): ${s.url}/mcp (an agent's API key as Authorization: Bearer <key>)`);
      const max = await connect(s.url, s.keys.momentum_max!);
      const hannah = await connect(s.url, s.keys.hodl_hannah!);
      try {
        expect((await callTool(max, 'get_profile')).json.agent.handle).to.equal('momentum_max');
        expect((await callTool(hannah, 'get_profile')).json.agent.handle).to.equal('hodl_hannah');
        expect((await max.listTools()).tools.map((t) => t.name).filter((n) => n.startsWith('sim_'))).to.deep.equal([]);
        const active = (await callTool(max, 'list_competitions', { status: 'active' })).json.competitions[0].id as string;
        const trade = await callTool(max, 'execute_trade', { fromToken: USDC, toToken: SOL, amount: 100, reason: 'http', competitionId: active });
        expect(trade.isError, trade.text).to.equal(false);
        // The other agent's session sees the same world: the competition counts the trade; her own trades stay hers.
        expect((await callTool(hannah, 'get_competition', { competitionId: active })).json.competition.stats.totalTrades).to.equal(1);
        expect((await callTool(hannah, 'get_trades', { competitionId: active })).json.trades).to.deep.equal([]);
        expect((await callTool(max, 'get_trades', { competitionId: active })).json.trades.map((t: { id: string }) => t.id)).to.deep.equal([trade.json.transaction.id]);
        const board = (await callTool(hannah, 'get_leaderboard', { competitionId: active })).json.agents as { handle: string }[];
        expect(board.map((a) => a.handle).sort()).to.deep.equal(['hodl_hannah', 'mean_reverter', 'momentum_max']);
        const refused = await callTool(hannah, 'execute_trade', { fromToken: USDC, toToken: SOL, amount: 1e9, reason: 'too much', competitionId: active });
        expect(refused).to.include({ isError: true, text: `Insufficient balance\ndetails: {"rule":"balance","token":"${USDC}","requested":1000000000,"available":5000}` });
      } finally {
        await max.close();
        await hannah.close();
      }
    } finally {
      await s.stop();
    }
  });

  it('lists the tools as the served API version reads them (2026-08: execute_trade requires competitionId)', async () => {
    const s = await serveDemo(['--mcp', '--api-version', '2026-08']);
    try {
      const max = await connect(s.url, s.keys.momentum_max!);
      try {
        const trade = (await max.listTools()).tools.find((t) => t.name === 'execute_trade')!;
        expect(trade.inputSchema.required).to.include('competitionId');
      } finally {
        await max.close();
      }
    } finally {
      await s.stop();
    }
  });

  it('refuses a request without a key, with a key that is not an agent\'s, and any method but POST', async () => {
    const s = await serveDemo(['--mcp']);
    try {
      const none = await post(s.url, {}, LIST);
      expect(none).to.deep.equal({ status: 401, json: { jsonrpc: '2.0', error: { code: -32000, message: 'Authentication required: send the agent\'s API key as Authorization: Bearer <key>' }, id: null } });
      const wrong = await post(s.url, { authorization: 'Bearer 0000000000000000_0000000000000000' }, LIST);
      expect(wrong.status).to.equal(401);
      expect(wrong.json.error.message).to.equal('Invalid API key. This key may have been reset or is no longer associated with an active account. Please ensure you\'re using your most recent API key.');
      const admin = await post(s.url, { authorization: `Bearer ${s.admin}` }, LIST);
      expect(admin.status).to.equal(401);
      const get = await fetch(`${s.url}/mcp`, { headers: { authorization: `Bearer ${s.keys.momentum_max!}`, accept: 'text/event-stream' } });
      expect(get.status).to.equal(405);
      expect(get.headers.get('allow')).to.equal('POST');
      // A malformed message gets the transport's own JSON-RPC error; the server goes on.
      const bad = await post(s.url, { authorization: `Bearer ${s.keys.momentum_max!}` }, { hello: 'world' });
      expect(bad.status).to.equal(400);
      expect((await post(s.url, { authorization: `Bearer ${s.keys.momentum_max!}` }, LIST)).json.result.tools).to.have.length(14);
    } finally {
      await s.stop();
    }
  });

  it('leaves /mcp to the API (the JSON 404) without --mcp', async () => {
    const s = await serveDemo([]);
    try {
      const res = await post(s.url, { authorization: `Bearer ${s.keys.momentum_max!}` }, LIST);
      expect(res).to.deep.equal({ status: 404, json: { success: false, error: 'Cannot POST /mcp' } });
      expect(s.banner).not.to.include('MCP');
    } finally {
      await s.stop();
    }
  });
});
