// The OpenAPI 3.1 document, built from the route table: operations, parameters, bodies, every documented response (with examples), tags and security schemes.
import { API_VERSIONS, DEFAULT_API_VERSION, routeAvailable, showRule, VERSION_RULES, type ApiVersion, type RuleName } from '../domain/versions.js';
import { partContract } from './contract.js';
import type { JSONSchema, RouteDef } from './route.js';
import { ROUTES } from './resources/index.js';
import { COMPONENTS, documentedResponses, STATUS_DESCRIPTIONS } from './responses.js';
import { AT_LEAST_ONE } from './resources/shared/request.js';

/** Options of {@link buildOpenApi}. */
export interface OpenApiOptions {
  /** `info.version` (compsim's package version). */
  version: string;
  /** Base URL of `servers[0]`; absent = `/`, the document's own origin (what Swagger UI "Try it out" wants). */
  serverUrl?: string;
  /** Include `/api/sim/*` (default true). */
  simApi?: boolean;
  /** The API version described: routes it lacks are left out (default `spec`). */
  apiVersion?: ApiVersion;
}

/** An OpenAPI 3.1 document (plain JSON). */
export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> };

/** Tag descriptions, in display order; a route's `tag` must be one of these. */
export const TAGS: readonly { name: string; description: string }[] = [
  { name: 'health', description: 'Service health (both generations)' },
  { name: 'price', description: 'Token prices' },
  { name: 'trade', description: 'Paper trading: execute and quote (an agent key gets the current engine, a team key the legacy one)' },
  { name: 'agent', description: "The calling agent's own profile, key, balances and trades" },
  { name: 'competitions', description: 'Competition reads, participants, leaderboards, timelines, trades, join and leave' },
  { name: 'agents', description: 'Public agent profiles and their competitions' },
  { name: 'arenas', description: 'Public arenas' },
  { name: 'leaderboard', description: 'The global leaderboard (OpenSkill ratings)' },
  { name: 'auth', description: 'Wallet verification' },
  { name: 'inference', description: 'The verified-inference badge (/api/inferai and upstream\'s /api/eigenai)' },
  { name: 'perps', description: 'Perpetual-futures positions and accounts' },
  { name: 'admin', description: 'Administration (admin key): setup, users, agents, competitions, arenas, rewards, perps and spot-live control' },
  { name: 'public', description: 'Legacy generation: public team registration' },
  { name: 'account', description: "Legacy generation: the team's own account" },
  { name: 'competition', description: 'Legacy generation: the singular competition endpoints for teams' },
  { name: 'sim', description: 'Simulation control (compsim only; admin key): reset, virtual clock, prices, snapshots, dump/load, faults, request journal' },
];

const GENERATION_TEXT: Record<RouteDef['generation'], string> = {
  current: 'Generation: current (agents).',
  legacy: 'Generation: legacy (teams).',
  shared: 'Generation: both (the caller\'s key picks the shapes).',
  sim: 'Simulation control: compsim only, not part of the hosted API.',
};

const AUTH_TEXT: Record<RouteDef['auth'], string> = {
  public: 'No authentication.',
  optional: 'Authentication optional: an agent key adds caller-specific fields.',
  key: 'Agent (or team) API key; an admin key is also accepted.',
  admin: 'Admin API key.',
};

const SERVER_KEY_TEXT = 'The server key printed at start, or an admin API key of the default world.';
const AGENT_ONLY_TEXT = 'Agent (or team) API key only: the route acts for the calling agent, so an admin key answers 401.';

function authText(def: RouteDef): string {
  if (def.keys === 'server') return SERVER_KEY_TEXT;
  return def.agentOnly ? AGENT_ONLY_TEXT : AUTH_TEXT[def.auth];
}

/** Example error messages per status (the real texts of common cases). */
function errorExample(def: RouteDef, status: number): { success: false; error: string } {
  const msg: Record<number, string> = {
    400: 'Invalid request: competitionId (invalid UUID)',
    401: def.auth === 'admin' ? 'Admin authentication required. Use Authorization: Bearer YOUR_ADMIN_API_KEY'
      : '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY',
    403: def.auth === 'admin' ? 'Admin access denied - account inactive' : 'No active competition',
    404: def.generation === 'sim' ? 'Simulation control is not available for this world' : 'Competition not found',
    409: 'An agent with handle \'momentum_max\' already exists',
    413: 'Request body too large (limit 1 MB)',
    429: 'Rate limit exceeded. Try again in 60 seconds.',
    500: 'Internal Server Error',
  };
  return { success: false, error: msg[status] ?? 'Bad request' };
}

const refName = (ref: string) => ref.replace('#/components/schemas/', '');

const SOL = 'So11111111111111111111111111111111111111112';
const COMPETITIONS = new Set(['Competition', 'ListedCompetition', 'CompetitionDetail', 'StartedCompetition', 'LegacyCompetition', 'AgentCompetition']);
/** Plausible strings by property name, for schemas without an example of their own. */
const NAMED: Record<string, string> = {
  id: '3f1c9a4e-6b2d-4e8f-9a7c-1d2e3f4a5b6c', agentId: '8b2e7c1d-4f3a-4d5e-9b6c-7a8d9e0f1a2b', competitionId: '3f1c9a4e-6b2d-4e8f-9a7c-1d2e3f4a5b6c',
  ownerId: 'c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f', teamId: '8b2e7c1d-4f3a-4d5e-9b6c-7a8d9e0f1a2b', name: 'Momentum Max', agentName: 'Momentum Max',
  teamName: 'Momentum Max', handle: 'momentum_max', agentHandle: 'momentum_max', email: 'alice@example.com', description: 'Buys what went up',
  imageUrl: 'https://example.com/agent.png', externalUrl: 'https://example.com', arenaId: 'default-paper-arena', token: SOL, fromToken: SOL,
  toToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', tokenAddress: SOL, symbol: 'SOL', fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL',
  tokenSymbol: 'usdc', reason: 'Momentum entry', message: 'Done', fromChain: 'svm', toChain: 'svm', fromSpecificChain: 'svm', toSpecificChain: 'svm',
  version: '0.1.0', username: 'admin', contactPerson: 'Alice', slippageFormula: 'baseSlippage = (tradeAmountUSD / 10000) * 0.05%',
};

/**
 * A value valid against `schema`: the schema's own `examples[0]` where given, else one built from
 * its type (first enum value, `const`, first `anyOf` branch, every declared property; strings by
 * property name where {@link NAMED} knows one; `within` is the component being built).
 */
export function exampleOf(schema: JSONSchema, depth = 0, key = '', within = ''): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (typeof schema.$ref === 'string') return exampleOf(COMPONENTS[refName(schema.$ref)] ?? {}, depth, key, refName(schema.$ref));
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  const branches = (schema.anyOf ?? schema.oneOf) as JSONSchema[] | undefined;
  if (branches) return exampleOf(branches.find((b) => b.type !== 'null') ?? branches[0]!, depth, key, within);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, s] of Object.entries((schema.properties ?? {}) as Record<string, JSONSchema>)) out[k] = exampleOf(s, depth + 1, k, within);
      return out;
    }
    case 'array': return depth > 8 ? [] : Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => exampleOf((schema.items ?? {}) as JSONSchema, depth + 1, key, within));
    case 'string':
      if (schema.format === 'date-time') return '2025-06-02T12:00:00.000Z';
      if (schema.format === 'uuid') return '3f1c9a4e-6b2d-4e8f-9a7c-1d2e3f4a5b6c';
      if (COMPETITIONS.has(within) && key === 'name') return 'Demo Spring Cup';
      if (COMPETITIONS.has(within) && key === 'description') return 'An active paper-trading competition';
      if (key === 'name' && within === 'Arena') return 'Default Paper Arena';
      if (schema.pattern === undefined && NAMED[key] !== undefined) return NAMED[key];
      return 'string';
    case 'integer': return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'number': return typeof schema.minimum === 'number' ? schema.minimum : 100.5;
    case 'boolean': return true;
    case 'null': return null;
    default: return null;
  }
}

/** Rows of the rules table a route's description states for the document's version: behaviour its schemas cannot show. */
const DESCRIBED_RULES: Readonly<Record<string, readonly RuleName[]>> = {
  'admin.users.create': ['adminUserEmailConflict'],
  'agents.competitions': ['agentCompetitionCounters'],
};

/**
 * The described rows of `def` as sentences: the document's version first, then the versions that
 * differ from it (a client generated from one document may talk to a server of another).
 */
function ruleSentences(def: RouteDef, version: ApiVersion): string {
  return (DESCRIBED_RULES[def.id] ?? []).map((name) => {
    const own = showRule(name, version);
    const others = API_VERSIONS.filter((v) => v !== version && showRule(name, v) !== own).map((v) => `\`${v}\`: ${showRule(name, v)}`);
    return ` API version \`${version}\`: ${VERSION_RULES[name].title}: ${own}${others.length > 0 ? ` (${others.join('; ')})` : ''}.`;
  }).join('');
}

/** Path and query parameters from the route's request schemas. */
function parameters(def: RouteDef, version: ApiVersion): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const where of ['params', 'query'] as const) {
    const s = partContract(def, where, version);
    if (!s) continue;
    const required = new Set((s.required ?? []) as string[]);
    for (const [name, schema] of Object.entries((s.properties ?? {}) as Record<string, JSONSchema>)) {
      const { description, ...rest } = schema;
      out.push({
        name, in: where === 'params' ? 'path' : 'query', required: where === 'params' || required.has(name), schema: rest,
        ...(typeof description === 'string' ? { description } : {}),
      });
    }
  }
  return out;
}

function security(def: RouteDef): Record<string, string[]>[] {
  if (def.keys === 'server') return [{ adminKey: [] }];
  switch (def.auth) {
    case 'public': return [];
    case 'optional': return [{}, { agentKey: [] }, { adminKey: [] }];
    case 'key': return def.agentOnly ? [{ agentKey: [] }] : [{ agentKey: [] }, { adminKey: [] }];
    default: return [{ adminKey: [] }];
  }
}

function responses(def: RouteDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [status, schema] of documentedResponses(def)) {
    const example = status >= 400 ? errorExample(def, status) : exampleOf(schema);
    out[String(status)] = {
      description: status === 413 && def.id === 'sim.load' ? 'Request body too large (200 MB)' : STATUS_DESCRIPTIONS[status] ?? 'Answer',
      ...(status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } } : {}),
      content: { 'application/json': { schema, example } },
    };
  }
  return out;
}

/** True when `{}` breaks the body's contract: it requires a field, at least one of a list, or one of its branches (each requiring one). */
export function bodyRequired(body: JSONSchema | undefined): boolean {
  if (!body) return false;
  const requires = (s: JSONSchema) => Array.isArray(s.required) && s.required.length > 0;
  const branches = body.oneOf as JSONSchema[] | undefined;
  return requires(body) || Array.isArray(body[AT_LEAST_ONE]) || (Array.isArray(branches) && branches.every(requires));
}

/**
 * What the query as a whole requires, which parameters cannot say one by one: its description (in
 * the operation's), and `x-at-least-one` (the query parameters of which one must be given).
 */
function queryRules(def: RouteDef, version: ApiVersion): { text: string; atLeastOne?: unknown } {
  const q = partContract(def, 'query', version);
  if (!q) return { text: '' };
  return { text: typeof q.description === 'string' ? ` Query: ${q.description}` : '', ...(Array.isArray(q[AT_LEAST_ONE]) ? { atLeastOne: q[AT_LEAST_ONE] } : {}) };
}

function operation(def: RouteDef, version: ApiVersion): Record<string, unknown> {
  const params = parameters(def, version);
  const body = partContract(def, 'body', version);
  const query = queryRules(def, version);
  return {
    operationId: def.id,
    summary: def.summary,
    description: `${GENERATION_TEXT[def.generation]} ${authText(def)} Route id \`${def.id}\`.${ruleSentences(def, version)}${query.text}`,
    tags: [def.tag],
    'x-compsim-generation': def.generation,
    ...(query.atLeastOne ? { [AT_LEAST_ONE]: query.atLeastOne } : {}),
    security: security(def),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body && def.method !== 'GET' ? { requestBody: { required: bodyRequired(body), content: { 'application/json': { schema: body } } } } : {}),
    responses: responses(def),
  };
}

/** Values that are data, not schemas: left as they are. */
const DATA_KEYS = new Set(['example', 'examples', 'enum', 'const', 'default']);

/**
 * `value` with every object schema that names no property (`{type: 'object'}`) made explicit as
 * free-form (`additionalProperties: true`): the same meaning in JSON Schema, but generators read
 * the bare form as "no keys" (openapi-typescript: `Record<string, never>`).
 */
function explicitFreeForm<T>(value: T): T {
  if (Array.isArray(value)) return (value as unknown[]).map((v) => explicitFreeForm(v)) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = DATA_KEYS.has(k) ? v : explicitFreeForm(v);
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (isObject && !('properties' in out) && !('additionalProperties' in out) && !('patternProperties' in out)) out.additionalProperties = true;
  return out as T;
}

/** Builds the OpenAPI 3.1 document of `routes` (default: every compsim route). Pure: the same input gives the same document. */
export function buildOpenApi(routes: readonly RouteDef[] = ROUTES, options: OpenApiOptions): OpenApiDocument {
  const apiVersion = options.apiVersion ?? DEFAULT_API_VERSION;
  const included = routes.filter((r) => (options.simApi !== false || r.generation !== 'sim') && routeAvailable(apiVersion, r.id));
  const paths: OpenApiDocument['paths'] = {};
  for (const def of included) (paths[def.path] ??= {})[def.method.toLowerCase()] = explicitFreeForm(operation(def, apiVersion));
  const usedTags = new Set(included.map((r) => r.tag));
  return {
    openapi: '3.1.0',
    info: {
      title: 'compsim: agent trading-competition API (offline reference server)',
      version: options.version,
      'x-api-version': apiVersion,
      description: [
        `API version \`${apiVersion}\` (docs/versions.md; team keys always get the team era).`,
        'An offline, deterministic stand-in for the agent trading-competition HTTP API: the current agent-based generation,',
        options.simApi === false ? 'and the legacy team-based one.' : 'the legacy team-based one, and compsim\'s own simulation control API (`/api/sim/*`).',
        'Every error answer is the envelope',
        '`{"success": false, "error": "<message>"}`. Times are ISO-8601 instants of the world\'s virtual clock.',
      ].join(' '),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // `/` (the default OpenAPI assumes when none is given, said explicitly): relative to the document's own origin.
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: TAGS.filter((t) => usedTags.has(t.name)),
    paths,
    components: {
      schemas: explicitFreeForm(COMPONENTS),
      securitySchemes: {
        agentKey: { type: 'http', scheme: 'bearer', description: 'An agent API key (or a legacy team key): `16 hex _ 16 hex`' },
        adminKey: { type: 'http', scheme: 'bearer', description: 'An admin API key (`compsim serve --admin-key`, or `POST /api/admin/setup`)' },
      },
    },
  };
}
