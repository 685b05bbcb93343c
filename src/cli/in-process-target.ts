// The in-process scenario target: a fresh world per scenario, requests through dispatch without sockets.
import type { WorldOptions } from '../config.js';
import { ANONYMOUS } from '../domain/auth.js';
import { dispatch } from '../http/dispatch.js';
import { toErrorResponse } from '../http/envelope.js';
import { BODY_LIMIT_BYTES, copyPlainBody, LOAD_PATH, NOT_PLAIN, readBodyText } from '../http/body-text.js';
import { compileRoutes, type RouteTable } from '../http/router.js';
import { ROUTES } from '../http/routes/index.js';
import { parseBody, type Target, type TargetResponse } from '../sim/scenario/targets.js';
import type { Json } from '../sim/scenario/types.js';
import { createWorld, type World } from '../world.js';

/** Admin key of in-process worlds (redacted from response logs, so any fixed key gives the same hash). */
export const IN_PROCESS_ADMIN_KEY = '5ce0a10000000000_00000000000a10ce';

let table: RouteTable | undefined;

/**
 * What crosses the wire: JSON text and back (drops `undefined`, turns non-finite numbers into null).
 * Plain JSON data is copied instead, with the same result.
 */
function wire(value: unknown): Json | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return parseBody(value);
  const copied = copyPlainBody(value, Infinity);
  if (copied !== NOT_PLAIN) return copied as Json;
  const text = JSON.stringify(value);
  return text === undefined ? undefined : parseBody(text);
}

/**
 * An object answer as the runner sees it: the log writes `sent` as it is, and `body` (the answer's
 * JSON round trip) is made on first read. The runner reads it within the same step, before the
 * world can change the answer's objects.
 */
class ObjectResponse implements TargetResponse {
  private parsed: Json | undefined;
  private done = false;

  constructor(readonly status: number, readonly sent: object) {}

  get body(): Json | undefined {
    if (!this.done) {
      this.parsed = wire(this.sent);
      this.done = true;
    }
    return this.parsed;
  }
}

/**
 * A target that builds a world from each scenario's seed, start time and world options and
 * serves it (sim API included) through {@link dispatch}, the same code path Koa uses.
 */
export function inProcessTarget(): Target {
  let world: World | undefined;
  table ??= compileRoutes(ROUTES);
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
      let body: unknown;
      try {
        // The JSON text the HTTP target would send, read as compsim serve reads it (limits, strict JSON,
        // Content-Type); plain JSON data sent as JSON is copied instead, with the same result.
        if (withBody) {
          const type = req.headers['content-type'];
          const load = req.path === LOAD_PATH;
          const copied = !load && (type === undefined || type === 'application/json') ? copyPlainBody(req.body, BODY_LIMIT_BYTES) : NOT_PLAIN;
          body = copied !== NOT_PLAIN ? copied : readBodyText(JSON.stringify(req.body), type ?? 'application/json', load);
        }
      } catch (err) {
        const refused = toErrorResponse(err);
        world.sim.record({ method: req.method, path: req.path, status: refused.status, principal: ANONYMOUS, routeId: null });
        return { status: refused.status, body: wire(refused.body) };
      }
      // dispatch copies headers and query itself (handlers never see the runner's objects). Koa's body
      // parser gives {} for a request without a body; dispatch does the same for undefined.
      const res = await dispatch(world, table!, { method: req.method, path: req.path, headers: req.headers, query: req.query, body, ip: '127.0.0.1' });
      world.sim.record({ method: req.method, path: req.path, status: res.status, principal: res.principal, routeId: res.routeId });
      if (typeof res.body === 'object' && res.body !== null) return new ObjectResponse(res.status, res.body);
      return { status: res.status, body: wire(res.body) };
    },
    close: async () => {
      world = undefined;
    },
  };
}
