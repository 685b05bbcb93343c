// Enforces the layering rules and the banned calls of docs/architecture.md by scanning source text.
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

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
  research: (t) => !t.startsWith('src/cli/') && (!t.startsWith('src/http/') || t === 'src/http/ajv.ts' || t === 'src/http/capped-text.ts' || /^src\/http\/resources\/[a-z-]+\/response\.ts$/.test(t)),
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
  transport: /^(@koa\/router|@koa\/cors|koa|koa-bodyparser|koa-compose|ajv|msw|pino|node:.+)$/,
  scheduler: /^$/,
  harness: /^(ajv|node:.+)$/,
  client: /^openapi-fetch$/,
  mcp: /^@modelcontextprotocol\/sdk\/[A-Za-z/]+\.js$/,
};

/**
 * The only module-level mutable state in src/ (docs/architecture.md lists it with the reasons):
 * what is made once per process, the same for every world, from what never changes while it runs.
 */
const MODULE_STATE: Record<string, string> = {
  'src/adapters/memory/table-data.ts: lastVersion': 'a process-wide counter, so a table version never names two contents, across stores and snapshots',
  'src/harness/schema.ts: schemaDoc': 'scenario.schema.json, read on first use',
  'src/http/adapters/web.ts: assets': "the static files' table, listed on first use",
  'src/http/resources/legacy/shared.ts: currentQuote': 'a request validator compiled on first use',
  'src/http/resources/shared/response.ts: COMPONENTS': 'the shared response shapes, registered as the response modules load',
  'src/http/response-check.ts: cache': 'response checkers compiled once per route table',
  'src/http/validate.ts: compiled': 'request validators compiled once per route, on its first request',
  'src/world/dump-check.ts: compiled': "a dump's row validators, compiled on first use",
  'src/world/world.ts: cachedVersion': "the package's version, read on first use",
};

/** Methods that change a Map, Set, array or typed array in place. */
const MUTATORS = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

/**
 * `path: name` of each module-level binding of a source file that is state: a top-level `let` or
 * `var`, or a top-level `const` the module changes (assigns or deletes a member of, calls a
 * mutating method of, `Object.assign`s into, or increments). A change made through another name
 * is not seen.
 */
function moduleState(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const consts = new Set<string>();
  for (const st of file.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const isConst = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) continue;
      if (isConst) consts.add(d.name.text);
      else out.push(`${path}: ${d.name.text}`);
    }
  }
  const changed = new Set<string>();
  const mark = (e: ts.Expression) => {
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isNonNullExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
    if (ts.isIdentifier(e) && consts.has(e.text)) changed.add(e.text);
  };
  const member = (e: ts.Expression) => ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e);
  const visit = (n: ts.Node): void => {
    const k = ts.isBinaryExpression(n) ? n.operatorToken.kind : null;
    if (ts.isBinaryExpression(n) && k! >= ts.SyntaxKind.FirstAssignment && k! <= ts.SyntaxKind.LastAssignment && member(n.left)) mark(n.left);
    if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) mark(n.operand);
    if (ts.isDeleteExpression(n)) mark(n.expression);
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      if (MUTATORS.has(n.expression.name.text)) mark(n.expression.expression);
      if (n.expression.getText(file) === 'Object.assign' && n.arguments[0]) mark(n.arguments[0]);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return [...out, ...[...changed].map((name) => `${path}: ${name}`)];
}

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

  it('keeps module-level mutable state in src/ to the documented list (caches belong to the world: deps.caches)', () => {
    // The scan itself: a let, a changed Map, a counter and an assigned member count; a constant table does not.
    const sample = 'let a = 1;\nconst m = new Map();\nconst n = { c: 0 };\nconst o: Record<string, number> = {};\nconst t = [1, 2];\n'
      + 'export function f(): void { m.set(1, 2); n.c++; o.x = t[0]!; }\n';
    expect(moduleState('x.ts', sample)).to.deep.equal(['x.ts: a', 'x.ts: m', 'x.ts: n', 'x.ts: o']);
    const found = ALL.flatMap((f) => moduleState(f.path, f.text)).sort();
    expect(found, 'module-level state not in MODULE_STATE (docs/architecture.md, "Module-level state")').to.deep.equal(Object.keys(MODULE_STATE).sort());
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
