// The scenario library: every scenarios/**/*.scenario.json validates and passes in-process; generated files are current.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkedInProcessTarget } from '../helpers/answers.js';
import { formatFailure } from '../../src/cli/run-output.js';
import { findScenarioFiles } from '../../src/harness/files.js';
import { runScenario } from '../../src/harness/runner.js';
import { loadScenario, parseScenario } from '../../src/harness/schema.js';
import { OUTPUT as WEEK_FILE, render as renderWeek } from '../../scenarios/generators/week-random-walk.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FILES = findScenarioFiles([join(ROOT, 'scenarios')]).map((f) => relative(ROOT, f));

describe('scenario library (scenarios/)', () => {
  it('holds at least 15 scenarios, each with a description and the schema reference', () => {
    expect(FILES.length).to.be.at.least(15);
    for (const f of FILES) {
      const doc = JSON.parse(readFileSync(join(ROOT, f), 'utf8')) as { $schema?: string; description?: string };
      expect(doc.$schema, f).to.equal('../../scenario.schema.json');
      expect(doc.description, f).to.be.a('string').and.not.equal('');
    }
  });

  it('keeps the generated week-long scenario in step with its generator', () => {
    expect(readFileSync(WEEK_FILE, 'utf8')).to.equal(renderWeek());
  });

  it('passes the example scenario of docs/scenarios.md', async () => {
    const page = readFileSync(join(ROOT, 'docs', 'scenarios.md'), 'utf8');
    const example = /## Example\n\n```json\n([\s\S]*?)```/.exec(page)?.[1];
    expect(example, 'docs/scenarios.md example').to.be.a('string');
    const result = await runScenario(parseScenario(example!, 'docs/scenarios.md#example'), checkedInProcessTarget());
    expect(result.ok, result.failure ? formatFailure(result.failure).join('\n') : '').to.equal(true);
  });

  for (const file of FILES) {
    it(`passes ${file}`, async () => {
      const result = await runScenario(loadScenario(join(ROOT, file)), checkedInProcessTarget());
      expect(result.ok, result.failure ? formatFailure(result.failure).join('\n') : '').to.equal(true);
      expect(result.stepsPassed).to.equal(result.steps);
    });
  }
});
