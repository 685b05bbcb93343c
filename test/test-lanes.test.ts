// The fast lane's rule: a test file that starts processes, a browser or worker-thread pools (itself or through a
// helper) is named *.e2e.test.ts, and only such a file is; `npm run test:fast` leaves those out (docs/testing.md).
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
/** Modules whose import means starting processes or a browser. */
const STARTERS = new Set(['node:child_process', 'child_process', 'playwright-core']);
/** What starts worker threads: the pool itself, compsim sweep (one per core by default) and run with more than one worker. */
const POOLS = /\brunPool\(|\bsweepMain\(|'--workers', '[2-9]/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'artifacts' || n === 'node_modules') return [];
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Import specifiers of a file (static and dynamic). */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

const FILES = [...tsFiles(join(ROOT, 'test')), ...tsFiles(join(ROOT, 'bench'))];
const SPECS = new Map(FILES.map((f) => [f, specifiers(readFileSync(f, 'utf8'))]));

/** Whether `file` starts processes or a browser, directly or through test or bench modules it imports. */
function starts(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  if (POOLS.test(readFileSync(file, 'utf8'))) return true;
  for (const spec of SPECS.get(file) ?? []) {
    if (STARTERS.has(spec)) return true;
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (SPECS.has(target) && starts(target, seen)) return true;
  }
  return false;
}

describe('test lanes', () => {
  it('names every test file that starts processes, a browser or worker pools *.e2e.test.ts, and no other', () => {
    const tests = FILES.filter((f) => f.endsWith('.test.ts')).map((f) => ({ file: relative(ROOT, f), starts: starts(f), e2e: f.endsWith('.e2e.test.ts') }));
    expect(tests.filter((t) => t.starts && !t.e2e).map((t) => t.file), 'start processes but are in the fast lane').to.deep.equal([]);
    expect(tests.filter((t) => t.e2e && !t.starts).map((t) => t.file), 'named e2e but start nothing').to.deep.equal([]);
    expect(tests.filter((t) => t.e2e).length).to.be.greaterThan(10);
  });
});
