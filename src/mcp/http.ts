// Streamable HTTP at /mcp (`compsim serve --mcp`): each POST is one stateless MCP exchange for the agent whose API key it carries, on the served world.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { HttpWorld } from '../http/route.js';
import type { ApiVersion } from '../http/contract.js';
import { ROUTES } from '../http/resources/index.js';
import { inProcessSend } from './send.js';
import { createMcpServer, refusalText } from './server.js';
import { buildTools, type ToolDef } from './tools.js';

/** The path the MCP endpoint answers on. */
export const MCP_PATH = '/mcp';

/** Node's request and response, as the SDK's transport takes them. */
type NodeRequest = Parameters<StreamableHTTPServerTransport['handleRequest']>[0];
type NodeResponse = Parameters<StreamableHTTPServerTransport['handleRequest']>[1];

/** Answers `res` with a JSON-RPC error without a request id, as the transport answers what it cannot take. */
function rpcError(res: NodeResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * The handler of `/mcp` on `world`. A POST's bearer key must be an agent's: it is checked with
 * `GET /api/agent/profile` through the request path, whose refusal (status and message) answers a
 * bad key. The exchange then runs on a fresh MCP server acting as that agent, without the sim
 * tools: one agent moving the clock of a world several agents share is the harness's job.
 * Stateless (no sessions, no GET stream) with JSON answers, so any number of agents connect to
 * one world. `onBug` receives what should never happen (the answer is then a 500).
 */
export function mcpHttpHandler(world: HttpWorld, version: string, onBug: (err: unknown) => void = () => undefined): (req: NodeRequest, res: NodeResponse) => Promise<void> {
  const send = inProcessSend(world);
  // The agent tools of each API version served (a reset may change the world's), built once.
  const toolsByVersion = new Map<ApiVersion, readonly ToolDef[]>();
  const toolsFor = (apiVersion: ApiVersion) => {
    let tools = toolsByVersion.get(apiVersion);
    if (tools === undefined) toolsByVersion.set(apiVersion, (tools = buildTools(ROUTES, false, apiVersion)));
    return tools;
  };
  return async (req, res) => {
    try {
      if (req.method !== 'POST') return rpcError(res, 405, 'Method not allowed: POST MCP messages to /mcp (no sessions, no GET stream)', { allow: 'POST' });
      const header = req.headers.authorization;
      const key = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
      if (key === '') return rpcError(res, 401, 'Authentication required: send the agent\'s API key as Authorization: Bearer <key>', { 'www-authenticate': 'Bearer' });
      const profile = await send({ method: 'GET', path: '/api/agent/profile', query: {} }, key);
      if (profile.status !== 200) return rpcError(res, profile.status, refusalText(profile));
      const apiVersion = world.deps.config.apiVersion;
      const server = createMcpServer({ send, agentKey: key, version, apiVersion, tools: toolsFor(apiVersion) });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (err) {
      onBug(err);
      if (!res.headersSent) rpcError(res, 500, 'Internal Server Error');
      else res.end();
    }
  };
}
