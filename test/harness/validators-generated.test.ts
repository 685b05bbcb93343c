// The scenario validators compiled ahead of time: current with scenario.schema.json, and the same verdicts and errors as compiling the schema at run time.
import { expect } from 'chai';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { compileScenarioValidators, GENERATED_FILE, SCHEMA_FILE, scenarioValidatorsSource } from '../../scripts/scenario-validators.js';
import { findScenarioFiles } from '../../src/harness/files.js';
import { VERBS } from '../../src/harness/types.js';
import * as generated from '../../src/harness/validators.generated.js';
import { budget } from '../property/budget.js';

const pre = generated as unknown as Record<string, ValidateFunction>;
const schemaText = readFileSync(SCHEMA_FILE, 'utf8');
const runtime = compileScenarioValidators(schemaText);

/** Verdict and errors of a validator on `value` (errors are cleared on success, so only a failure has them). */
function outcome(v: ValidateFunction, value: unknown): { ok: boolean; errors: unknown } {
  const ok = v(value) as boolean;
  return { ok, errors: ok ? null : structuredClone(v.errors) };
}

function sameOutcome(name: string, value: unknown): void {
  expect(outcome(pre[name]!, value), `${name} on ${JSON.stringify(value)}`).to.deep.equal(outcome(runtime[name]!, value));
}

describe('generated scenario validators', () => {
  it('are current: the module is what `npm run gen:validators` writes from the schema', () => {
    expect(readFileSync(GENERATED_FILE, 'utf8')).to.equal(scenarioValidatorsSource(schemaText));
  });

  it('would be stale after a change to the schema', () => {
    const changed = schemaText.replace('"minimum": 0', '"minimum": 1');
    expect(changed).to.not.equal(schemaText);
    expect(scenarioValidatorsSource(changed)).to.not.equal(scenarioValidatorsSource(schemaText));
  });

  it('exist for the top level and for every step verb, and for nothing else', () => {
    expect(Object.keys(pre).sort()).to.deep.equal(['top', ...VERBS.map((v) => `${v}Step`)].sort());
    expect(Object.keys(runtime).sort()).to.deep.equal(Object.keys(pre).sort());
  });

  it('judge every shipped and test scenario file, and each of its steps, as the run-time compile does', () => {
    const files = [...findScenarioFiles(['scenarios']), ...findScenarioFiles(['test/artifacts'])];
    expect(files.length).to.be.greaterThan(15);
    let steps = 0;
    for (const file of files) {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { steps?: unknown[] };
      sameOutcome('top', doc);
      for (const step of doc.steps ?? []) {
        for (const verb of VERBS) sameOutcome(`${verb}Step`, step);
        steps += 1;
      }
    }
    expect(steps).to.be.greaterThan(100);
  });

  it('give the same verdicts and errors on arbitrary steps and documents', () => {
    const keys = ['call', 'as', 'at', 'body', 'query', 'headers', 'expect', 'save', 'actor', 'advance', 'setTime', 'setPrice', 'fault', 'snapshot',
      'restore', 'note', 'status', 'token', 'price', 'kind', 'name', 'key', 'id', 'register', 'seed', 'startTime', 'world', 'actors', 'steps', 'x'];
    const leaf = fc.oneof(
      fc.constantFrom('GET /api/health', 'POST /api/trade/execute', 'alice', '5m', '1h30m', '2025-01-01T00:00:00.000Z', 'latency', 'error', '', 'x y'),
      fc.string({ maxLength: 8 }), fc.integer({ min: -5, max: 500 }), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...keys), tie('node'), { maxKeys: 4 })),
    })).node;
    const step = fc.dictionary(fc.constantFrom(...keys), value, { minKeys: 1, maxKeys: 5 });
    fc.assert(fc.property(step, (s) => {
      for (const verb of VERBS) sameOutcome(`${verb}Step`, s);
    }), { numRuns: budget(600, 6000, 100), seed: 20261123 });
    const doc = fc.record({ seed: value, startTime: value, world: value, actors: value, steps: fc.array(step, { maxLength: 3 }), x: value }, { requiredKeys: ['steps'] });
    fc.assert(fc.property(doc, (d) => sameOutcome('top', d)), { numRuns: budget(300, 3000, 50), seed: 20261123 });
  });
});
