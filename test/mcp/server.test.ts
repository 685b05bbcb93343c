// The MCP server on the demo world through the SDK's Client (in-memory transport): its tools are the routes', every tool answers, refusals carry the API's message.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ROUTES } from '../../src/http/resources/index.js';
import type { JSONSchema } from '../../src/http/route.js';
import { partContract } from '../../src/http/contract.js';
import { TOOL_ROUTES } from '../../src/mcp/tools.js';
import type { WorldFixture } from '../../src/world/fixture.js';
import { createWorld, type World } from '../../src/world/world.js';
import { callTool, connectMcp, type McpSession } from '../helpers/mcp.js';

const DEMO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture;
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const AGENT_TOOLS = ['get_profile', 'list_competitions', 'get_competition', 'join_competition', 'leave_competition', 'get_balances',
  'get_price', 'get_quote', 'execute_trade', 'get_trades', 'get_leaderboard', 'get_rules', 'get_perps_positions', 'get_perps_account'];
const SIM_TOOLS = ['sim_now', 'sim_advance', 'sim_set_price', 'sim_snapshot', 'sim_restore'];

describe('MCP server (in-memory transport, demo world)', function () {
  this.timeout(60_000);
  let world: World;
  let s: McpSession;
  let active: string;
  let pending: string;
  let me: string;

  beforeEach(async () => {
    world = await createWorld({ fixture: DEMO, admin: { ...DEMO.admin } });
    s = await connectMcp(world);
    active = world.fixture.competitions.find((c) => c.status === 'active')!.id;
    pending = world.fixture.competitions.find((c) => c.status === 'pending')!.id;
    me = world.fixture.agents[0]!.id;
  });
  afterEach(() => s.close());

  it('lists the agent tools and the sim tools, in that order', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal([...AGENT_TOOLS, ...SIM_TOOLS]);
  });

  it('gives each tool its route\'s request contract (as the OpenAPI document of the version shows it) as inputSchema and its summary as description', async () => {
    const { tools } = await s.client.listTools();
    for (const t of tools) {
      const def = ROUTES.find((r) => r.id === TOOL_ROUTES.find((x) => x.name === t.name)!.route)!;
      const expected: Record<string, JSONSchema> = {};
      const required: string[] = [];
      for (const part of ['params', 'query', 'body'] as const) {
        // The contract the OpenAPI document shows for the world's version (the demo world speaks spec).
        const c = partContract(def, part, 'spec');
        if (!c) continue;
        Object.assign(expected, c.properties);
        required.push(...(part === 'params' ? Object.keys(c.properties as object) : (c.required as string[])));
      }
      expect(t.inputSchema.type, t.name).to.equal('object');
      expect(t.inputSchema.properties ?? {}, t.name).to.deep.equal(expected);
      expect([...(t.inputSchema.required ?? [])].sort(), t.name).to.deep.equal(required.sort());
      expect(JSON.stringify(t.inputSchema), t.name).not.to.include('x-handler-checked');
      expect(t.description, t.name).to.equal(`${def.summary}. Calls ${def.method} ${def.path}${t.name.startsWith('sim_') ? ' (simulation control)' : ''}.`);
      expect(t.annotations?.readOnlyHint, t.name).to.equal(def.method === 'GET');
    }
  });

  it('answers every agent tool on the demo world with the API\'s JSON', async () => {
    const ok = async (name: string, args: Record<string, unknown> = {}) => {
      const a = await callTool(s.client, name, args);
      expect(a.isError, `${name}: ${a.text}`).to.equal(false);
      return a.json;
    };
    expect((await ok('get_profile')).agent.id).to.equal(me);
    expect((await ok('list_competitions', { status: 'pending' })).competitions.map((c: { id: string }) => c.id)).to.deep.equal([pending]);
    expect((await ok('get_competition', { competitionId: active })).competition.name).to.equal('Demo Spring Cup');
    expect((await ok('get_balances', { competitionId: active })).balances).to.have.length(5);
    expect((await ok('get_price', { token: SOL, specificChain: 'svm' })).symbol).to.equal('SOL');
    // Query arguments may come as numbers: the URL carries them as text.
    expect((await ok('get_quote', { fromToken: USDC, toToken: SOL, amount: 100, competitionId: active })).fromAmount).to.equal(100);
    const trade = (await ok('execute_trade', { fromToken: USDC, toToken: SOL, amount: 100, reason: 'mcp test', competitionId: active })).transaction;
    expect((await ok('get_trades', { competitionId: active })).trades.map((t: { id: string }) => t.id)).to.deep.equal([trade.id]);
    const board = await ok('get_leaderboard', { competitionId: active });
    expect(board.agents.map((a: { id: string }) => a.id)).to.include(me).and.have.length(3);
    expect((await ok('get_rules', { competitionId: active })).rules).to.be.an('object');
    expect((await ok('leave_competition', { competitionId: pending, agentId: me })).message).to.equal('Successfully left competition');
    expect((await ok('join_competition', { competitionId: pending, agentId: me })).message).to.equal('Successfully joined competition');
  });

  it('answers the perps tools of a paper competition with the API\'s refusal', async () => {
    const positions = await callTool(s.client, 'get_perps_positions', { competitionId: active });
    expect(positions).to.include({ isError: true, text: 'This endpoint is only available for perpetual futures competitions. Use GET /api/agent/trades for paper trading positions.' });
    const account = await callTool(s.client, 'get_perps_account', { competitionId: active });
    expect(account).to.include({ isError: true, text: 'This endpoint is only available for perpetual futures competitions. Use GET /api/agent/balances for paper trading account.' });
  });

  it('moves, prices, snapshots and restores the world with the sim tools', async () => {
    expect((await callTool(s.client, 'sim_now')).json).to.deep.equal({ success: true, now: '2025-06-02T12:00:00.000Z' });
    const snap = (await callTool(s.client, 'sim_snapshot')).json;
    expect(snap).to.deep.equal({ success: true, id: 'snap-1' });
    expect((await callTool(s.client, 'sim_advance', { advanceMs: 3_600_000 })).json.now).to.equal('2025-06-02T13:00:00.000Z');
    await callTool(s.client, 'sim_set_price', { prices: [{ token: SOL, specificChain: 'svm', price: 200 }] });
    expect((await callTool(s.client, 'get_price', { token: SOL, specificChain: 'svm' })).json.price).to.equal(200);
    expect((await callTool(s.client, 'sim_restore', { id: 'snap-1' })).isError).to.equal(false);
    expect((await callTool(s.client, 'sim_now')).json.now).to.equal('2025-06-02T12:00:00.000Z');
    expect((await callTool(s.client, 'get_price', { token: SOL, specificChain: 'svm' })).json.price).to.equal(150);
  });

  it('returns a refused trade as a tool error: the API\'s exact message, then its details', async () => {
    const res = await s.client.callTool({ name: 'execute_trade', arguments: { fromToken: USDC, toToken: SOL, amount: 1e9, reason: 'too much', competitionId: active } });
    expect(res.isError).to.equal(true);
    expect(res.content).to.deep.equal([{ type: 'text', text: `Insufficient balance\ndetails: {"rule":"balance","token":"${USDC}","requested":1000000000,"available":5000}` }]);
    expect(res.structuredContent).to.deep.equal({ success: false, error: 'Insufficient balance', details: { rule: 'balance', token: USDC, requested: 1e9, available: 5000 } });
    const trades = await world.deps.store.read((tx) => tx.all('trades'));
    expect(trades).to.deep.equal([]);
  });

  it('returns a schema refusal with the API\'s message naming the field', async () => {
    const a = await callTool(s.client, 'get_competition', { competitionId: 'not-a-uuid' });
    expect(a).to.include({ isError: true, text: 'Invalid UUID' });
    const b = await callTool(s.client, 'sim_advance', { advanceMs: -5 });
    expect(b.isError).to.equal(true);
    expect(b.text).to.match(/advanceMs/);
  });

  it('refuses an argument the tool does not take, and a missing path parameter, naming them', async () => {
    expect(await callTool(s.client, 'get_rules', { competitionId: active, competition_id: active })).to.include({
      isError: true, text: 'get_rules: unknown argument \'competition_id\' (it takes competitionId)',
    });
    expect(await callTool(s.client, 'get_profile', { verbose: true })).to.include({ isError: true, text: 'get_profile: unknown argument \'verbose\' (it takes no arguments)' });
    expect(await callTool(s.client, 'get_rules', {})).to.include({ isError: true, text: 'get_rules: argument \'competitionId\' is required' });
    expect(await callTool(s.client, 'get_rules', { competitionId: '' })).to.include({ isError: true, text: 'get_rules: argument \'competitionId\' is required' });
    expect(await callTool(s.client, 'get_price', { token: [SOL] })).to.include({ isError: true, text: 'get_price: argument \'token\' must be a string, a number or a boolean, got an array' });
  });

  it('answers hostile arguments with a tool error, and keeps serving', async () => {
    const nest = (levels: number) => {
      let v: unknown = 1;
      for (let i = 0; i < levels; i++) v = [v];
      return v;
    };
    const trade = (amount: unknown) => callTool(s.client, 'execute_trade', { fromToken: USDC, toToken: SOL, amount, reason: 'deep', competitionId: active });
    expect(await trade(nest(200))).to.include({ isError: true, text: 'Invalid JSON in request body: nested deeper than 128 levels' });
    expect(await trade(nest(100_000))).to.include({ isError: true, text: 'execute_trade: argument \'amount\' is nested deeper than 256 levels' });
    const huge = await callTool(s.client, 'execute_trade', { fromToken: USDC, toToken: SOL, amount: 1, reason: 'x'.repeat(1_100_000), competitionId: active });
    expect(huge).to.include({ isError: true, text: 'Request body too large (limit 1 MB)' });
    expect((await callTool(s.client, 'sim_now')).isError).to.equal(false);
  });

  it('answers an unknown tool with a protocol error listing the tools', async () => {
    const err = await s.client.callTool({ name: 'buy_everything', arguments: {} }).then(() => null, (e: unknown) => e);
    expect(err).to.be.instanceOf(McpError);
    expect((err as McpError).code).to.equal(ErrorCode.InvalidParams);
    expect((err as McpError).message).to.include('Unknown tool \'buy_everything\' (tools: get_profile, list_competitions,');
  });

  it('offers no sim tools without an admin key', async () => {
    const plain = await connectMcp(world, { adminKey: null });
    try {
      expect((await plain.client.listTools()).tools.map((t) => t.name)).to.deep.equal(AGENT_TOOLS);
      const err = await plain.client.callTool({ name: 'sim_now', arguments: {} }).then(() => null, (e: unknown) => e);
      expect((err as McpError).code).to.equal(ErrorCode.InvalidParams);
    } finally {
      await plain.close();
    }
  });

  it('lists the rules and the leaderboard of the active competition as resources, and reads them', async () => {
    const { resources } = await s.client.listResources();
    expect(resources).to.deep.equal([
      { uri: `compsim://competitions/${active}/rules`, name: 'Demo Spring Cup: rules', title: 'Rules of Demo Spring Cup', mimeType: 'application/json' },
      { uri: `compsim://competitions/${active}/leaderboard`, name: 'Demo Spring Cup: leaderboard', title: 'Leaderboard of Demo Spring Cup', mimeType: 'application/json' },
    ]);
    const rules = await s.client.readResource({ uri: resources[0]!.uri });
    const fromTool = await callTool(s.client, 'get_rules', { competitionId: active });
    expect(rules.contents).to.deep.equal([{ uri: resources[0]!.uri, mimeType: 'application/json', text: fromTool.text }]);
    const board = await s.client.readResource({ uri: resources[1]!.uri });
    const parsed = JSON.parse((board.contents[0] as { text: string }).text) as { agents: { rank: number }[] };
    expect(parsed.agents.map((a) => a.rank)).to.deep.equal([1, 2, 3]);
    const { resourceTemplates } = await s.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).to.deep.equal(['compsim://competitions/{competitionId}/rules', 'compsim://competitions/{competitionId}/leaderboard']);
  });

  it('answers an unknown resource, or one the API refuses, with a protocol error', async () => {
    const unknown = await s.client.readResource({ uri: 'compsim://elsewhere' }).then(() => null, (e: unknown) => e);
    expect((unknown as McpError).code).to.equal(ErrorCode.InvalidParams);
    expect((unknown as McpError).message).to.include('Unknown resource \'compsim://elsewhere\'');
    const refused = await s.client.readResource({ uri: 'compsim://competitions/nope/rules' }).then(() => null, (e: unknown) => e);
    expect((refused as McpError).message).to.include('Invalid UUID');
  });
});
