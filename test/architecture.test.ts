// Enforces the layering rules and the banned calls of docs/architecture.md by scanning source text.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const ALL = files(SRC).map((p) => ({ path: relative(ROOT, p).split('\\').join('/'), text: readFileSync(p, 'utf8') }));

/** Strips comments so prose about banned calls does not count. */
function code(text: string): string[] {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).split('\n').map((l) => l.replace(/(^|[^:'"`])\/\/.*$/, '$1'));
}

function imports(text: string): { spec: string; line: number }[] {
  const out: { spec: string; line: number }[] = [];
  code(text).forEach((l, i) => {
    for (const m of l.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) out.push({ spec: m[1]!, line: i + 1 });
  });
  return out;
}

/** Layer of a src-relative module path. */
function layer(p: string): string {
  const rel = p.replace(/^src\//, '');
  if (rel.startsWith('world/scheduler')) return 'scheduler';
  if (rel.startsWith('http/adapters/')) return 'transport';
  return rel.includes('/') ? rel.split('/')[0]! : rel.replace(/\.ts$/, '');
}

function resolve(from: string, spec: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const seg of spec.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/').replace(/\.js$/, '.ts');
}

const RULES: Record<string, (target: string) => boolean> = {
  domain: (t) => t.startsWith('src/domain/') || t.startsWith('src/ports/'),
  ports: (t) => t.startsWith('src/ports/'),
  adapters: (t) => t.startsWith('src/adapters/') || t.startsWith('src/ports/') || t === 'src/domain/model.ts' || t === 'src/domain/tables.ts',
  http: (t) => t.startsWith('src/http/') || t.startsWith('src/domain/') || t.startsWith('src/ports/'),
  // The transport adapters (Koa, msw, the web pages, the request log) translate to and from the http layer.
  transport: (t) => t.startsWith('src/http/') || t.startsWith('src/domain/') || t.startsWith('src/ports/'),
  scheduler: (t) => t.startsWith('src/domain/') || t.startsWith('src/ports/'),
  // The scenario harness is black-box: it speaks HTTP through a Target and imports nothing of the server.
  harness: (t) => t.startsWith('src/harness/'),
  // Research tools run worlds through the library API and scenarios through the harness; of the request
  // path they read only the documented response schemas (data), to check what a fork source answers.
  research: (t) => !t.startsWith('src/cli/') && (!t.startsWith('src/http/') || /^src\/http\/resources\/[a-z-]+\/response\.ts$/.test(t)),
  // A world wires everything but the command line and the research tools built on it.
  world: (t) => !t.startsWith('src/cli/') && !t.startsWith('src/research/'),
  // The typed client works against any server of the API: nothing of compsim but its generated types.
  client: (t) => t.startsWith('src/client/'),
  // The MCP server derives its tools from the route table and sends their requests through the request path (or fetch).
  mcp: (t) => t.startsWith('src/mcp/') || t.startsWith('src/http/'),
};

/** Packages each layer may import (layers not listed: any declared dependency). */
const PACKAGES: Record<string, RegExp> = {
  // Pure arithmetic only: rating updates and signature recovery.
  domain: /^(openskill|ethers)$/,
  ports: /^$/,
  adapters: /^node:/,
  http: /^(@koa\/router|ajv|ajv-formats|ajv\/dist\/2020\.js|msw)$/,
  transport: /^(@koa\/router|@koa\/cors|koa|koa-bodyparser|ajv|msw|pino|node:.+)$/,
  scheduler: /^$/,
  harness: /^(ajv|node:.+)$/,
  client: /^openapi-fetch$/,
  mcp: /^@modelcontextprotocol\/sdk\/[A-Za-z/]+\.js$/,
};

const BANNED: [RegExp, string][] = [
  [/Date\.now\(/, 'Date.now('],
  [/new Date\(\s*\)/, 'argument-less new Date()'],
  [/Math\.random\(/, 'Math.random('],
  [/randomUUID\(/, 'randomUUID('],
  [/setTimeout\(/, 'setTimeout('],
  [/process\.env/, 'process.env'],
];
const BANNED_IMPORTS = /^(node:)?fs(\/promises)?$|^koa$|^@koa\//;
const PURE = (p: string) => ['domain', 'http', 'scheduler', 'mcp'].includes(layer(p));

describe('architecture', () => {
  it('finds the source tree', () => {
    expect(ALL.length).to.be.greaterThan(20);
  });

  it('keeps every layer to its allowed imports', () => {
    const violations: string[] = [];
    for (const f of ALL) {
      const rule = RULES[layer(f.path)];
      if (!rule) continue;
      for (const { spec, line } of imports(f.text)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(f.path, spec);
        if (!rule(target)) violations.push(`${f.path}:${line} imports ${target}`);
      }
    }
    expect(violations, violations.join('\n')).to.deep.equal([]);
  });

  it('imports packages only as each layer may, and only packages the published package declares', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependencies?: Record<string, string> };
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})]);
    const violations: string[] = [];
    for (const f of ALL) {
      const allowed = PACKAGES[layer(f.path)];
      for (const { spec, line } of imports(f.text)) {
        if (spec.startsWith('.')) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!spec.startsWith('node:') && !declared.has(name)) violations.push(`${f.path}:${line} imports ${spec}, not a dependency`);
        if (allowed && !allowed.test(spec)) violations.push(`${f.path}:${line} imports ${spec}`);
      }
    }
    expect(violations, violations.join('\n')).to.deep.equal([]);
  });

  it('keeps the typed client to openapi-fetch and its generated types (it must work against any server of the API)', () => {
    const client = ALL.filter((f) => layer(f.path) === 'client');
    expect(client.map((f) => f.path)).to.include.members(['src/client/index.ts', 'src/client/openapi-types.ts']);
    const specs = new Set(client.flatMap((f) => imports(f.text).map(({ spec }) => (spec.startsWith('.') ? resolve(f.path, spec) : spec))));
    expect([...specs].sort()).to.deep.equal(['openapi-fetch', 'src/client/openapi-types.ts']);
  });

  it('keeps every source file in a layer folder (only the library entry is loose)', () => {
    const LAYERS = ['adapters', 'cli', 'client', 'domain', 'harness', 'http', 'mcp', 'ports', 'research', 'world'];
    const loose = ALL.filter((f) => /^src\/[^/]+\.ts$/.test(f.path)).map((f) => f.path);
    expect(loose).to.deep.equal(['src/index.ts']);
    const folders = [...new Set(ALL.map((f) => f.path.split('/')[1]!).filter((n) => !n.endsWith('.ts')))].sort();
    expect(folders).to.deep.equal(LAYERS);
  });

  it('keeps the CLI a leaf: only it imports from src/cli', () => {
    const violations: string[] = [];
    for (const f of ALL.filter((x) => layer(x.path) !== 'cli')) {
      for (const { spec, line } of imports(f.text)) {
        if (spec.startsWith('.') && resolve(f.path, spec).startsWith('src/cli/')) violations.push(`${f.path}:${line} imports ${spec}`);
      }
    }
    expect(violations, violations.join('\n')).to.deep.equal([]);
  });

  it('bans wall clock, randomness, timers, env, fs and koa in domain, http, the scheduler and the MCP server', () => {
    const violations: string[] = [];
    for (const f of ALL.filter((x) => PURE(x.path))) {
      code(f.text).forEach((l, i) => {
        for (const [re, what] of BANNED) if (re.test(l)) violations.push(`${f.path}:${i + 1} uses ${what}`);
      });
      for (const { spec, line } of imports(f.text)) {
        // The route table lives on @koa/router, which the msw handlers match against without Koa.
        if (BANNED_IMPORTS.test(spec) && !(layer(f.path) === 'http' && spec === '@koa/router')) violations.push(`${f.path}:${line} imports ${spec}`);
      }
    }
    expect(violations, violations.join('\n')).to.deep.equal([]);
  });

  it('keeps wall clock, randomness and timers out of the scenario harness', () => {
    const violations: string[] = [];
    const harness = ALL.filter((x) => layer(x.path) === 'harness');
    expect(harness.map((f) => f.path)).to.include('src/harness/runner.ts');
    for (const f of harness) {
      code(f.text).forEach((l, i) => {
        for (const [re, what] of BANNED.filter(([, w]) => w !== 'process.env')) if (re.test(l)) violations.push(`${f.path}:${i + 1} uses ${what}`);
      });
    }
    expect(violations, violations.join('\n')).to.deep.equal([]);
  });

  it('keeps store call bodies and functions that take a tx synchronous', () => {
    const violations: string[] = [];
    for (const f of ALL) {
      code(f.text).forEach((l, i) => {
        if (/\.(read|transact)\(\s*async\b/.test(l) || /\basync\b[^=]*\(\s*[^)]*\btx\??\s*:\s*(ReadTx|WriteTx)\b/.test(l)) violations.push(`${f.path}:${i + 1}`);
      });
    }
    expect(violations, violations.join('\n')).to.deep.equal([]);
  });

  it('keeps mutable state out of domain modules: caches belong to the world (deps.caches)', () => {
    // Lazy handles of libraries that load asynchronously (openskill, ethers) are process-wide and give the same functions whenever they load.
    const lazyLibraries = ['src/domain/rankings/rating.ts', 'src/domain/agents/wallet-verification.ts'];
    const violations: string[] = [];
    for (const f of ALL.filter((x) => x.path.startsWith('src/domain/') && !lazyLibraries.includes(x.path))) {
      code(f.text).forEach((l, i) => {
        if (/^let\s/.test(l) || /^(export\s+)?const\s.*\bnew\s+(Weak)?(Map|Set)(<.*>)?\(\s*\)/.test(l)) violations.push(`${f.path}:${i + 1}`);
      });
    }
    expect(violations, violations.join('\n')).to.deep.equal([]);
  });

  it('keeps each HTTP subject in one folder: its routes, request.ts, response.ts and serialize.ts', () => {
    const RES = 'src/http/resources/';
    const inResources = ALL.filter((f) => f.path.startsWith(RES)).map((f) => f.path.slice(RES.length));
    const misplaced = inResources.filter((p) => {
      const [folder, name, deeper] = p.split('/');
      if (name === undefined) return p !== 'index.ts';
      if (deeper !== undefined) return true;
      if (folder === 'shared') return false;
      return !/^[a-z-]+\.routes\.ts$/.test(name) && !['request.ts', 'response.ts', 'serialize.ts'].includes(name)
        && !(folder === 'legacy' && name === 'shared.ts');
    });
    expect(misplaced, 'files that break the naming rule').to.deep.equal([]);
    // Every routes file is mounted by the route table, and nothing outside resources/ declares routes.
    const table = ALL.find((f) => f.path === `${RES}index.ts`)!.text;
    const unmounted = inResources.filter((p) => p.endsWith('.routes.ts') && !table.includes(`'./${p.replace(/\.ts$/, '.js')}'`));
    expect(unmounted, 'routes files the table does not import').to.deep.equal([]);
    expect(ALL.filter((f) => f.path.endsWith('.routes.ts') && !f.path.startsWith(RES)).map((f) => f.path)).to.deep.equal([]);
  });

  it('gives every source file a header comment line', () => {
    const missing = ALL.filter((f) => !/^(#!.*\n)?\/\/ \S/.test(f.text)).map((f) => f.path);
    expect(missing).to.deep.equal([]);
  });

  it('keeps test files free of sleeps, wall clock and Math.random', () => {
    const tests = files(join(ROOT, 'test')).map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') }));
    const violations: string[] = [];
    for (const f of tests.filter((t) => !t.path.endsWith('architecture.test.ts'))) {
      code(f.text).forEach((l, i) => {
        if (/Math\.random\(|Date\.now\(|setTimeout\(|new Date\(\s*\)/.test(l)) violations.push(`${f.path}:${i + 1}`);
      });
    }
    expect(violations, violations.join('\n')).to.deep.equal([]);
  });
});
