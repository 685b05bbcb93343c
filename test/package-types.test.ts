// The published package's declarations: they import only packages it declares, and type-check in a strict consumer project.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>; peerDependencies?: Record<string, string>;
};
/** What a consumer installs with compsim: its dependencies and (optional) peers. */
const DECLARED = [...Object.keys(PKG.dependencies), ...Object.keys(PKG.peerDependencies ?? {})];

function declarationFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? declarationFiles(p) : p.endsWith('.d.ts') ? [p] : [];
  });
}

/** The package a bare specifier names: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
function packageOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** `@types/` package of a module name (`@koa/cors` -> `@types/koa__cors`). */
function typesPackage(name: string): string {
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
}

function run(args: string[], cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [TSC, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the published package', function () {
  this.timeout(180_000);
  let consumer: string;
  let dist: string;

  before(() => {
    // A consumer project with compsim installed: its declarations and package.json, and only the
    // packages compsim declares (plus the consumer's own @types/node) next to it.
    consumer = mkdtempSync(join(tmpdir(), 'compsim-consumer-'));
    const installed = join(consumer, 'node_modules', 'compsim');
    dist = join(installed, 'dist');
    const built = run(['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', dist, '--emitDeclarationOnly', '--declarationMap', 'false', '--sourceMap', 'false'], ROOT);
    expect(built.out).to.equal('');
    copyFileSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
    for (const name of [...DECLARED, '@types/node']) {
      const link = join(consumer, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), link);
    }
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true, skipLibCheck: false, noEmit: true, types: ['node'],
      },
      include: ['bot.ts'],
    }));
    writeFileSync(join(consumer, 'bot.ts'), [
      "import { createServer, createWorld, runScenario, type World } from 'compsim';",
      "import { handlers } from 'compsim/msw';",
      'const world: World = await createWorld({ seed: 1 });',
      'const app = createServer(world);',
      'const server = app.listen(0);',
      'export const mocked = handlers(world, { baseUrl: "https://api.example" });',
      'export const run: typeof runScenario = runScenario;',
      'server.close();',
      '',
    ].join('\n'));
  });

  after(() => rmSync(consumer, { recursive: true, force: true }));

  it('imports only node built-ins and packages it declares in its declarations', () => {
    const undeclared = new Set<string>();
    for (const file of declarationFiles(dist)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\()\s*['"]([^'".][^'"]*)['"]/g)) {
        const spec = m[1]!;
        if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
        const name = packageOf(spec);
        if (!DECLARED.includes(name) && !DECLARED.includes(typesPackage(name))) undeclared.add(name);
      }
    }
    expect([...undeclared]).to.deep.equal([]);
  });

  it('type-checks in a strict consumer project with skipLibCheck off', () => {
    const checked = run(['-p', join(consumer, 'tsconfig.json')], consumer);
    expect(checked.out).to.equal('');
    expect(checked.status).to.equal(0);
  });
});
