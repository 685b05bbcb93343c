// The OpenAPI document as a contract, over every operation: requests generated from its own schemas (valid ones and mutated ones), classified by the document alone, get the answer it promises: refused (4xx) when it declares them invalid, never a validation error when it declares them valid.
import { expect } from 'chai';
import fc from 'fast-check';
import type { Ajv, ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDoor } from '../../src/http/adapters/door.js';
import { createAjv } from '../../src/http/ajv.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { ROUTES } from '../../src/http/resources/index.js';
import type { WorldFixture } from '../../src/world/fixture.js';
import { createWorld, type World } from '../../src/world/world.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { budget, SEEDS } from './budget.js';
import { checkServed } from '../helpers/answers.js';

type Schema = Record<string, any>;
type Op = { operationId: string; 'x-at-least-one'?: string[]; security?: Record<string, string[]>[]; parameters?: { name: string; in: 'path' | 'query'; required: boolean; schema: Schema }[]; requestBody?: { required: boolean; content: { 'application/json': { schema: Schema } } } };

const DEMO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture;
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const DOC = buildOpenApi(ROUTES, { version: 'test' });
const DOOR = createDoor({ routes: ROUTES });

/**
 * Every operation of the document, but those that replace or end the world under test (reset,
 * load, world creation and removal): the property runs them all against one world.
 */
const WORLD_SWAPPING = new Set(['sim.reset', 'sim.load', 'sim.worlds.create', 'sim.worlds.delete', 'sim.snapshots.restore']);

/**
 * Answers that mean "the request broke the contract" (request validation, and the checks handlers
 * make for upstream's messages); any other 400 is a rule of the domain (balance, prices, state).
 */
const VALIDATION_ERROR = [
  /^Invalid request/, /^Invalid UUID$/, /^Invalid (pagination parameters|filter page params|query parameters|competition ID|Agent ID)/,
  /^Missing required parameter/, /^Token address is required$/, /^Amount must be a positive number$/, /^invalid input syntax for type uuid/,
  /^cannot sort by field/, /^No valid fields provided for update$/,
];

/**
 * Rules the document states in words (a schema cannot compare two fields or know the world's
 * data): a token symbol must be in the token catalogue, joinStartDate not after joinEndDate.
 */
const DATA_RULE = [
  /\(unknown token symbol '.*' on chain '.*'\)$/, /^Invalid request: joinStartDate \(joinStartDate must be before or equal to joinEndDate\)$/,
  // The virtual clock only moves forward; a tape or balance needs a token the world can price.
  /^Invalid request: set \(time only moves forward: /, /^Invalid request: tapes\b/, /^Invalid request: balances\.\d+\.token \(no price for /,
];

const ALL_OPS = Object.entries(DOC.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op: op as unknown as Op })));
const OPS = ALL_OPS.filter((o) => !WORLD_SWAPPING.has(o.op.operationId));

/** Values worth generating for some fields besides arbitrary ones, so valid requests also get past the domain's rules. */
function hints(world: World): Record<string, unknown[]> {
  const competitions = world.fixture.competitions.map((c) => c.id);
  const agents = world.fixture.agents.map((a) => a.id);
  return {
    fromToken: [USDC, SOL], toToken: [SOL, USDC], token: [SOL, USDC], competitionId: competitions, agentId: agents, votedAgentId: agents,
    agentIds: [agents], amount: [1, '5', 10], tokenSymbol: ['usdc', 'sol', 'eth'],
  };
}

/** An arbitrary of values valid against `schema` (the keywords the document's request schemas use). */
function valid(schema: Schema, key: string, hint: Record<string, unknown[]>): fc.Arbitrary<unknown> {
  const own = hint[key];
  const base = validBase(schema, hint);
  return own ? fc.oneof(fc.constantFrom(...own), base) : base;
}

function validBase(schema: Schema, hint: Record<string, unknown[]>): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => validBase({ ...schema, anyOf: undefined, oneOf: undefined, ...b }, hint)));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => validBase({ ...schema, type: t }, hint)));
  switch (types[0]) {
    case 'string': {
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time') {
        return fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
      }
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.format === 'uri') return fc.webUrl();
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200));
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 12, 40) });
    }
    case 'integer': return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number': return fc.double({
      min: schema.minimum ?? schema.exclusiveMinimum ?? -1e6, max: schema.maximum ?? 1e6, minExcluded: schema.exclusiveMinimum !== undefined, noNaN: true, noDefaultInfinity: true,
    });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array':
      if (Array.isArray(schema.prefixItems)) return fc.tuple(...(schema.prefixItems as Schema[]).map((s) => valid(s, '', hint)));
      return fc.array(valid(schema.items ?? {}, '', hint), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, 2) });
    case 'object': {
      if (schema.properties) {
        const props = schema.properties as Record<string, Schema>;
        // `not: {required: [k]}` (one form of a oneOf) leaves k out; `x-at-least-one` requires one of its list.
        const banned = new Set<string>((schema.not?.required ?? []) as string[]);
        const entries = Object.entries(props).filter(([k]) => !banned.has(k));
        const atLeastOne = schema['x-at-least-one'] as string[] | undefined;
        const rec = fc.record(Object.fromEntries(entries.map(([k, s]) => [k, valid(s, k, hint)])), { requiredKeys: schema.required ?? [] });
        if (!atLeastOne) return rec;
        return fc.tuple(rec, fc.constantFrom(...atLeastOne.filter((k) => props[k]))).chain(([r, k]) => (k in (r as object)
          ? fc.constant(r) : valid(props[k]!, k, hint).map((v) => ({ ...(r as object), [k]: v }))));
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return fc.dictionary(fc.stringMatching(/^[1-9][0-9]{0,2}$/), validBase(schema.additionalProperties, hint), { maxKeys: 3 });
      }
      return fc.constant({});
    }
    default: return fc.jsonValue({ maxDepth: 1 });
  }
}

/** Values of any JSON kind, most of them wrong for a given field. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 8 }), fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null),
  fc.constant(''), fc.constant([]), fc.constant({}), fc.constantFrom('not-a-uuid', '-1', '0', '1.5', 'yes', '2025-13-45', 'x'.repeat(120)),
);
/** Text of a query or path parameter, most of it wrong for a given parameter. */
const anyText: fc.Arbitrary<string> = fc.oneof(fc.stringMatching(/^[a-z0-9.-]{1,12}$/), fc.constantFrom('not-a-uuid', '-1', '0', '1.5', '1e3', 'true', 'x'.repeat(120), '2025-13-45'));
/** A query parameter may also be sent empty. */
const anyQueryText: fc.Arbitrary<string> = fc.oneof(anyText, fc.constant(''));

/** One request: the parts as generated, each part either valid or with one field changed, removed or replaced. */
interface Generated { path: Record<string, string>; query: Record<string, string>; body: unknown }

function requestArb(op: Op, hint: Record<string, unknown[]>): fc.Arbitrary<Generated> {
  const params = op.parameters ?? [];
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const paramPart = (where: 'path' | 'query') => {
    const ps = params.filter((p) => p.in === where);
    const rec = fc.record(Object.fromEntries(ps.map((p) => [p.name, valid(p.schema, p.name, hint).map(text)])), { requiredKeys: ps.filter((p) => p.required).map((p) => p.name) });
    if (ps.length === 0) return fc.constant({} as Record<string, string>);
    // The operation's `x-at-least-one`: one of those query parameters is given (a mutation may still drop it).
    const atLeastOne = where === 'query' ? op['x-at-least-one'] : undefined;
    const withOne = !atLeastOne ? rec : fc.tuple(rec, fc.constantFrom(...atLeastOne)).chain(([r, name]) => (name in (r as object)
      ? fc.constant(r) : valid(ps.find((p) => p.name === name)!.schema, name, hint).map((v) => ({ ...(r as object), [name]: text(v) }))));
    // A mutation: one parameter set to arbitrary text, or dropped (a query parameter: a path without one is another route).
    const replacement = where === 'path' ? anyText : fc.option(anyQueryText, { freq: 3, nil: undefined });
    return fc.tuple(withOne, fc.option(fc.tuple(fc.constantFrom(...ps.map((p) => p.name)), replacement), { freq: 2, nil: null }))
      .map(([r, m]) => {
        const out: Record<string, string> = { ...(r as Record<string, string>) };
        if (m) {
          if (m[1] === undefined) delete out[m[0]];
          else out[m[0]] = m[1];
        }
        return out;
      });
  };
  const bodySchema = op.requestBody?.content['application/json'].schema;
  const body = bodySchema
    ? fc.tuple(valid(bodySchema, '', hint), fc.option(fc.tuple(fc.constantFrom(...Object.keys(bodySchema.properties ?? { body: 0 })), fc.option(anyValue, { freq: 3, nil: undefined })), { freq: 2, nil: null }))
      .map(([b, m]) => {
        if (!m || !b || typeof b !== 'object') return b;
        const out = { ...(b as Record<string, unknown>) };
        if (m[1] === undefined) delete out[m[0]];
        else out[m[0]] = m[1];
        return out;
      })
    : fc.constant(undefined);
  return fc.record({ path: paramPart('path'), query: paramPart('query'), body });
}

/** The document's verdict on a request: its errors, or [] when it is valid (parameters read as OpenAPI does: text converted to the schema's type). */
function verdict(op: Op, req: Generated, ajv: { params: Ajv; body: Ajv }, cache: Map<string, ValidateFunction>): string[] {
  const compiled = (a: Ajv, name: string, schema: Schema) => {
    const k = `${op.operationId}:${name}`;
    if (!cache.has(k)) cache.set(k, a.compile(schema));
    return cache.get(k)!;
  };
  const errors: string[] = [];
  for (const p of op.parameters ?? []) {
    const value = (p.in === 'path' ? req.path : req.query)[p.name];
    if (value === undefined) {
      if (p.required) errors.push(`${p.in} ${p.name} missing`);
      continue;
    }
    const holder = { v: value };
    const v = compiled(ajv.params, `${p.in}.${p.name}`, { type: 'object', properties: { v: p.schema } });
    if (!v(holder)) errors.push(`${p.in} ${p.name}: ${ajv.params.errorsText(v.errors)}`);
  }
  const atLeastOne = op['x-at-least-one'];
  if (atLeastOne && !atLeastOne.some((name) => req.query[name] !== undefined)) errors.push(`query: none of ${atLeastOne.join(', ')}`);
  const rb = op.requestBody;
  if (rb) {
    const v = compiled(ajv.body, 'body', rb.content['application/json'].schema);
    const body = req.body === undefined ? {} : req.body;
    if (!v(body)) errors.push(`body: ${ajv.body.errorsText(v.errors)}`);
  }
  return errors;
}

describe('the OpenAPI document as the contract of requests (property)', function () {
  this.timeout(300_000);
  let world: World;
  let agentKey: string;
  let baseline: string;
  const ajv = { params: createAjv('contract-params'), body: createAjv('contract-body') };
  const cache = new Map<string, ValidateFunction>();
  const mutated = new Set<string>();

  before(async () => {
    world = await createWorld({ admin: { apiKey: ADMIN_KEY }, fixture: DEMO, slippage: 'none' });
    agentKey = world.fixture.agents[0]!.apiKey;
    baseline = await world.snapshot();
  });
  // Each operation starts from the same world (another's deletions or clock moves would change what it can do).
  beforeEach(() => world.restore(baseline));

  it('covers every operation of the document but the five that replace the world under test', () => {
    expect(ALL_OPS.length).to.equal(ROUTES.length);
    expect(OPS.length).to.equal(ROUTES.length - WORLD_SWAPPING.size);
    expect(OPS.map((o) => o.op.operationId)).to.include.members([
      'trade.execute', 'admin.competitions.start', 'sim.clock.set', 'account.profile.update', 'admin.agents.create', 'admin.search', 'sim.requests',
    ]);
  });

  for (const { path, method, op } of OPS) {
    it(`${op.operationId}: ${method} ${path} answers as the document declares`, async () => {
      const counts = { valid: 0, invalid: 0, accepted: 0 };
      // The key the document asks for: an agent's where it lists one, else the admin's.
      const key = (op.security ?? []).some((x) => 'agentKey' in x) ? agentKey : ADMIN_KEY;
      await fc.assert(fc.asyncProperty(requestArb(op, hints(world)), async (req) => {
        const errors = verdict(op, req, ajv, cache);
        const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(req.path[name] ?? ''));
        const text = req.body === undefined ? '' : JSON.stringify(req.body);
        const res = checkServed(method, url, await DOOR.serve(world, {
          method, path: url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, query: req.query,
          ...(method === 'GET' ? {} : { body: text }),
        }));
        const message = String((res.body as { error?: unknown } | null)?.error ?? '');
        const shown = `${method} ${url} query=${JSON.stringify(req.query)} body=${text} -> ${res.status} ${message}`;
        expect(res.status, shown).to.be.lessThan(500);
        if (errors.length > 0) {
          counts.invalid += 1;
          expect(res.status, `declared invalid (${errors.join('; ')}) but accepted: ${shown}`).to.be.within(400, 499);
        } else {
          counts.valid += 1;
          if (res.status < 300) counts.accepted += 1;
          const validationError = res.status === 400 && VALIDATION_ERROR.some((re) => re.test(message)) && !DATA_RULE.some((re) => re.test(message));
          expect(validationError, `declared valid but refused as invalid: ${shown}`).to.equal(false);
        }
      }), { seed: SEEDS.http, numRuns: budget(25, 600) });
      // The valid side was exercised (a generator that never makes a valid request proves nothing of it).
      expect(counts.valid, JSON.stringify(counts)).to.be.greaterThan(0);
      if (counts.invalid > 0) mutated.add(op.operationId);
    });
  }

  it('made requests the document declares invalid for most operations with parameters or a body', () => {
    // Free-text parameters (ids of arenas, snapshots, faults) cannot be made invalid by a replacement.
    const withInput = OPS.filter((o) => (o.op.parameters ?? []).length > 0 || o.op.requestBody).length;
    expect(mutated.size).to.be.greaterThan(withInput * 0.8);
  });
});
