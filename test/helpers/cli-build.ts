// Test helper: compiles src/ once per test run into a temporary folder with esbuild, so CLI children start on plain node with about a third of tsx's CPU.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = join(import.meta.dirname, '..', '..');
const CHILD = join('test', 'helpers', 'cli-pool-child');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

let shared: string[] | null = null;

/**
 * Node arguments that run test/helpers/cli-pool-child from a compiled copy (the folder mirrors the
 * repository, so `import.meta.url` lookups of package.json, fixtures/ and scenario.schema.json
 * still resolve; it is removed when the process exits).
 */
export function childCommand(): string[] {
  if (shared) return shared;
  const out = mkdtempSync(join(tmpdir(), 'compsim-cli-build-'));
  process.once('exit', () => rmSync(out, { recursive: true, force: true }));
  buildSync({
    entryPoints: [...tsFiles(join(ROOT, 'src')), join(ROOT, `${CHILD}.ts`)],
    outdir: out, outbase: ROOT, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning',
  });
  copyFileSync(join(ROOT, 'package.json'), join(out, 'package.json'));
  for (const n of ['node_modules', 'fixtures', 'scenario.schema.json']) symlinkSync(join(ROOT, n), join(out, n));
  shared = [join(out, `${CHILD}.js`)];
  return shared;
}
