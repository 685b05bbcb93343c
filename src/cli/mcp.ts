// `compsim mcp`: an MCP server over stdio whose tools trade as one agent, in an in-process world (--world) or on a running server (--url).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { API_VERSIONS, type ApiVersion } from '../domain/versions.js';
import { createMcpServer } from '../mcp/server.js';
import { inProcessSend, remoteSend, type Send } from '../mcp/send.js';
import { buildTools } from '../mcp/tools.js';
import { ROUTES } from '../http/resources/index.js';
import { createWorld, packageVersion } from '../world/world.js';
import { adminKeyValue, choice, defined, failure, opt, parseFlags, seedValue, str, urlValue, UsageError } from './args.js';
import { readFixture, resolveWorldFile } from './serve.js';

/** Usage text of `compsim mcp` (`--help`, and after a usage error). */
export const MCP_USAGE = `Usage: compsim mcp --world <file|name> [--agent <handle>] [--seed <n|text>] [--api-version <v>] [--admin-key <key>]
       compsim mcp --url <url> --api-key <key> [--admin-key <key>]

Runs an MCP server over stdio (for Claude Desktop, Cursor or any MCP client): the agent API as tools
(get_profile, execute_trade, get_leaderboard, ...) and, with the simulation control API, sim_* tools.
  --world <file|name>   an in-process world from a fixture: a JSON file, or a bundled one (demo)
  --agent <handle>      the fixture's agent the tools act as (default: its first agent)
  --seed <n|text>       seed of the world (default: the fixture's, else 1)
  --api-version <v>     spec | 2026-08 | 2025-10: the API version the world speaks (default spec)
  --url <url>           a running server instead: compsim (a world's base URL too) or the hosted service
  --api-key <key>       with --url: the agent's API key
  --admin-key <key>     with --world: the admin key to create (default: the fixture's admin, or a new one);
                        with --url: an admin (or control) key of the server's /api/sim/*, for the sim_* tools
  -h, --help            show this help
Nothing but the protocol is written to stdout; what the server does is said on stderr.`;

/** Parsed `mcp` options: one of the two modes. */
export type McpArgs =
  | { mode: 'world'; world: string; agent?: string; seed?: number | string; apiVersion?: ApiVersion; adminKey?: string }
  | { mode: 'url'; url: string; apiKey: string; adminKey?: string };

const OPTIONS = { world: str, agent: str, seed: str, 'api-version': str, 'admin-key': str, url: str, 'api-key': str } as const;

/** Parses the arguments after `mcp`. */
export function parseMcpArgs(argv: readonly string[]): McpArgs {
  const { values: v } = parseFlags(argv, OPTIONS);
  if ((v.world === undefined) === (v.url === undefined)) throw new UsageError('give either --world (an in-process world) or --url (a running server)');
  if (v.world !== undefined) {
    for (const o of ['url', 'api-key'] as const) if (v[o] !== undefined) throw new UsageError(`--${o} goes with --url, not --world (choose the agent with --agent)`);
    const key = opt(v['admin-key'], adminKeyValue);
    return defined({
      mode: 'world' as const, world: v.world, agent: v.agent?.replace(/^@/, ''), seed: opt(v.seed, seedValue), adminKey: key,
      apiVersion: opt(v['api-version'], (a) => choice('--api-version', a, API_VERSIONS)),
    });
  }
  for (const o of ['agent', 'seed', 'api-version'] as const) if (v[o] !== undefined) throw new UsageError(`--${o} goes with --world, not --url`);
  if (!v['api-key']) throw new UsageError('--url needs --api-key (the agent\'s API key)');
  return defined({ mode: 'url' as const, url: urlValue('--url', v.url!), apiKey: v['api-key'], adminKey: v['admin-key'] });
}

/** Where the tools' requests go, with which keys, and a line saying so. */
interface Backend { send: Send; agentKey: string; adminKey: string | null; apiVersion: ApiVersion; about: string }

/** An in-process world from the fixture, acting as one of its agents. */
async function worldBackend(a: Extract<McpArgs, { mode: 'world' }>): Promise<Backend> {
  const fixture = readFixture(resolveWorldFile(a.world));
  // The sim_* tools need an admin: the fixture's, else one made here (with --admin-key's key, if given).
  const world = await createWorld({
    ...(a.seed !== undefined ? { seed: a.seed } : {}), ...(a.apiVersion ? { apiVersion: a.apiVersion } : {}),
    fixture, admin: { ...fixture.admin, ...(a.adminKey ? { apiKey: a.adminKey } : {}) },
  });
  const agents = world.fixture.agents;
  if (agents.length === 0) throw new UsageError(`world '${a.world}' has no agents to act as (its fixture lists none)`);
  const agent = a.agent === undefined ? agents[0]! : agents.find((x) => x.handle === a.agent);
  if (!agent) throw new UsageError(`world '${a.world}' has no agent '@${a.agent}' (its agents: ${agents.map((x) => `@${x.handle}`).join(', ')})`);
  const { seed, apiVersion } = world.deps.config;
  return {
    send: inProcessSend(world), agentKey: agent.apiKey, adminKey: world.adminKey, apiVersion,
    about: `world ${a.world} (seed ${String(seed)}, API version ${apiVersion}) as ${agent.name} (@${agent.handle})`,
  };
}

/** A running server; the sim_* tools only when the admin key is given and its /api/sim/clock answers to it. */
async function urlBackend(a: Extract<McpArgs, { mode: 'url' }>, stderr: NodeJS.WritableStream): Promise<Backend> {
  const send = remoteSend(a.url);
  let adminKey: string | null = null;
  if (a.adminKey) {
    const probe = await send({ method: 'GET', path: '/api/sim/clock', query: {} }, a.adminKey).catch((err: Error) => err);
    if (probe instanceof Error) stderr.write(`compsim mcp: no sim_* tools: ${probe.message}\n`);
    else if (probe.status !== 200) stderr.write(`compsim mcp: no sim_* tools: GET /api/sim/clock answered ${probe.status} to the admin key\n`);
    else adminKey = a.adminKey;
  }
  const apiVersion = await remoteApiVersion(send, a.apiKey);
  return { send, agentKey: a.apiKey, adminKey, apiVersion, about: `${a.url} (API version ${apiVersion})` };
}

/**
 * The API version a server speaks, for the tools' required arguments: what compsim reports in
 * `GET /api/health/detailed`; a server that reports none is taken for the hosted service, whose
 * newest behaviour `2026-08` describes.
 */
export async function remoteApiVersion(send: Send, key: string): Promise<ApiVersion> {
  const answer = await send({ method: 'GET', path: '/api/health/detailed', query: {} }, key).catch(() => null);
  const reported = (answer?.json as { apiVersion?: unknown } | undefined)?.apiVersion;
  return API_VERSIONS.find((v) => v === reported) ?? '2026-08';
}

/** The streams of a run: the protocol on stdin/stdout, messages on stderr. */
export interface McpIo { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }

/** Sends through `send`, remembering the requests under way (so the last answers go out before the process ends). */
function tracked(send: Send): { send: Send; settled: () => Promise<void> } {
  const pending = new Set<Promise<unknown>>();
  return {
    send: (req, key) => {
      const p = send(req, key);
      pending.add(p);
      void p.finally(() => pending.delete(p)).catch(() => undefined);
      return p;
    },
    settled: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
      // The answer of the last request is written once its handler has run on.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** Runs `compsim mcp` until stdin ends (or a signal); returns the exit code. */
export async function mcpMain(argv: string[], io: McpIo = process): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    io.stdout.write(`${MCP_USAGE}\n`);
    return 0;
  }
  let backend: Backend;
  try {
    const args = parseMcpArgs(argv);
    backend = args.mode === 'world' ? await worldBackend(args) : await urlBackend(args, io.stderr);
  } catch (err) {
    return failure('compsim mcp', MCP_USAGE, err, io.stderr);
  }
  const { send, settled } = tracked(backend.send);
  const server = createMcpServer({ send, agentKey: backend.agentKey, adminKey: backend.adminKey, version: packageVersion(), apiVersion: backend.apiVersion });
  const transport = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
  let stop = () => {};
  // The client closing stdin ends the run, as does a signal or the transport closing (a message over its size bound).
  const closed = new Promise<void>((resolve) => (stop = resolve));
  server.onclose = stop;
  io.stdin.once('end', stop);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  server.onerror = (err) => io.stderr.write(`compsim mcp: ${err.message}\n`);
  try {
    await server.connect(transport);
    io.stderr.write(`compsim mcp: ${backend.about}; ${buildTools(ROUTES, backend.adminKey !== null, backend.apiVersion).length} tools over stdio\n`);
    await closed;
    await settled();
    await server.close();
  } finally {
    io.stdin.off('end', stop);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return 0;
}
