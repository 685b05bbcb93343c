// `compsim mcp` as a program: spawned over stdio on the demo world and against a served one, its argument errors, and its end when stdin closes.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpMain, parseMcpArgs } from '../../src/cli/mcp.js';
import { runToEnd } from '../harness/child.js';
import { ROOT } from '../helpers/paths.js';
import { callTool } from '../helpers/mcp.js';
import { ADMIN_KEY, startTestServer } from '../helpers/server.js';

const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** A Client connected to a spawned `compsim mcp ...args`, and the child's stderr so far. */
async function spawnMcp(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', MAIN, 'mcp', ...args], cwd: ROOT, stderr: 'pipe' });
  let err = '';
  transport.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'compsim-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

describe('compsim mcp', function () {
  this.timeout(120_000);

  it('serves the demo world over stdio: initialise, trade, advance, read the leaderboard', async () => {
    const { client, stderr } = await spawnMcp(['--world', 'demo']);
    try {
      expect(client.getServerVersion()).to.deep.include({ name: 'compsim' });
      expect(client.getInstructions()).to.match(/^compsim: a simulated trading competition/);
      const me = (await callTool(client, 'get_profile')).json.agent as { id: string; handle: string };
      expect(me.handle).to.equal('momentum_max');
      const active = (await callTool(client, 'list_competitions', { status: 'active' })).json.competitions[0].id as string;
      const trade = await callTool(client, 'execute_trade', { fromToken: USDC, toToken: SOL, amount: 1000, reason: 'stdio test', competitionId: active });
      expect(trade.isError, trade.text).to.equal(false);
      expect(trade.json.transaction.fromAmount).to.equal(1000);
      expect((await callTool(client, 'sim_advance', { advanceMs: 86_400_000 })).json.now).to.equal('2025-06-03T12:00:00.000Z');
      const board = (await callTool(client, 'get_leaderboard', { competitionId: active })).json.agents as { id: string; rank: number }[];
      expect(board.map((a) => a.rank)).to.deep.equal([1, 2, 3]);
      expect(board.map((a) => a.id)).to.include(me.id);
      const resource = await client.readResource({ uri: `compsim://competitions/${active}/leaderboard` });
      expect(JSON.parse((resource.contents[0] as { text: string }).text).agents).to.have.length(3);
      expect(stderr()).to.include('compsim mcp: world demo (seed 2025, API version spec) as Momentum Max (@momentum_max); 19 tools over stdio');
    } finally {
      await client.close();
    }
  });

  it('acts as the agent --agent names', async () => {
    const { client } = await spawnMcp(['--world', 'demo', '--agent', '@hodl_hannah', '--api-version', '2026-08']);
    try {
      expect((await callTool(client, 'get_profile')).json.agent.handle).to.equal('hodl_hannah');
    } finally {
      await client.close();
    }
  });

  it('trades on a running server with --url, with the sim tools when the admin key opens /api/sim/*', async () => {
    const s = await startTestServer({ fixture: { users: [{ walletAddress: '0xa11ce00000000000000000000000000000000001', agents: [{ name: 'Solo', handle: 'solo' }] }] }, admin: { apiKey: ADMIN_KEY } });
    try {
      const key = s.world.fixture.agents[0]!.apiKey;
      const withSim = await spawnMcp(['--url', s.url, '--api-key', key, '--admin-key', ADMIN_KEY]);
      try {
        expect((await withSim.client.listTools()).tools.map((t) => t.name)).to.include('sim_advance').and.have.length(19);
        expect((await callTool(withSim.client, 'get_profile')).json.agent.handle).to.equal('solo');
        expect(withSim.stderr()).to.include(`compsim mcp: ${s.url} (API version spec); 19 tools over stdio`);
      } finally {
        await withSim.client.close();
      }
      const wrongKey = await spawnMcp(['--url', s.url, '--api-key', key, '--admin-key', 'ffffffffffffffff_ffffffffffffffff']);
      try {
        const names = (await wrongKey.client.listTools()).tools.map((t) => t.name);
        expect(names).to.have.length(14);
        expect(names.filter((n) => n.startsWith('sim_'))).to.deep.equal([]);
        expect(wrongKey.stderr()).to.include('compsim mcp: no sim_* tools: GET /api/sim/clock answered 401 to the admin key');
      } finally {
        await wrongKey.client.close();
      }
    } finally {
      await s.close();
    }
  });

  it('ends with exit code 0 when stdin closes, having written nothing but the protocol to stdout', async () => {
    const r = await runToEnd(['mcp', '--world', 'demo']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.include('19 tools over stdio');
  });

  it('survives lines that are not JSON-RPC, answers the next request, and ends with exit 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'mcp', '--world', 'demo'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_price', arguments: { token: 'So11111111111111111111111111111111111111112', specificChain: 'svm' } } };
    child.stdin.end(['not json at all', '{"jsonrpc":"2.0","id":', '[1,2,3]', JSON.stringify(initialize), JSON.stringify(call), ''].join('\n'));
    expect(await exited, err).to.equal(0);
    const answers = out.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: { serverInfo?: { name: string }; content?: { text: string }[] } });
    expect(answers.map((a) => a.id)).to.deep.equal([1, 2]);
    expect(answers[0]!.result.serverInfo!.name).to.equal('compsim');
    expect(JSON.parse(answers[1]!.result.content![0]!.text)).to.deep.include({ success: true, price: 150, symbol: 'SOL' });
    expect(err).to.include('compsim mcp: ');
  });

  it('refuses a world without the agent --agent names, listing the agents (exit 2)', async () => {
    const err = new PassThrough();
    let text = '';
    err.on('data', (d: Buffer) => (text += d.toString()));
    const code = await mcpMain(['--world', 'demo', '--agent', 'nobody'], { stdin: new PassThrough(), stdout: new PassThrough(), stderr: err });
    expect(code).to.equal(2);
    expect(text.split('\n')[0]).to.equal('compsim mcp: world \'demo\' has no agent \'@nobody\' (its agents: @momentum_max, @mean_reverter, @hodl_hannah)');
  });

  it('parses the two modes and refuses mixed or missing options with a usage error', () => {
    expect(parseMcpArgs(['--world', 'demo', '--seed', '7', '--agent', '@x'])).to.deep.equal({ mode: 'world', world: 'demo', seed: 7, agent: 'x' });
    expect(parseMcpArgs(['--url', 'http://127.0.0.1:3000/', '--api-key', 'k'])).to.deep.equal({ mode: 'url', url: 'http://127.0.0.1:3000', apiKey: 'k' });
    const refusals: [string[], string][] = [
      [[], 'give either --world (an in-process world) or --url (a running server)'],
      [['--world', 'demo', '--url', 'http://x'], 'give either --world (an in-process world) or --url (a running server)'],
      [['--world', 'demo', '--api-key', 'k'], '--api-key goes with --url, not --world (choose the agent with --agent)'],
      [['--url', 'http://x', '--api-key', 'k', '--seed', '1'], '--seed goes with --world, not --url'],
      [['--url', 'http://x'], '--url needs --api-key (the agent\'s API key)'],
      [['--url', 'ftp://x', '--api-key', 'k'], '--url must be an http(s) URL, got \'ftp://x\''],
      [['--world', 'demo', '--admin-key', 'nope'], '--admin-key must be 16 lower-case hex, "_", 16 lower-case hex'],
      [['--world', 'demo', '--api-version', '1999'], '--api-version must be spec, 2026-08 or 2025-10, got \'1999\''],
      [['--world', 'demo', '--port', '1'], 'unknown option \'--port\''],
    ];
    for (const [argv, message] of refusals) expect(() => parseMcpArgs(argv), argv.join(' ')).to.throw(message);
  });

  it('exits 2 with the usage text on a usage error', async () => {
    const r = await runToEnd(['mcp', '--world']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^compsim mcp: --world needs a value\n\nUsage: compsim mcp --world/);
    expect(r.stdout).to.equal('');
  });
});
