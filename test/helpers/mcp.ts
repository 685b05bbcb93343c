// Test helper: the MCP server of a world connected to the SDK's Client over an in-memory transport, and reading a tool call's answer.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/server.js';
import { inProcessSend, type Send } from '../../src/mcp/send.js';
import type { World } from '../../src/world/world.js';

/** A connected client and a way to end the session. */
export interface McpSession { client: Client; close(): Promise<void> }

/** Connects a Client to `createMcpServer` (requests sent with `send`, default the world's request path in process). */
export async function connectMcp(world: World, options: Partial<McpServerOptions> & { send?: Send } = {}): Promise<McpSession> {
  const server = createMcpServer({
    send: options.send ?? inProcessSend(world), agentKey: world.fixture.agents[0]!.apiKey, adminKey: world.adminKey, version: 'test', ...options,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'compsim-test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, close: () => client.close() };
}

/** A tool call's answer as a test reads it. */
export interface ToolAnswer { isError: boolean; text: string; json: any }

/** Calls tool `name` and returns whether it was an error, its text and that text's JSON (when it is JSON). */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const res = await client.callTool({ name, arguments: args });
  const content = res.content as { type: string; text: string }[];
  const text = content.length === 1 && content[0]!.type === 'text' ? content[0]!.text : JSON.stringify(content);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: res.isError === true, text, json };
}
