// Koa middleware for what is not an API route: the OpenAPI document, Swagger UI at /api/docs and the dashboard at / (static files from src/ui and node_modules).
import type { ApiVersion } from '../../domain/versions.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';
import { buildOpenApi, type OpenApiDocument } from '../openapi.js';
import type { RouteDef } from '../route.js';
import { ROUTES } from '../resources/index.js';

/** Options of {@link webPages}. */
export interface WebOptions {
  /** Document `/api/sim/*` (the server serves it). */
  simApi: boolean;
  /** `info.version` of the document. */
  version: string;
  /** Route table the document describes (default: every compsim route). */
  routes?: readonly RouteDef[];
  /** The API version of the world a request goes to, now (a reset may change it); the document describes that version. */
  apiVersion?: (ctx: Parameters<Middleware>[0]) => ApiVersion;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.json': 'application/json; charset=utf-8',
};

/** `src/ui` of this package: the same place from `src/http/adapters/web.ts` (tsx) and `dist/http/adapters/web.js` (built). */
export const UI_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'src', 'ui');

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** A static file: its content type and a lazy reader (files are read once). */
interface Asset { type: string; read: () => Buffer }

function asset(path: string): Asset {
  let data: Buffer | undefined;
  const ext = path.slice(path.lastIndexOf('.'));
  return { type: TYPES[ext] ?? 'application/octet-stream', read: () => (data ??= readFileSync(path)) };
}

/** URL path -> file: the dashboard's own files, Swagger UI's and uPlot's (fixed names only, so nothing else on disk is reachable). */
function assetTable(): Map<string, Asset> {
  const table = new Map<string, Asset>();
  if (existsSync(UI_DIR)) {
    for (const name of readdirSync(UI_DIR)) if (/^[a-z0-9-]+\.(html|js|css|svg)$/.test(name)) table.set(`/ui/${name}`, asset(join(UI_DIR, name)));
  }
  const swagger = packageDir('swagger-ui-dist');
  for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']) table.set(`/api/docs/${name}`, asset(join(swagger, name)));
  const uplot = join(packageDir('uplot'), 'dist');
  table.set('/ui/vendor/uPlot.esm.js', asset(join(uplot, 'uPlot.esm.js')));
  table.set('/ui/vendor/uPlot.min.css', asset(join(uplot, 'uPlot.min.css')));
  return table;
}

let assets: Map<string, Asset> | undefined;

/**
 * Koa middleware serving `GET /api/openapi.json`, `GET /api/docs` (Swagger UI; "Try it out" calls
 * this server; under `/worlds/{id}` that world), `GET /` and `/ui` (the dashboard) and their static files; every other request goes
 * on to the API.
 */
export function webPages(options: WebOptions): Middleware {
  const table = (assets ??= assetTable());
  const docs = new Map<ApiVersion, OpenApiDocument>();
  const pages: Record<string, string> = { '/': '/ui/index.html', '/ui': '/ui/index.html', '/ui/': '/ui/index.html', '/api/docs': '/ui/docs.html', '/api/docs/': '/ui/docs.html' };
  return (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/api/openapi.json') {
      const apiVersion = options.apiVersion?.(ctx) ?? 'spec';
      let doc = docs.get(apiVersion);
      if (!doc) docs.set(apiVersion, (doc = buildOpenApi(options.routes ?? ROUTES, { version: options.version, simApi: options.simApi, apiVersion })));
      ctx.set('Cache-Control', 'no-cache');
      // Under /worlds/{id} the document names that base path, so "Try it out" calls the world.
      const basePath = (ctx.state as { basePath?: string }).basePath;
      ctx.body = basePath ? { ...doc, servers: [{ url: basePath, description: `world ${basePath.slice('/worlds/'.length)}` }] } : doc;
      return;
    }
    if (ctx.path === '/api/docs/init.js') {
      ctx.type = TYPES['.js']!;
      ctx.body = table.get('/ui/docs-init.js')?.read();
      return;
    }
    const file = table.get(pages[ctx.path] ?? ctx.path);
    if (!file) return next();
    ctx.type = file.type;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = file.read();
  };
}
