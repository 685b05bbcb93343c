// Test helper: compiles src/ once per test run into a temporary folder (esbuild, which tsx already brings) so CLI children start on plain node with about a third of tsx's CPU.
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const CHILD = join('test', 'helpers', 'cli-pool-child');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

let shared: Promise<string[]> | null = null;

/**
 * Node arguments that run test/helpers/cli-pool-child: the compiled copy when esbuild is at hand
 * (the folder mirrors the repository, so `import.meta.url` lookups of package.json, fixtures/ and
 * scenario.schema.json still resolve; it is removed when the process exits), else through tsx.
 */
export function childCommand(): Promise<string[]> {
  shared ??= (async () => {
    let esbuild: { buildSync(o: Record<string, unknown>): unknown };
    try {
      esbuild = (await import('esbuild' as string)) as typeof esbuild;
    } catch {
      return ['--import', 'tsx', join(ROOT, `${CHILD}.ts`)];
    }
    const out = mkdtempSync(join(tmpdir(), 'compsim-cli-build-'));
    process.once('exit', () => rmSync(out, { recursive: true, force: true }));
    esbuild.buildSync({
      entryPoints: [...tsFiles(join(ROOT, 'src')), join(ROOT, `${CHILD}.ts`)],
      outdir: out, outbase: ROOT, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning',
    });
    copyFileSync(join(ROOT, 'package.json'), join(out, 'package.json'));
    for (const n of ['node_modules', 'fixtures', 'scenario.schema.json']) symlinkSync(join(ROOT, n), join(out, n));
    return [join(out, `${CHILD}.js`)];
  })();
  return shared;
}
