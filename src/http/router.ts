// Route table compilation and matching: OpenAPI-style paths to regexes, compiled validators per route.
import type { RouteDef } from './route.js';
import { compileValidators, type RouteValidators } from './validate.js';

/** A route ready for dispatch. */
export interface CompiledRoute { def: RouteDef; regex: RegExp; paramNames: string[]; validators: RouteValidators }

/** The compiled route table. */
export interface RouteTable { routes: CompiledRoute[] }

/** Compiles routes once (Ajv compilation is the expensive part). */
export function compileRoutes(defs: readonly RouteDef[]): RouteTable {
  const seen = new Set<string>();
  const routes = defs.map((def) => {
    const sig = `${def.method} ${def.path}`;
    if (seen.has(sig)) throw new Error(`duplicate route ${sig}`);
    seen.add(sig);
    const paramNames: string[] = [];
    const pattern = def.path.split('/').map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(m[1]!);
      return '([^/]+)';
    }).join('/');
    return { def, regex: new RegExp(`^${pattern}/?$`), paramNames, validators: compileValidators(def) };
  });
  return { routes };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Finds the route for a method and path; literal routes win over parameterised ones of the same shape. */
export function matchRoute(table: RouteTable, method: string, path: string): { route: CompiledRoute; params: Record<string, string> } | null {
  let best: { route: CompiledRoute; params: Record<string, string> } | null = null;
  for (const route of table.routes) {
    if (route.def.method !== method) continue;
    const m = route.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.paramNames.forEach((n, i) => (params[n] = decode(m[i + 1]!)));
    if (!best || route.paramNames.length < best.route.paramNames.length) best = { route, params };
  }
  return best;
}
