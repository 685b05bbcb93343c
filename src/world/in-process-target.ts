// The in-process scenario target: a fresh world per scenario, requests through the shared request path without sockets.
import type { WorldOptions } from './config.js';
import { findRoute, routeTable, serveRequest, type RouteTable } from '../http/dispatch.js';
import { LOAD_PATH, readBodyText } from '../http/body-text.js';
import { ROUTES } from '../http/resources/index.js';
import type { Target } from '../harness/targets.js';
import type { Json } from '../harness/types.js';
import { createWorld, type World } from './world.js';

/** Admin key of in-process worlds (redacted from response logs, so any fixed key gives the same hash). */
export const IN_PROCESS_ADMIN_KEY = '5ce0a10000000000_00000000000a10ce';

let table: RouteTable | undefined;

/** What crosses the wire: one JSON round trip (drops `undefined`, turns non-finite numbers into null); no body for null. */
function wire(value: unknown): Json | undefined {
  const text = value === null ? undefined : JSON.stringify(value);
  return text === undefined ? undefined : (JSON.parse(text) as Json);
}

/**
 * A target that builds a world from each scenario's seed, start time and world options and
 * serves it (sim API included) through {@link serveRequest}, the same code path Koa uses.
 */
export function inProcessTarget(): Target {
  let world: World | undefined;
  table ??= routeTable(ROUTES);
  return {
    label: 'in-process',
    async begin(sc) {
      const { seed, startTime, world: options } = sc.doc;
      world = await createWorld({ ...(options as WorldOptions), seed, startTime, admin: { apiKey: IN_PROCESS_ADMIN_KEY } });
      return { adminKey: IN_PROCESS_ADMIN_KEY };
    },
    async send(req) {
      if (!world) throw new Error('in-process target: begin() was not called');
      const withBody = req.body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
      // The body is the JSON text the HTTP target would send, read as compsim serve reads it.
      const readBody = () => (withBody ? readBodyText(JSON.stringify(req.body), req.headers['content-type'] ?? 'application/json', req.path === LOAD_PATH) : undefined);
      // dispatch copies headers and query itself (handlers never see the runner's objects).
      const res = await serveRequest(world, findRoute(table!, req.method, req.path), { method: req.method, path: req.path, headers: req.headers, query: req.query, ip: '127.0.0.1', readBody });
      return { status: res.status, body: wire(res.body) };
    },
    close: async () => {
      world = undefined;
    },
  };
}
