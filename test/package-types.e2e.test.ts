// The published package: `npm pack` installed into an outside project (strict, skipLibCheck off), which type-checks docs/clients.md's snippets and runs a program importing compsim, compsim/msw and compsim/client, and serves the bundled demo world by name.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packedTarball } from './helpers/packed.js';

const ROOT = join(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NPM_ARGS = ['--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string; dependencies: Record<string, string>; devDependencies: Record<string, string>; peerDependencies?: Record<string, string>;
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

function sh(cmd: string, args: string[], cwd: string): { status: number | null; stdout: string; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, out: `${r.stdout}${r.stderr}` };
}

const npm = (args: string[], cwd: string) => sh(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, cwd);

/** The consumer's program: the library, the msw handlers and the typed client, each used for real. */
const PROGRAM = `import { createServer, createWorld, type World } from 'compsim';
import { handlers } from 'compsim/msw';
import { CompsimError, createClient, type ErrorResponse } from 'compsim/client';
import { setupServer } from 'msw/node';
import type { AddressInfo } from 'node:net';

const ADMIN = '0123456789abcdef_fedcba9876543210';
const SOL = 'So11111111111111111111111111111111111111112';

const world: World = await createWorld({ seed: 1, admin: { apiKey: ADMIN } });
const server = createServer(world).listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const baseUrl = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
const admin = createClient({ baseUrl, apiKey: ADMIN });
const health = await admin.GET('/api/health');
const moved = await admin.sim.advance('5m');
const price = await admin.price(SOL);
const raw: ErrorResponse | undefined = (await createClient({ baseUrl }).GET('/api/agent/balances', { params: { query: { competitionId: '3f1c9a4e-6b2d-4e8f-9a7c-1d2e3f4a5b6c' } } })).error;
let thrown: { status: number; message: string } | undefined;
try {
  await createClient({ baseUrl }).balances('3f1c9a4e-6b2d-4e8f-9a7c-1d2e3f4a5b6c');
} catch (err) {
  if (err instanceof CompsimError) thrown = { status: err.status, message: err.message };
}
server.close();

const msw = setupServer(...handlers(world, { baseUrl: 'https://api.example' }));
msw.listen({ onUnhandledRequest: 'error' });
const viaMsw = await createClient({ baseUrl: 'https://api.example', apiKey: ADMIN }).sim.now();
msw.close();

const demoUrl = process.env.DEMO_URL;
const demo = demoUrl ? await createClient({ baseUrl: demoUrl }).GET('/api/competitions', { params: { query: { status: 'active' } } }) : undefined;
console.log(JSON.stringify({
  health: health.data?.status, now: moved.now, price: price.price, raw, thrown, viaMsw: viaMsw.now,
  demo: demo?.data?.competitions.map((c) => c.name),
}));
`;

describe('the published package (npm pack, installed into an outside project)', function () {
  this.timeout(600_000);
  let work: string;
  let consumer: string;
  let installed: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'compsim-pack-'));
    consumer = join(work, 'consumer');
    // `npm pack` runs `prepare` (the build), so the tarball holds what a publish would.
    const tarball = packedTarball();
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // Offline from the npm cache when it has everything (a machine that ran `npm ci`), else from the registry.
    const pinned = (name: string) => `${name}@${PKG.devDependencies[name]}`;
    const install = npm(['install', '--prefer-offline', ...NPM_ARGS, tarball, pinned('msw'), pinned('@types/node')], consumer);
    expect(install.status, install.out).to.equal(0);
    installed = join(consumer, 'node_modules', 'compsim');
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true, skipLibCheck: false, types: ['node'], outDir: 'out',
      },
      include: ['bot.ts', 'clients-doc-*.ts'],
    }));
    writeFileSync(join(consumer, 'bot.ts'), PROGRAM);
    // docs/clients.md's snippets as a user pastes them into an ES module project (names they leave to the reader declared first).
    const snippets = [...readFileSync(join(ROOT, 'docs', 'clients.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(snippets).to.have.length(2);
    const given = "import { createClient } from 'compsim/client';\ndeclare const SERVER_KEY: string, USDC: string, SOL: string;\n";
    snippets.forEach((text, i) => writeFileSync(join(consumer, `clients-doc-${i + 1}.ts`), i === 0 ? text : `${given}${text}`));
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  it('installs with its declared dependencies: every export and the bundled fixtures are in the tarball', () => {
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string; exports: Record<string, { types: string; default: string }> };
    expect(pkg.version).to.equal(PKG.version);
    expect(Object.keys(pkg.exports)).to.deep.equal(['.', './msw', './client']);
    for (const [name, e] of Object.entries(pkg.exports)) {
      for (const file of [e.types, e.default]) expect(statSync(join(installed, file)).isFile(), `${name}: ${file}`).to.equal(true);
    }
    expect(statSync(join(installed, 'fixtures', 'worlds', 'demo.json')).isFile()).to.equal(true);
    expect(statSync(join(installed, 'examples', 'momentum-bot.ts')).isFile(), 'the example the docs link to').to.equal(true);
    expect(statSync(join(consumer, 'node_modules', 'openapi-fetch', 'package.json')).isFile()).to.equal(true);
  });

  it('imports only node built-ins and packages it declares in its declarations', () => {
    const undeclared = new Set<string>();
    for (const file of declarationFiles(join(installed, 'dist'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\()\s*['"]([^'".][^'"]*)['"]/g)) {
        const spec = m[1]!;
        if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
        const name = packageOf(spec);
        if (!DECLARED.includes(name) && !DECLARED.includes(typesPackage(name))) undeclared.add(name);
      }
    }
    expect([...undeclared]).to.deep.equal([]);
  });

  it('type-checks a program importing compsim, compsim/msw and compsim/client and the docs\' client snippets (strict, skipLibCheck off), and runs the program', async () => {
    const checked = sh(process.execPath, [TSC, '-p', join(consumer, 'tsconfig.json')], consumer);
    expect(checked.out).to.equal('');
    expect(checked.status).to.equal(0);

    // The bundled world by name, from the outside project's directory, through the installed bin.
    const serve = spawn(join(consumer, 'node_modules', '.bin', 'compsim'), ['serve', '--port', '0', '--world', 'demo', '--log-level', 'silent'], { cwd: consumer });
    try {
      let banner = '';
      const demoUrl = await new Promise<string>((resolve, reject) => {
        serve.stdout.on('data', (d: Buffer) => {
          banner += d.toString();
          const m = banner.match(/listening on (http:\/\/127\.0\.0\.1:\d+)[\s\S]*try:/);
          if (m) resolve(m[1]!);
        });
        serve.on('exit', () => reject(new Error(`compsim serve exited: ${banner}`)));
      });
      const ran = spawnSync(process.execPath, [join(consumer, 'out', 'bot.js')], { cwd: consumer, encoding: 'utf8', env: { ...process.env, DEMO_URL: demoUrl } });
      expect(ran.stderr).to.equal('');
      expect(ran.status).to.equal(0);
      expect(JSON.parse(ran.stdout)).to.deep.equal({
        health: 'ok', now: '2025-01-01T00:05:00.000Z', price: 150, viaMsw: '2025-01-01T00:05:00.000Z', demo: ['Demo Spring Cup'],
        raw: { success: false, error: '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY' },
        thrown: { status: 401, message: '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY' },
      });
    } finally {
      serve.kill('SIGINT');
    }
  });
});
