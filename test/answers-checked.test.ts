// Every way a test obtains answers in-process goes through the response checker (test/helpers/answers.ts), so no answer escapes its documented schema.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const TEST = import.meta.dirname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * The ways to answers and what each needs in the same file: the in-process target only as
 * `checkedInProcessTarget()`, a door with `checkServed` (or the checker itself), an msw server only
 * with `checkMswAnswers`, a Koa app only with `onResponseViolation` (test servers: `startTestServer`).
 */
const RULES: { name: string; uses: RegExp; needs: RegExp }[] = [
  { name: 'inProcessTarget()', uses: /(?<!checked)inProcessTarget\(\)/, needs: /^$/ },
  { name: 'createDoor(', uses: /\bcreateDoor\(/, needs: /\bcheckServed\(|\bchecker\.check\(/ },
  { name: 'setupServer(', uses: /\bsetupServer\(/, needs: /\bcheckMswAnswers\(/ },
  { name: "createServer( (compsim's Koa app)", uses: /import \{[^}]*\bcreateServer\b[^}]*\} from '[./]*src\/(http\/adapters\/server|index)\.js'/, needs: /onResponseViolation/ },
];

/** Files that build answers for something other than a test to read: the consumer project of the package test (its bot's own code). */
const EXEMPT = new Set(['package-types.e2e.test.ts', 'helpers/answers.ts', 'answers-checked.test.ts']);

describe('answers obtained by tests', () => {
  it('are all checked against their documented schemas (no unchecked in-process target, door, msw server or Koa app)', () => {
    const offenders: string[] = [];
    const all = files(TEST);
    expect(all.length).to.be.greaterThan(100);
    for (const file of all) {
      const rel = relative(TEST, file);
      if (EXEMPT.has(rel)) continue;
      const text = readFileSync(file, 'utf8');
      for (const r of RULES) if (r.uses.test(text) && !(r.needs.source !== '^$' && r.needs.test(text))) offenders.push(`${rel}: ${r.name}`);
    }
    expect(offenders).to.deep.equal([]);
  });
});
