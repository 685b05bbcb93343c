// The client's generated types: current with the OpenAPI document (what `npm run gen:client` writes), and generated without a warning.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { clientDocument, GENERATED_FILE, generateClientTypes } from '../../scripts/client-types.js';
import { ROUTES } from '../../src/http/resources/index.js';

describe('generated client types (src/client/openapi-types.ts)', function () {
  this.timeout(120_000);

  it('are current: the file is what `npm run gen:client` writes from the document, and the generator printed no warning', async () => {
    const { source, warnings } = await generateClientTypes();
    expect(warnings).to.deep.equal([]);
    expect(readFileSync(GENERATED_FILE, 'utf8') === source, 'src/client/openapi-types.ts is stale: run `npm run gen:client`').to.equal(true);
  });

  it('would be stale after a change to a route\'s schema', async () => {
    const changed = ROUTES.map((r) => (r.id === 'trade.execute'
      ? { ...r, schemas: { ...r.schemas, body: { type: 'object', properties: { onlyField: { type: 'string' } }, required: ['onlyField'] } } }
      : r));
    const { source } = await generateClientTypes(clientDocument(changed));
    expect(source).to.include('onlyField: string;');
    expect(source).to.not.equal(readFileSync(GENERATED_FILE, 'utf8'));
  });

  it('collects what the generator warns about instead of printing it (so the check above can fail)', async () => {
    const doc = clientDocument();
    (doc.components as { schemas: Record<string, unknown> }).schemas.Odd = { type: 'string' };
    doc.paths['/api/health']!.get!.responses = { 200: { description: 'OK', content: { 'application/json': { schema: {
      oneOf: [{ $ref: '#/components/schemas/Odd' }], discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/Odd' } },
    } } } } };
    const { warnings } = await generateClientTypes(doc);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/Discriminator mapping has an invalid schema \(neither an object schema nor an allOf array\): #\/components\/schemas\/Odd => a/);
  });
});
