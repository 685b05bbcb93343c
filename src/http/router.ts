// Route table compilation and matching: OpenAPI-style paths to regexes, compiled validators per route.
import type { RouteDef } from './route.js';
import { compileValidators, type RouteValidators } from './validate.js';

/** A route ready for dispatch. */
export interface CompiledRoute { def: RouteDef; regex: RegExp; paramNames: string[]; validators: RouteValidators }

/** The compiled route table. */
export interface RouteTable {
  routes: CompiledRoute[];
  /** Routes without path parameters by method, then path (a literal route always wins, so no other regex is run for them). */
  literal?: Map<string, Map<string, CompiledRoute>>;
}

/** Compiles the route table once (each route's validators on its first use: Ajv compilation is the expensive part). */
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
    // Ajv compiles a route's schemas on its first request, not here: compiling all of them took
    // about a quarter of a second of `compsim serve`'s start-up, most for routes a run never calls.
    let validators: RouteValidators | undefined;
    return {
      def, regex: new RegExp(`^${pattern}/?$`), paramNames,
      get validators() {
        return (validators ??= compileValidators(def));
      },
    };
  });
  const literal = new Map<string, Map<string, CompiledRoute>>();
  for (const r of routes) {
    if (r.paramNames.length > 0) continue;
    let byPath = literal.get(r.def.method);
    if (byPath === undefined) literal.set(r.def.method, (byPath = new Map()));
    byPath.set(r.def.path, r);
  }
  return { routes, literal };
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
  // Exact literal paths (with or without one trailing slash) are a map lookup: they beat any parameterised match.
  const exact = table.literal?.get(method)?.get(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
  if (exact && exact.regex.test(path)) return { route: exact, params: {} };
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
