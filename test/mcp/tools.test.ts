// MCP tools from route definitions: one inputSchema from params, query and body, and a call's arguments split back into a request.
import { expect } from 'chai';
import type { RouteDef } from '../../src/http/route.js';
import { ROUTES } from '../../src/http/resources/index.js';
import { buildTools, TOOL_ROUTES, toolOf, toRequest, ToolArgumentError } from '../../src/mcp/tools.js';

const handler = async () => ({ body: {} });
const ROUTE: RouteDef = {
  id: 'things.update', method: 'PUT', path: '/api/things/{thingId}/parts/{partId}', auth: 'key', generation: 'current', tag: 'things', summary: 'Update a part',
  schemas: {
    params: { type: 'object', properties: { thingId: { type: 'string' }, partId: { type: 'string' } }, required: ['thingId', 'partId'] },
    query: { type: 'object', properties: { dryRun: { type: 'boolean' }, note: { type: 'string', 'x-handler-checked': {} } }, required: ['note'] },
    body: { type: 'object', properties: { size: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } }, required: ['size'] },
  },
  handler,
};

describe('MCP tools', () => {
  it('merges params, query and body into one inputSchema (contract schemas, path parameters required)', () => {
    const t = toolOf('update_part', ROUTE, 'agent');
    expect(t.inputSchema).to.deep.equal({
      type: 'object',
      properties: { thingId: { type: 'string' }, partId: { type: 'string' }, dryRun: { type: 'boolean' }, note: { type: 'string' }, size: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['thingId', 'partId', 'note', 'size'],
    });
    expect(t.description).to.equal('Update a part. Calls PUT /api/things/{thingId}/parts/{partId}.');
    expect(t.annotations).to.deep.equal({ title: 'Update a part', readOnlyHint: false });
  });

  it('leaves out `required` for a tool without required arguments', () => {
    expect(toolOf('noop', { ...ROUTE, method: 'GET', path: '/api/noop', schemas: {} }, 'agent').inputSchema).to.deep.equal({ type: 'object', properties: {} });
  });

  it('splits arguments into the path (encoded), the query (as text) and the JSON body', () => {
    const t = toolOf('update_part', ROUTE, 'agent');
    expect(toRequest(t, { thingId: 'a/b c', partId: 7, dryRun: true, note: 'x&y=z', size: 2.5, tags: ['t'] })).to.deep.equal({
      method: 'PUT', path: '/api/things/a%2Fb%20c/parts/7', query: { dryRun: 'true', note: 'x&y=z' }, body: { size: 2.5, tags: ['t'] },
    });
    // Optional and absent parts are left out; validation of the rest is the route's.
    expect(toRequest(t, { thingId: 't', partId: 'p' })).to.deep.equal({ method: 'PUT', path: '/api/things/t/parts/p', query: {} });
  });

  it('refuses unknown arguments, missing or empty path parameters and objects in the URL, naming them', () => {
    const t = toolOf('update_part', ROUTE, 'agent');
    const refusal = (args: Record<string, unknown>) => {
      try {
        toRequest(t, args);
      } catch (err) {
        expect(err).to.be.instanceOf(ToolArgumentError);
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal({ thingId: 't', partId: 'p', colour: 1, shape: 2 })).to.equal('update_part: unknown arguments \'colour\', \'shape\' (it takes thingId, partId, dryRun, note, size, tags)');
    expect(refusal({ partId: 'p' })).to.equal('update_part: argument \'thingId\' is required');
    expect(refusal({ thingId: '', partId: 'p' })).to.equal('update_part: argument \'thingId\' is required');
    expect(refusal({ thingId: 't', partId: 'p', note: { a: 1 } })).to.equal('update_part: argument \'note\' must be a string, a number or a boolean, got object');
    expect(refusal({ thingId: null, partId: 'p' })).to.equal('update_part: argument \'thingId\' must be a string, a number or a boolean, got null');
  });

  it('refuses a route whose parts share a name, or whose part is not an object schema', () => {
    const clash = { ...ROUTE, schemas: { ...ROUTE.schemas, body: { type: 'object', properties: { note: { type: 'string' } } } } };
    expect(() => toolOf('clash', clash, 'agent')).to.throw('route things.update: \'note\' is in both its query and its body, so one tool argument cannot stand for it');
    const notObject = { ...ROUTE, schemas: { body: { type: 'array' } } };
    expect(() => toolOf('list', notObject, 'agent')).to.throw('route things.update: its body schema is not an object schema, so it cannot be a tool\'s input');
  });

  it('builds every tool from compsim\'s route table, and fails loudly when a route is missing', () => {
    expect(buildTools(ROUTES, true).map((t) => t.name)).to.deep.equal(TOOL_ROUTES.map((t) => t.name));
    expect(buildTools(ROUTES, false).every((t) => t.key === 'agent')).to.equal(true);
    expect(() => buildTools(ROUTES.filter((r) => r.id !== 'trade.execute'), false)).to.throw('tool execute_trade: route trade.execute is not in the route table');
  });

  it('marks competitionId as each API version reads it: required, optional, or not read', () => {
    const tool = (version: 'spec' | '2026-08' | '2025-10', name: string) => buildTools(ROUTES, false, version).find((t) => t.name === name)!.inputSchema;
    expect(tool('spec', 'execute_trade').required).to.not.include('competitionId');
    expect(tool('2026-08', 'execute_trade').required).to.include('competitionId');
    expect(tool('2026-08', 'get_quote').required).to.include('competitionId');
    expect(tool('spec', 'get_balances').required).to.deep.equal(['competitionId']);
    expect(tool('2025-10', 'get_balances').required ?? []).to.not.include('competitionId');
    expect(tool('2025-10', 'execute_trade').properties.competitionId).to.deep.include({ description: 'Not read in this API version: the active competition is used' });
    // The default is the spec's reading.
    expect(buildTools(ROUTES, false).find((t) => t.name === 'execute_trade')!.inputSchema).to.deep.equal(tool('spec', 'execute_trade'));
  });
});
