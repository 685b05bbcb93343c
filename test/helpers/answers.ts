// Test helper: every answer a test obtains (test servers, msw, the in-process target, direct dispatch) is checked against its documented response schema; a root hook fails the test during which one did not match.
import type { SetupServer } from 'msw/node';
import type { DoorResponse } from '../../src/http/adapters/door.js';
import { createResponseChecker, type ResponseViolation } from '../../src/http/response-check.js';
import type { RouteDef } from '../../src/http/route.js';
import { ROUTES } from '../../src/http/resources/index.js';
import { splitWorldPath } from '../../src/http/worlds.js';
import type { Target } from '../../src/harness/targets.js';
import { inProcessTarget } from '../../src/world/in-process-target.js';

/**
 * Answers that did not match their documented response schema (src/http/resources/<subject>/response.ts).
 * Test servers report theirs here too (`onResponseViolation`).
 */
export const responseViolations: ResponseViolation[] = [];

/** Checks still reading a body (msw answers are read asynchronously); the root hook waits for them. */
const pending = new Set<Promise<void>>();

function violationsError(): Error | null {
  if (responseViolations.length === 0) return null;
  const list = responseViolations.splice(0);
  return new Error(`${list.length} response(s) did not match the documented schema (src/http/resources/*/response.ts):\n  ${list.map((v) => v.message).join('\n  ')}`);
}

// Registered once, at the root suite, by the first test file that imports this helper. `error()` on
// the hook fails the test that just ran (a throwing root hook would abort every later test instead).
if (typeof afterEach === 'function') {
  afterEach('documented responses', async function () {
    await Promise.all([...pending]);
    const err = violationsError();
    if (err) (this.test as Mocha.Hook).error(err);
  });
  after('documented responses', async () => {
    await Promise.all([...pending]);
    const err = violationsError();
    if (err) throw err;
  });
}

const checker = createResponseChecker();

/** Each route's path as a pattern, literal routes first (as the route table registers them: the first match answers). */
const MATCHERS: { def: RouteDef; re: RegExp }[] = [...ROUTES]
  .sort((a, b) => a.path.split('{').length - b.path.split('{').length)
  .map((def) => ({ def, re: new RegExp(`^${def.path.replace(/\./g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`) }));

/** The id of the route `method path` matches, or null. */
function routeOf(method: string, path: string): string | null {
  return MATCHERS.find((m) => m.def.method === method && m.re.test(path))?.def.id ?? null;
}

/** An answer as a test saw it. `path` may carry a query string and a `/worlds/{id}` prefix; `routeId` when the caller knows it. */
export interface SeenAnswer { method: string; path: string; status: number; body: unknown; routeId?: string | null }

/**
 * Checks one answer against the schema its route documents for its status. The route is found as
 * the server finds it; a 404 naming the request (`Cannot GET /x`: a route the world's API version
 * lacks answers so) or an unknown world is checked as unrouted, like any answer before routing.
 */
export function checkAnswer(a: SeenAnswer): void {
  const path = a.path.split('?')[0]!;
  const world = splitWorldPath(path);
  const inWorld = world?.rest ?? path;
  const method = a.method.toUpperCase();
  const error = a.status === 404 ? (a.body as { error?: unknown } | null)?.error : undefined;
  // Answered before routing: a route nobody serves (or the world's API version lacks), an unknown world.
  const unknownRoute = error !== undefined && (error === `Cannot ${method} ${inWorld}` || (world !== null && error === `World not found: ${world.id}`));
  const routeId = a.routeId !== undefined ? a.routeId : unknownRoute ? null : routeOf(method, inWorld);
  const v = checker.check({ routeId, method, path: inWorld, status: a.status, body: a.body });
  if (v) responseViolations.push(v);
}

/** `checkAnswer` for an answer of the door (`door.serve`), which knows its route. */
export function checkServed<R extends Pick<DoorResponse, 'status' | 'body' | 'routeId'>>(method: string, path: string, res: R): R {
  checkAnswer({ method, path, status: res.status, body: res.body, routeId: res.routeId });
  return res;
}

/** `inner`, with every answer it returns checked. */
export function checkedTarget(inner: Target): Target {
  return {
    ...inner,
    async send(req) {
      const res = await inner.send(req);
      checkAnswer({ method: req.method, path: req.path, status: res.status, body: res.body });
      return res;
    },
  };
}

/** The in-process target of the scenario harness, its answers checked. */
export function checkedInProcessTarget(): Target {
  return checkedTarget(inProcessTarget());
}

/** Checks every answer `server`'s handlers give (msw's `response:mocked` event); JSON answers only, as every API answer is. */
export function checkMswAnswers(server: SetupServer): void {
  server.events.on('response:mocked', ({ request, response }) => {
    if (!(response.headers.get('content-type') ?? '').includes('json')) return;
    const url = new URL(request.url);
    const check = response.clone().json().then(
      (body: unknown) => checkAnswer({ method: request.method, path: url.pathname, status: response.status, body }),
      () => undefined,
    ).finally(() => pending.delete(check));
    pending.add(check);
  });
}
