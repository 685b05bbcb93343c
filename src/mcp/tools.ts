// The MCP tools: each one a route of the route table, its request schemas merged into the tool's inputSchema, and the tool's arguments split back into a request.
import { partContract, type ApiVersion } from '../http/contract.js';
import { deeperThan, MAX_JSON_DEPTH } from '../http/dispatch.js';
import type { JSONSchema, RouteDef } from '../http/route.js';

/** Whose key a tool's request carries: the agent's, or the admin (control) key of the sim API. */
export type ToolKey = 'agent' | 'admin';

/** The tools, named for what an agent does, each with the id of the route it calls. */
export const TOOL_ROUTES = [
  { name: 'get_profile', route: 'agent.profile.get', key: 'agent' },
  { name: 'list_competitions', route: 'competitions.list', key: 'agent' },
  { name: 'get_competition', route: 'competitions.get', key: 'agent' },
  { name: 'join_competition', route: 'competitions.agents.join', key: 'agent' },
  { name: 'leave_competition', route: 'competitions.agents.leave', key: 'agent' },
  { name: 'get_balances', route: 'agent.balances', key: 'agent' },
  { name: 'get_price', route: 'price.get', key: 'agent' },
  { name: 'get_quote', route: 'trade.quote', key: 'agent' },
  { name: 'execute_trade', route: 'trade.execute', key: 'agent' },
  { name: 'get_trades', route: 'agent.trades', key: 'agent' },
  { name: 'get_leaderboard', route: 'competitions.agents', key: 'agent' },
  { name: 'get_rules', route: 'competitions.rules', key: 'agent' },
  { name: 'get_perps_positions', route: 'agent.perps.positions', key: 'agent' },
  { name: 'get_perps_account', route: 'agent.perps.account', key: 'agent' },
  { name: 'sim_now', route: 'sim.clock.get', key: 'admin' },
  { name: 'sim_advance', route: 'sim.clock.set', key: 'admin' },
  { name: 'sim_set_price', route: 'sim.prices.set', key: 'admin' },
  { name: 'sim_snapshot', route: 'sim.snapshots.create', key: 'admin' },
  { name: 'sim_restore', route: 'sim.snapshots.restore', key: 'admin' },
] as const satisfies readonly { name: string; route: string; key: ToolKey }[];

/** The request parts a tool argument may belong to, in the order a name is looked up. */
const PARTS = ['params', 'query', 'body'] as const;
type Part = (typeof PARTS)[number];

/** One tool: what `tools/list` shows, and the route it calls. */
export interface ToolDef {
  name: string;
  description: string;
  /** The route's request schemas (params, query and body) as one object schema. */
  inputSchema: { type: 'object'; properties: Record<string, JSONSchema>; required?: string[] };
  annotations: { title: string; readOnlyHint: boolean };
  route: RouteDef;
  key: ToolKey;
  /** Which request part each argument goes to. */
  parts: ReadonlyMap<string, Part>;
}

/** A request a tool call stands for: what a transport sends with the tool's key. */
export interface ApiRequest {
  method: RouteDef['method'];
  /** The route's path with its parameters filled in (URL-encoded). */
  path: string;
  query: Record<string, string>;
  /** The JSON body, or undefined for none. */
  body?: Record<string, unknown>;
}

/** A tool call's arguments that cannot form a request (the text is the tool error). */
export class ToolArgumentError extends Error {}

/** The object schema of one request part as `version` reads it (the OpenAPI document's contract), or undefined. */
function partSchema(def: RouteDef, part: Part, version: ApiVersion): { properties: Record<string, JSONSchema>; required: string[] } | undefined {
  const s = partContract(def, part, version);
  if (!s) return undefined;
  if (s.type !== 'object' || (s.properties !== undefined && (typeof s.properties !== 'object' || s.properties === null))) {
    throw new Error(`route ${def.id}: its ${part} schema is not an object schema, so it cannot be a tool's input`);
  }
  return { properties: (s.properties ?? {}) as Record<string, JSONSchema>, required: (s.required ?? []) as string[] };
}

/**
 * The tool of route `def`, named `name`, with the arguments `version` requires marked so (a
 * `competitionId` the version requires, or does not read). Throws when two request parts share an
 * argument name.
 */
export function toolOf(name: string, def: RouteDef, key: ToolKey, version: ApiVersion = 'spec'): ToolDef {
  const properties: Record<string, JSONSchema> = {};
  const required: string[] = [];
  const parts = new Map<string, Part>();
  for (const part of PARTS) {
    const s = partSchema(def, part, version);
    if (!s) continue;
    for (const [prop, schema] of Object.entries(s.properties)) {
      if (parts.has(prop)) throw new Error(`route ${def.id}: '${prop}' is in both its ${parts.get(prop)} and its ${part}, so one tool argument cannot stand for it`);
      parts.set(prop, part);
      properties[prop] = schema;
    }
    // Path parameters are always required: the path cannot be formed without them.
    required.push(...(part === 'params' ? Object.keys(s.properties) : s.required.filter((r) => Object.hasOwn(s.properties, r))));
  }
  return {
    name,
    description: `${def.summary}. Calls ${def.method} ${def.path}${key === 'admin' ? ' (simulation control)' : ''}.`,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    annotations: { title: def.summary, readOnlyHint: def.method === 'GET' },
    route: def,
    key,
    parts,
  };
}

/** Every tool of {@link TOOL_ROUTES} found in `routes` as `version` reads them, sim tools only when `sim` is true. */
export function buildTools(routes: readonly RouteDef[], sim: boolean, version: ApiVersion = 'spec'): ToolDef[] {
  const byId = new Map(routes.map((r) => [r.id, r]));
  return TOOL_ROUTES.filter((t) => sim || t.key !== 'admin').map((t) => {
    const def = byId.get(t.route);
    if (!def) throw new Error(`tool ${t.name}: route ${t.route} is not in the route table`);
    return toolOf(t.name, def, t.key, version);
  });
}

/** A query or path value as the URL carries it; objects and arrays have no such form. */
function scalar(tool: string, name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ToolArgumentError(`${tool}: argument '${name}' must be a string, a number or a boolean, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
}

/**
 * The request a call of `tool` with `args` stands for. Path parameters are filled into the path,
 * query arguments become strings (as a URL carries them, so every transport sees the same request),
 * body arguments form the JSON body. An argument the tool does not take, or a missing or empty path
 * parameter, is a {@link ToolArgumentError}: the route's own validation checks everything else.
 */
export function toRequest(tool: ToolDef, args: Record<string, unknown> | undefined): ApiRequest {
  const given = args ?? {};
  const unknown = Object.keys(given).filter((k) => !tool.parts.has(k));
  if (unknown.length > 0) {
    const takes = [...tool.parts.keys()];
    throw new ToolArgumentError(`${tool.name}: unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} (${takes.length > 0 ? `it takes ${takes.join(', ')}` : 'it takes no arguments'})`);
  }
  const query: Record<string, string> = {};
  let body: Record<string, unknown> | undefined;
  let path = tool.route.path;
  for (const [name, part] of tool.parts) {
    const value = given[name];
    if (part === 'params') {
      const text = value === undefined ? '' : scalar(tool.name, name, value);
      if (text === '') throw new ToolArgumentError(`${tool.name}: argument '${name}' is required`);
      path = path.replace(`{${name}}`, encodeURIComponent(text));
    } else if (value === undefined) {
      continue;
    } else if (part === 'query') {
      query[name] = scalar(tool.name, name, value);
    } else {
      // The request path refuses bodies deeper than its limit; one far deeper is refused here, before serialising it recurses that deep.
      if (deeperThan(value, 2 * MAX_JSON_DEPTH)) throw new ToolArgumentError(`${tool.name}: argument '${name}' is nested deeper than ${2 * MAX_JSON_DEPTH} levels`);
      (body ??= {})[name] = value;
    }
  }
  return { method: tool.route.method, path, query, ...(body ? { body } : {}) };
}
