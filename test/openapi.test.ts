// The OpenAPI document (structure, refs, every route, examples), the test-mode response checker, `compsim openapi`, and the docs and dashboard files.
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { openapiMain } from '../src/cli/openapi.js';
import { formatFailure } from '../src/cli/run-output.js';
import { createAjv } from '../src/http/ajv.js';
import { createResponseChecker, type ResponseViolation } from '../src/http/response-check.js';
import { createDoor } from '../src/http/adapters/door.js';
import { createWorld, type World } from '../src/world/world.js';
import { IN_PROCESS_ADMIN_KEY } from '../src/world/in-process-target.js';
import type { WorldOptions } from '../src/world/config.js';
import { ROUTES } from '../src/http/resources/index.js';
import { contractSchema, handlerChecked, validationSchema } from '../src/http/route.js';
import { buildOpenApi } from '../src/http/openapi.js';
import { findScenarioFiles } from '../src/harness/files.js';
import { runScenario } from '../src/harness/runner.js';
import { loadScenario } from '../src/harness/schema.js';
import { targetResponse, type Target } from '../src/harness/targets.js';
import { ADMIN_KEY, startTestServer, type TestServer } from './helpers/server.js';
import { checkAnswer, responseViolations } from './helpers/answers.js';

const ROOT = join(import.meta.dirname, '..');
type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> }; tags: { name: string }[]; [k: string]: any };

/** Every `$ref` string in a JSON value. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (k === '$ref' && typeof v === 'string') out.push(v); else refs(v, out);
  }
  return out;
}

/** Resolves a local JSON pointer (`#/a/b`) in `doc`. */
function resolvePointer(doc: unknown, ref: string): unknown {
  return ref.slice(2).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), doc);
}

describe('GET /api/openapi.json', () => {
  let s: TestServer;
  let doc: Doc;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    const res = await s.call('GET', '/api/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body as Doc;
  });
  after(() => s.close());

  it('serves an OpenAPI 3.1 document that the specification schema accepts (200)', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 3000)).to.equal(true);
  });

  it('documents every route of the table once, with its generation, tag, auth and summary', () => {
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(ops).to.have.length(ROUTES.length);
    const tagNames = doc.tags.map((t) => t.name);
    for (const r of ROUTES) {
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).to.be.an('object');
      expect(op.operationId).to.equal(r.id);
      expect(op.summary).to.equal(r.summary);
      expect(op.tags).to.deep.equal([r.tag]);
      expect(tagNames, r.id).to.include(r.tag);
      expect(op['x-compsim-generation']).to.equal(r.generation);
      const schemes = (op.security as Record<string, string[]>[]).flatMap((x) => Object.keys(x));
      if (r.auth === 'admin') expect(schemes, r.id).to.deep.equal(['adminKey']);
      if (r.auth === 'key') expect(schemes, r.id).to.deep.equal(r.agentOnly ? ['agentKey'] : ['agentKey', 'adminKey']);
      if (r.auth === 'public' && r.keys !== 'server') expect(op.security, r.id).to.deep.equal([]);
      if (r.keys === 'server') expect(schemes, r.id).to.deep.equal(['adminKey']); // the server key or a default-world admin key
    }
    expect(new Set(ROUTES.map((r) => r.generation))).to.deep.equal(new Set(['current', 'legacy', 'shared', 'sim']));
    expect(ROUTES.filter((r) => r.generation === 'sim').every((r) => r.tag === 'sim')).to.equal(true);
    expect(Object.keys(doc.components.securitySchemes)).to.deep.equal(['agentKey', 'adminKey']);
  });

  it('types every request parameter and body field (only fields that take any JSON value say so instead)', () => {
    const typed = (x: any) => x.type !== undefined || x.enum !== undefined || x.const !== undefined || x.anyOf !== undefined || x.oneOf !== undefined || x.$ref !== undefined;
    const untyped: string[] = [];
    const walk = (x: any, where: string) => {
      if (!typed(x) && x.description !== 'Any JSON value' && !/any (other )?JSON value/.test(String(x.description))) untyped.push(where);
      for (const [k, p] of Object.entries(x.properties ?? {})) walk(p, `${where}.${k}`);
      if (x.items) walk(x.items, `${where}[]`);
    };
    let fields = 0;
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        for (const p of op.parameters ?? []) {
          walk(p.schema, `${op.operationId} ${p.in} ${p.name}`);
          if (p.in === 'path') expect(p.required, `${op.operationId} ${p.name}`).to.equal(true);
          fields += 1;
        }
        const body = op.requestBody?.content['application/json'].schema;
        if (body) {
          walk(body, `${op.operationId} body`);
          fields += Object.keys(body.properties ?? {}).length;
          const branches = (body.oneOf ?? []) as { required?: string[] }[];
          const needed = (body.required ?? []).length > 0 || Array.isArray(body['x-at-least-one']) || (branches.length > 0 && branches.every((x) => (x.required ?? []).length > 0));
          expect(op.requestBody.required, op.operationId).to.equal(needed);
        }
      }
    }
    expect(fields).to.be.greaterThan(300);
    expect(untyped).to.deep.equal([]);
    expect(JSON.stringify(doc)).to.not.include('x-handler-checked');
    // Bodies the server requires (a field, one of two forms, or at least one field) are required in the document.
    for (const [path, method] of [['/api/admin/competition/start', 'post'], ['/api/admin/competition/{competitionId}', 'put'], ['/api/sim/clock', 'post']] as const) {
      expect(doc.paths[path]![method].requestBody.required, `${method} ${path}`).to.equal(true);
    }
    // No top-level anyOf (client generators cannot model one); "at least one" is x-at-least-one, without the fields an update ignores.
    const update = doc.paths['/api/admin/competition/{competitionId}']!.put!.requestBody.content['application/json'].schema;
    expect(update.anyOf).to.equal(undefined);
    expect(update['x-at-least-one']).to.include('name').and.not.include.members(['slippageModel', 'allowCrossChainTrading']);
    expect(doc.paths['/api/sim/clock']!.post!.requestBody.content['application/json'].schema.oneOf.map((b: any) => b.required)).to.deep.equal([['advanceMs'], ['set']]);
    expect(JSON.stringify(doc)).to.not.include('iso-time');
    const trade = doc.paths['/api/trade/execute']!.post!.requestBody;
    expect(trade.required).to.equal(true);
    expect(trade.content['application/json'].schema.required).to.deep.equal(['fromToken', 'toToken', 'amount', 'reason']);
    expect(trade.content['application/json'].schema.properties.fromToken).to.include({ type: 'string', minLength: 1 });
    expect(doc.paths['/api/price']!.get!.parameters.find((p: any) => p.name === 'token')).to.deep.include({ required: true, schema: { type: 'string', minLength: 1 } });
  });

  it('states the constraints the server checks: required parameters, formats, sort fields, id and email patterns, minimums and constants', () => {
    const param = (path: string, name: string) => doc.paths[path]!.get!.parameters.find((p: any) => p.name === name);
    const body = (path: string, method = 'post') => doc.paths[path]![method].requestBody.content['application/json'].schema;
    expect(param('/api/price/token-info', 'token')).to.deep.include({ required: true });
    expect(param('/api/admin/reports/performance', 'competitionId')).to.deep.include({ required: true });
    expect(param('/api/agent/perps/positions', 'competitionId').schema).to.include({ format: 'uuid' });
    for (const path of ['/api/agents', '/api/arenas', '/api/admin/agents', '/api/admin/arenas', '/api/admin/partners', '/api/competitions']) {
      const pattern = new RegExp(param(path, 'sort').schema.pattern as string);
      expect(pattern.test('name'), path).to.equal(true);
      expect(pattern.test('-nope'), path).to.equal(false);
    }
    expect(param('/api/competitions/{competitionId}/agents', 'sort').schema.enum).to.include.members(['rank', '-rank']);
    expect(body('/api/admin/arenas').properties.id.pattern).to.equal('^[a-z0-9-]+$');
    expect(body('/api/sim/reset').properties.options.properties.snapshotIntervalMs.minimum).to.equal(1000);
    expect(body('/api/sim/load').properties.version).to.deep.include({ const: 1 });
    const email = new RegExp(body('/api/admin/users').properties.email.pattern as string);
    expect([email.test('alice@example.com'), email.test('alice@localhost')]).to.deep.equal([true, false]);
    const tape = body('/api/sim/prices/tape').properties.tapes.additionalProperties;
    expect(tape.items.prefixItems).to.have.length(2);
  });

  it('states competitionId as each API version reads it (required, optional, or not read)', () => {
    const param = (d: Doc, path: string) => d.paths[path]!.get!.parameters.find((p: any) => p.name === 'competitionId');
    const v2025 = buildOpenApi(ROUTES, { version: 'x', apiVersion: '2025-10' }) as unknown as Doc;
    const v2026 = buildOpenApi(ROUTES, { version: 'x', apiVersion: '2026-08' }) as unknown as Doc;
    expect(param(doc, '/api/agent/balances').required).to.equal(true);
    expect(param(v2025, '/api/agent/balances')).to.deep.include({ required: false, description: 'Not read in this API version: the active competition is used' });
    expect(doc.paths['/api/trade/execute']!.post!.requestBody.content['application/json'].schema.required).to.not.include('competitionId');
    expect(v2026.paths['/api/trade/execute']!.post!.requestBody.content['application/json'].schema.required).to.include('competitionId');
  });

  it('resolves every $ref', () => {
    const all = refs(doc);
    expect(all.length).to.be.greaterThan(100);
    for (const ref of new Set(all)) {
      expect(ref, ref).to.match(/^#\//);
      expect(resolvePointer(doc, ref), ref).to.be.an('object');
    }
  });

  it('documents a success answer for every route and the error envelope for every error status it can answer', () => {
    for (const r of ROUTES) {
      const responses = doc.paths[r.path]![r.method.toLowerCase()].responses as Record<string, any>;
      const statuses = Object.keys(responses).map(Number);
      expect(statuses.some((st) => st >= 200 && st < 300), r.id).to.equal(true);
      expect(statuses, r.id).to.include(500);
      if (r.auth === 'key' || r.auth === 'admin') expect(statuses, r.id).to.include.members([401, 403]);
      if (r.method !== 'GET') expect(statuses, r.id).to.include.members([400, 413]);
      if (r.generation !== 'sim') expect(statuses, r.id).to.include(429);
      if (r.path.includes('{')) expect(statuses, `${r.id} (an id route)`).to.include(404);
      for (const st of statuses.filter((x) => x >= 400)) {
        expect(responses[st].content['application/json'].schema, `${r.id} ${st}`).to.deep.equal({ $ref: '#/components/schemas/ErrorResponse' });
      }
    }
  });

  it('gives every answer and every component an example that validates against its schema', () => {
    // The response checker's own set-up: examples are answers, checked as answers are.
    const ajv = createAjv('response');
    ajv.addSchema({ $id: 'urn:compsim:doc', components: doc.components });
    const cache = new Map<string, ReturnType<typeof ajv.compile>>();
    const compiled = (schema: unknown) => {
      const key = JSON.stringify(schema);
      if (!cache.has(key)) cache.set(key, ajv.compile(rebase(schema)));
      return cache.get(key)!;
    };
    let checked = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, res] of Object.entries(op.responses as Record<string, any>)) {
          const media = res.content['application/json'];
          expect(media.example, `${method} ${path} ${status}`).to.not.equal(undefined);
          const validate = compiled(media.schema);
          expect(validate(media.example), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
          checked += 1;
        }
      }
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const examples = (schema as { examples?: unknown[] }).examples ?? [];
      const validate = compiled({ $ref: `#/components/schemas/${name}` });
      for (const ex of examples) expect(validate(ex), `${name}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    }
    expect(checked).to.be.greaterThan(ROUTES.length * 4);

    /** A copy of `schema` whose local refs point into the document registered as `urn:compsim:doc`. */
    function rebase(schema: unknown): any {
      return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"urn:compsim:doc#/components/'));
    }
  });

  it('leaves /api/sim/* out when the sim API is off, and mentions it nowhere', async () => {
    const off = await startTestServer({}, { simApi: false });
    try {
      const res = await off.call('GET', '/api/openapi.json');
      expect(Object.keys(res.body.paths).filter((p) => p.startsWith('/api/sim'))).to.deep.equal([]);
      expect(res.body.tags.map((t: { name: string }) => t.name)).to.not.include('sim');
      expect(JSON.stringify(res.body).match(/.{40}\/api\/sim.{20}/g)).to.equal(null);
      expect(doc.paths['/api/sim/load']!.post!.responses['413']!.description).to.equal('Request body too large (200 MB)');
    } finally {
      await off.close();
    }
  });

  it('is what `compsim openapi` prints', async () => {
    let text = '';
    const sink = new Writable({ write: (chunk, _enc, done) => { text += String(chunk); done(); } });
    expect(await openapiMain([], sink)).to.equal(0);
    expect(JSON.parse(text)).to.deep.equal(doc);
    text = '';
    expect(await openapiMain(['--server-url', 'http://127.0.0.1:3000', '--no-sim'], sink)).to.equal(0);
    const printed = JSON.parse(text) as Doc;
    expect(printed.servers).to.deep.equal([{ url: 'http://127.0.0.1:3000' }]);
    expect(Object.keys(printed.paths).some((p) => p.startsWith('/api/sim'))).to.equal(false);
    text = '';
    expect(await openapiMain(['--api-version', '2025-10'], sink)).to.equal(0);
    const october = JSON.parse(text) as Doc & { info: Record<string, unknown> };
    expect(october.info['x-api-version']).to.equal('2025-10');
    expect(Object.keys(october.paths).some((p) => p.startsWith('/api/inferai') || p.startsWith('/api/eigenai'))).to.equal(false);
    expect(october.paths).to.have.property('/api/competitions/upcoming');
    expect(await openapiMain(['--api-version', '1999'], sink, sink)).to.equal(2);
    expect(await openapiMain(['--bogus'], sink, sink)).to.equal(2);
  });
});

describe('response checker (test mode)', () => {
  const checker = createResponseChecker();

  it('names the route, the status and Ajv\'s error for a body that breaks its schema', () => {
    const v = checker.check({ routeId: 'health.get', method: 'GET', path: '/api/health', status: 200, body: { status: 'ok', timestamp: 'yesterday', uptime: 0, version: '1' } });
    expect(v?.message).to.match(/^health\.get GET \/api\/health -> 200: body\/timestamp must match format "date-time"/);
  });

  it('reports a status the route does not document, and an unrouted answer outside the envelope', () => {
    expect(checker.check({ routeId: 'health.get', method: 'GET', path: '/api/health', status: 404, body: { success: false, error: 'x' } })?.message)
      .to.match(/status 404 is not documented for this route/);
    expect(checker.check({ routeId: null, method: 'GET', path: '/nope', status: 404, body: { error: 'x' } })?.message).to.match(/must have required property 'success'/);
    expect(checker.check({ routeId: null, method: 'GET', path: '/nope', status: 404, body: { success: false, error: 'Cannot GET /nope' } })).to.equal(null);
  });

  it('passes every answer of the scenario library (in-process) against the documented schemas', async () => {
    const violations: ResponseViolation[] = [];
    // The in-process target's world and door, with each answer checked against the route the door matched.
    const door = createDoor();
    const checking = (): Target => {
      let world: World | undefined;
      return {
        label: 'checked', close: async () => undefined,
        async begin(sc) {
          world = await createWorld({ ...(sc.doc.world as WorldOptions), seed: sc.doc.seed, startTime: sc.doc.startTime, admin: { apiKey: IN_PROCESS_ADMIN_KEY } });
          return { adminKey: IN_PROCESS_ADMIN_KEY };
        },
        async send(req) {
          const body = req.body !== undefined && req.method !== 'GET' ? { body: JSON.stringify(req.body) } : {};
          const headers = 'body' in body ? { 'content-type': 'application/json', ...req.headers } : req.headers;
          const res = await door.serve(world!, { method: req.method, path: req.path, query: req.query, headers, ...body });
          const v = checker.check({ routeId: res.routeId, method: req.method, path: req.path, status: res.status, body: JSON.parse(res.text) });
          if (v) violations.push(v);
          return targetResponse(res.status, res.text, true);
        },
      };
    };
    const files = findScenarioFiles([join(ROOT, 'scenarios')]);
    expect(files.length).to.be.greaterThan(10);
    for (const file of files) {
      const result = await runScenario(loadScenario(file), checking());
      expect(result.ok, result.failure ? formatFailure(result.failure).join('\n') : file).to.equal(true);
    }
    expect(violations.map((v) => v.message)).to.deep.equal([]);
  });

  it('checks the answers tests obtain through the in-process target and msw as the test servers do', async () => {
    checkAnswer({ method: 'GET', path: '/worlds/w1/api/health?x=1', status: 200, body: { status: 'ok', timestamp: 'soon', uptime: 0, version: '1' } });
    checkAnswer({ method: 'GET', path: '/api/nowhere', status: 404, body: { success: false, error: 'Cannot GET /api/nowhere' } });
    const seen = responseViolations.splice(0).map((v) => v.message);
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(/^health\.get GET \/api\/health -> 200: body\/timestamp must match format "date-time"/);
  });
});

describe('GET /api/docs and GET / (static pages)', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(() => s.close());

  const get = async (path: string) => {
    const res = await fetch(s.url + path);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  it('serves Swagger UI from the swagger-ui-dist package, pointed at this server\'s document (200)', async () => {
    const page = await get('/api/docs');
    expect(page.status).to.equal(200);
    expect(page.type).to.match(/^text\/html/);
    expect(page.text).to.include('/api/docs/swagger-ui-bundle.js').and.not.match(/https?:\/\//);
    expect((await get('/api/docs/init.js')).text).to.include('url: `${base}/api/openapi.json`'); // base: '' here, '/worlds/<id>' in a world
    const bundle = await get('/api/docs/swagger-ui-bundle.js');
    expect(bundle.status).to.equal(200);
    expect(bundle.type).to.match(/javascript/);
    expect((await get('/api/docs/swagger-ui.css')).type).to.match(/^text\/css/);
  });

  it('serves the dashboard at / and /ui with its modules and uPlot from node_modules (200)', async () => {
    for (const path of ['/', '/ui', '/ui/']) {
      const page = await get(path);
      expect(page.status, path).to.equal(200);
      expect(page.text).to.include('<script type="module" src="/ui/app.js">').and.not.match(/src="https?:/);
    }
    for (const path of ['/ui/app.js', '/ui/api.js', '/ui/chart.js', '/ui/vendor/uPlot.esm.js']) expect((await get(path)).type, path).to.match(/javascript/);
    expect((await get('/ui/vendor/uPlot.min.css')).type).to.match(/^text\/css/);
  });

  it('answers unknown files with the JSON 404 and never serves files outside the asset table (404)', async () => {
    for (const path of ['/ui/nope.js', '/ui/../package.json', '/ui/vendor/uPlot.cjs.js', '/api/docs/index.html']) {
      const res = await s.call('GET', path);
      expect(res.status, path).to.equal(404);
      expect(res.body.success, path).to.equal(false);
    }
  });
});

describe('handler-checked request fields (one schema for the document and for validation)', () => {
  const field = handlerChecked({ type: 'string', minLength: 1 }, { type: 'string' });
  const body = handlerChecked({ type: 'object', properties: { a: field, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false },
    { type: 'object', properties: { a: field, b: { type: 'integer' } }, required: ['a', 'b'] });

  it('validation applies the loose schema of a marked field (or whole part) and no longer requires a marked field', () => {
    expect(validationSchema(body)).to.deep.equal({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['b'] });
    expect(validationSchema({ type: 'object', properties: { a: field }, required: ['a'] })).to.deep.equal({ type: 'object', properties: { a: { type: 'string' } }, required: [] });
  });

  it('the document shows the whole contract, without the marker', () => {
    expect(contractSchema(body)).to.deep.equal({
      type: 'object', properties: { a: { type: 'string', minLength: 1 }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false,
    });
  });
});
