// The MCP server: the agent API's tools and resources on the SDK's Server, each call sent to an API (in process or remote) with the agent's or the admin key.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema,
  McpError, ReadResourceRequestSchema, type CallToolResult, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiVersion } from '../http/contract.js';
import { ROUTES } from '../http/resources/index.js';
import type { RouteDef } from '../http/route.js';
import { listedResources, RESOURCE_TEMPLATES, resourceCall, resourceContents } from './resources.js';
import type { ApiAnswer, Send } from './send.js';
import { buildTools, toRequest, ToolArgumentError, type ToolDef } from './tools.js';

/** What an MCP server needs: where its requests go and with which keys. */
export interface McpServerOptions {
  send: Send;
  /** The agent the tools act as. */
  agentKey: string;
  /** The admin (or control) key of the sim API; the `sim_*` tools are offered only with one. */
  adminKey?: string | null;
  /** The version the server reports to clients. */
  version: string;
  /** The API version the tools' arguments follow (which require `competitionId`); default `spec`. */
  apiVersion?: ApiVersion;
  /** The route table the tools come from (default: compsim's). */
  routes?: readonly RouteDef[];
  /**
   * The tools, already built (`buildTools` with this server's routes, API version and whether it
   * has the sim tools), for a caller creating many servers alike; default: built from the above.
   */
  tools?: readonly ToolDef[];
}

/** What the server tells a client's model about itself (MCP `instructions`). */
const INSTRUCTIONS = [
  'compsim: a simulated trading competition with the agent API of the hosted service, as tools.',
  'Start with get_profile (your agent id) and list_competitions (status active or pending); trading tools take a competitionId.',
  'Token arguments are addresses; amounts are in units of the token sold. A refused call returns the API\'s message (and details): correct the arguments and call again.',
].join(' ');
const SIM_INSTRUCTIONS = ' The sim_* tools control the simulated world: time stands still until sim_advance moves it; sim_snapshot and sim_restore rewind.';

/** The text of a refused answer: the API's message, then its `details` as JSON; any other answer by status and text. */
export function refusalText(answer: ApiAnswer): string {
  const env = answer.json as { error?: unknown; details?: unknown } | undefined;
  if (env && typeof env === 'object' && typeof env.error === 'string') {
    return env.details === undefined ? env.error : `${env.error}\ndetails: ${JSON.stringify(env.details)}`;
  }
  return `HTTP ${answer.status}${answer.text ? `: ${answer.text.slice(0, 2000)}` : ''}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A tool's result: the answer's JSON as text (and as structured content when it is an object); refusals are tool errors. */
function toolResult(answer: ApiAnswer): CallToolResult {
  const ok = answer.status >= 200 && answer.status < 300;
  const structured = isObject(answer.json) ? { structuredContent: answer.json } : {};
  if (ok) return { content: [{ type: 'text', text: answer.text }], ...structured };
  return { isError: true, content: [{ type: 'text', text: refusalText(answer) }], ...structured };
}

const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

/** The tool list entry of a tool (what `tools/list` answers). */
export function listedTool(t: ToolDef): Tool {
  return { name: t.name, title: t.annotations.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations };
}

/**
 * An MCP server whose tools call the agent API (see `TOOL_ROUTES`) and whose resources are the
 * rules and leaderboards of the active competitions. Connect it to a transport (stdio, in-memory).
 * No call can crash it: a refused request is a tool error with the API's message, and a request
 * that cannot be sent is a tool error saying why.
 */
export function createMcpServer(o: McpServerOptions): Server {
  const sim = typeof o.adminKey === 'string' && o.adminKey !== '';
  const tools = o.tools ?? buildTools(o.routes ?? ROUTES, sim, o.apiVersion ?? 'spec');
  const byName = new Map(tools.map((t) => [t.name, t]));
  const keyOf = (t: ToolDef) => (t.key === 'admin' ? o.adminKey! : o.agentKey);
  // The SDK's high-level McpServer takes tool schemas only as zod schemas; these tools' schemas are
  // the route table's JSON Schemas, which the low-level Server publishes as they are.
  const server = new Server({ name: 'compsim', version: o.version }, {
    capabilities: { tools: {}, resources: {} },
    instructions: INSTRUCTIONS + (sim ? SIM_INSTRUCTIONS : ''),
  });

  /** Calls `tool` with `args`; the answer, or a tool error's text when no request could be made or sent. */
  const call = async (tool: ToolDef, args: Record<string, unknown> | undefined): Promise<ApiAnswer | string> => {
    try {
      return await o.send(toRequest(tool, args), keyOf(tool));
    } catch (err) {
      return err instanceof ToolArgumentError ? err.message : `${tool.name}: ${(err as Error).message}`;
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(listedTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${req.params.name}' (tools: ${tools.map((t) => t.name).join(', ')})`);
    const answer = await call(tool, req.params.arguments);
    return typeof answer === 'string' ? toolError(answer) : toolResult(answer);
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    // The active competitions, on the largest page the route gives.
    const answer = await call(byName.get('list_competitions')!, { status: 'active', limit: 100 });
    if (typeof answer === 'string') throw new McpError(ErrorCode.InternalError, answer);
    if (answer.status !== 200) throw new McpError(ErrorCode.InternalError, `list_competitions: ${refusalText(answer)}`);
    const list = (answer.json as { competitions?: unknown }).competitions;
    const competitions = Array.isArray(list) ? list.filter((c): c is { id: string; name: string } => isObject(c) && typeof c.id === 'string' && typeof c.name === 'string') : [];
    return { resources: listedResources(competitions) };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const target = resourceCall(req.params.uri, byName);
    if (!target) throw new McpError(ErrorCode.InvalidParams, `Unknown resource '${req.params.uri}' (compsim://competitions/{competitionId}/rules or /leaderboard)`);
    const answer = await call(target.tool, target.args);
    if (typeof answer === 'string') throw new McpError(ErrorCode.InternalError, answer);
    if (answer.status !== 200) throw new McpError(ErrorCode.InvalidParams, refusalText(answer));
    return resourceContents(req.params.uri, answer.text);
  });
  return server;
}
