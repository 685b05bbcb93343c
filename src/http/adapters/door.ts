// The one door: every request (compsim serve, the msw handlers, the in-process target) runs the same Koa middleware: world selection, koa-bodyparser, the route table on @koa/router, dispatch, the journal.
import Koa, { type Context, type Middleware } from 'koa';
import bodyParser from 'koa-bodyparser';
import compose from 'koa-compose';
import { ServerResponse, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { ANONYMOUS } from '../../domain/access/auth.js';
import type { Principal } from '../../domain/model.js';
import { dispatch, flatHeaders, type RouteMatch } from '../dispatch.js';
import { HttpError, toErrorResponse } from '../envelope.js';
import type { HttpWorld, RouteDef } from '../route.js';
import { routeTable } from '../route-table.js';
import { ROUTES } from '../resources/index.js';
import { splitWorldPath, type WorldsControl } from '../worlds.js';

/** Largest request body (koa-bodyparser's limit for JSON and forms). */
const BODY_LIMIT = '1mb';
/** Largest body of `POST /api/sim/load`, a whole world document (JSON only). */
const LOAD_BODY_LIMIT = '200mb';
/** The one path with the larger limit (when the table serves it). */
const LOAD_PATH = '/api/sim/load';
/** The 400 message of a body that is not strict JSON. */
const INVALID_JSON_MESSAGE = 'Invalid JSON in request body';
/** The 400 message of a body holding a `__proto__` key (well-formed JSON, refused so no object's prototype can be set from outside). */
export const PROTO_KEY_MESSAGE = 'Invalid request body: a "__proto__" key is not allowed (at any depth)';

/** Options of {@link createDoor}. */
export interface DoorOptions {
  /** Route table (default: every compsim route, the sim API's included). */
  routes?: readonly RouteDef[];
  /** The server's other worlds: `/worlds/{id}/...` goes to that world with the prefix taken off; an unknown id is a JSON 404. */
  worlds?: Pick<WorldsControl, 'acquire' | 'release'>;
  /** Receives unexpected errors (the 500s, which are always bugs). */
  onBug?: (err: unknown) => void;
  /** Middleware run after world selection and before the API: `compsim serve`'s web pages. */
  pages?: Middleware;
  /** Waits `ms` of wall time for a latency fault; without it latency faults add nothing (no socket to hold). */
  delay?: (ms: number) => Promise<void>;
  /** Words added, in parentheses, to the 404 of a path no route serves: e.g. how to turn on what would serve it. */
  unservedHint?: (path: string) => string | undefined;
}

/** A plain request: what any transport hands the door. */
export interface DoorRequest {
  method: string;
  /** Path as requested, any `/worlds/{id}` prefix included, without the query string. */
  path: string;
  /** The query string (without `?`) or its parameters. */
  query?: string | Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The body's bytes or text, as sent (a `content-encoding` is undone by the parser). */
  body?: string | Uint8Array;
  /** Client address (default `127.0.0.1`). */
  ip?: string;
}

/** A plain answer. */
export interface DoorResponse {
  status: number;
  headers: Record<string, string>;
  /** The body's text as sent (empty when there is none). */
  text: string;
  /** The body before it was serialised (undefined when the answer came from a web page). */
  body: unknown;
  principal: Principal;
  routeId: string | null;
}

/** What the door keeps on `ctx.state` while it answers. */
export interface DoorState {
  /** The world the request goes to. */
  world: HttpWorld;
  /** `/worlds/{id}` when a created world was selected. */
  basePath?: string;
  principal?: Principal;
  routeId?: string | null;
  /** The API answer's body before serialisation (what the test mode checks). */
  answer?: unknown;
  /** Its text, serialised once (what is sent). */
  text?: string;
  /** The headers the API answer set (content type included). */
  headers?: Record<string, string>;
}

/** The door: its middleware (for a Koa app) and the same middleware run on a request without a socket. */
export interface Door {
  /** The door's middleware serving `world` by default, in order, for `app.use`. */
  middleware(world: HttpWorld): Middleware[];
  /** Answers one plain request in `world` (a Koa context without a socket, through the same middleware). */
  serve(world: HttpWorld, req: DoorRequest): Promise<DoorResponse>;
}

const stateOf = (ctx: Context) => ctx.state as DoorState;

/** The request's path; the raw target when it has none (`CONNECT host:443`, `OPTIONS *`), which Koa reads as a null path. */
export function pathOf(ctx: Context): string {
  return ctx.path ?? ctx.url;
}

/** The content type of every API answer. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Sets a JSON answer, serialised once (or already, `json`): the text is what Koa sends and what the door hands back. */
export function sendJson(ctx: Context, status: number, body: unknown, headers: Record<string, string> = {}, json?: string): void {
  const state = stateOf(ctx);
  ctx.status = status;
  ctx.set(headers);
  ctx.set('Content-Type', JSON_TYPE);
  state.headers = { ...headers, 'content-type': JSON_TYPE };
  state.answer = body;
  ctx.body = state.text = json ?? JSON.stringify(body);
}

/** The envelope error of a koa-bodyparser failure: malformed -> 400, over the limit -> 413. */
function bodyError(err: unknown, load: boolean): unknown {
  const e = err as { status?: number; type?: string };
  if (e.status === 413 || e.type === 'entity.too.large') return new HttpError(413, `Request body too large (limit ${load ? '200' : '1'} MB)`);
  // koa-bodyparser's JSON parser (@hapi/bourne) says which refusal it was only in its message.
  if (err instanceof SyntaxError && /forbidden prototype property/.test(err.message)) return new HttpError(400, PROTO_KEY_MESSAGE);
  if (e.status === 400 || e.type === 'entity.parse.failed') return new HttpError(400, INVALID_JSON_MESSAGE);
  if (e.status === 415) return new HttpError(415, 'Unsupported request body encoding');
  // A corrupt gzip, deflate or brotli body fails inside zlib, without a status: still the request's fault.
  if (e.status === undefined) return new HttpError(400, 'Invalid request body encoding');
  return err;
}

/** Builds the door over `options.routes` (the route table is built once, here). */
export function createDoor(options: DoorOptions = {}): Door {
  const defs = options.routes ?? ROUTES;
  const { onBug, worlds, delay } = options;
  /** Runs dispatch for the route @koa/router matched (null: none) and sets its answer. */
  const answer = async (ctx: Context, match: RouteMatch | null): Promise<void> => {
    const state = stateOf(ctx);
    const res = await dispatch(state.world, match, {
      method: ctx.method, path: pathOf(ctx), headers: ctx.headers, query: ctx.query, body: ctx.request.body, ip: ctx.ip,
    }, onBug);
    state.principal = res.principal;
    state.routeId = res.routeId;
    // A 404 without a route is the unknown-route answer (a routed 404 has its route id).
    const hint = res.status === 404 && res.routeId === null ? options.unservedHint?.(pathOf(ctx)) : undefined;
    if (hint === undefined) return sendJson(ctx, res.status, res.body, res.headers, res.json);
    const body = res.body as { error: string };
    sendJson(ctx, res.status, { ...body, error: `${body.error} (${hint})` }, res.headers);
  };
  const table = routeTable(defs, (def) => (ctx) => answer(ctx, { def, params: ctx.params }));
  const stages = [
    ...(worlds ? [selectWorld(worlds, onBug)] : []),
    ...(options.pages ? [options.pages] : []),
    journal(onBug, delay),
    readBody(defs.some((d) => d.path === LOAD_PATH)),
    (ctx: Context, next: () => Promise<unknown>) => (table.routerFor(pathOf(ctx)) as Stage | undefined)?.(ctx, next) ?? next(),
    (ctx: Context) => answer(ctx, null),
  ] as Middleware[];
  const run = compose(stages);
  // Only its context prototypes are used: a socketless request gets the context Koa would give it.
  const app = new Koa();
  return {
    middleware: (world) => [(ctx, next) => {
      stateOf(ctx).world = world;
      return next();
    }, ...stages],
    async serve(world, req) {
      const incoming = socketlessRequest(req);
      const ctx = app.createContext(incoming, new ServerResponse(incoming));
      const state = stateOf(ctx);
      state.world = world;
      await run(ctx);
      return {
        status: ctx.status, headers: state.headers ?? flatHeaders(ctx.response.headers), text: textOf(ctx), body: state.answer,
        principal: state.principal ?? ANONYMOUS, routeId: state.routeId ?? null,
      };
    },
  };
}

/** `/worlds/{id}/rest`: the rest of the path, in that world (counted as in use until answered); an unknown or damaged world's error otherwise. */
function selectWorld(worlds: Pick<WorldsControl, 'acquire' | 'release'>, onBug: DoorOptions['onBug']): Middleware {
  return (ctx, next) => {
    const split = splitWorldPath(pathOf(ctx));
    if (!split) return next();
    let target: HttpWorld;
    try {
      target = worlds.acquire(split.id);
    } catch (err) {
      const { status, body } = toErrorResponse(err, onBug);
      sendJson(ctx, status, body);
      return undefined;
    }
    Object.assign(stateOf(ctx), { world: target, basePath: `/worlds/${split.id}` });
    ctx.path = split.rest;
    return next().finally(() => worlds.release(split.id));
  };
}

/**
 * Answers a body the parser refused (with the envelope, without a principal or a route), then
 * journals every API answer and holds it for a latency fault.
 */
function journal(onBug: DoorOptions['onBug'], delay: DoorOptions['delay']): Middleware {
  return async (ctx, next) => {
    const state = stateOf(ctx);
    try {
      await next();
    } catch (err) {
      const { status, body } = toErrorResponse(err, onBug);
      sendJson(ctx, status, body);
    }
    const path = pathOf(ctx);
    state.world.sim?.record({ method: ctx.method, path, status: ctx.status, principal: state.principal ?? ANONYMOUS, routeId: state.routeId ?? null });
    // Latency faults wait here, in the transport only: domain and http code never touch timers.
    const latency = delay ? state.world.sim?.latencyMs(path) ?? 0 : 0;
    if (latency > 0) await delay!(latency);
  };
}

/** A middleware as the door runs it (Koa's and the router's types say it returns `any`). */
type Stage = (ctx: Context, next: () => Promise<unknown>) => Promise<unknown>;

/** koa-bodyparser: strict JSON and forms up to 1 MB, a world document up to 200 MB on {@link LOAD_PATH}; its failures become envelope errors. */
function readBody(loadServed: boolean): Middleware {
  const refuse = (load: boolean) => (err: Error) => {
    throw bodyError(err, load);
  };
  const parse: Stage = bodyParser({ jsonLimit: BODY_LIMIT, formLimit: BODY_LIMIT, enableTypes: ['json', 'form'], strict: true, onerror: refuse(false) });
  const parseLoad: Stage = bodyParser({ jsonLimit: LOAD_BODY_LIMIT, enableTypes: ['json'], strict: true, onerror: refuse(true) });
  return (ctx, next) => (loadServed && pathOf(ctx) === LOAD_PATH ? parseLoad : parse)(ctx, next);
}

/** A request without a socket, as Node would hand it to Koa: a stream of the body's bytes with its head. */
function socketlessRequest(req: DoorRequest): IncomingMessage {
  const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
  const headers: Record<string, string | string[]> = {};
  for (const k in req.headers) {
    const v = req.headers[k];
    if (v !== undefined) headers[k.toLowerCase()] = v;
  }
  // The length is the body's own (a stated one could disagree with it); without a body there is none.
  delete headers['transfer-encoding'];
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  else delete headers['content-length'];
  const query = typeof req.query === 'string' ? req.query : queryString(req.query);
  const stream = new Readable({
    read() {
      if (body !== undefined) this.push(body);
      this.push(null);
    },
  });
  return Object.assign(stream, {
    method: req.method.toUpperCase(), url: query === '' ? req.path : `${req.path}?${query}`, headers,
    httpVersion: '1.1', httpVersionMajor: 1, httpVersionMinor: 1, socket: { remoteAddress: req.ip ?? '127.0.0.1' },
  }) as unknown as IncomingMessage;
}

/** `a=1&b=2` of query parameters ('' for none). */
function queryString(query: Record<string, string> | undefined): string {
  for (const _ in query) return new URLSearchParams(query).toString();
  return '';
}

/** Statuses Koa sends without a body. */
const EMPTY_STATUS = new Set([204, 205, 304]);

/** The body's text as Koa would send it. */
function textOf(ctx: Context): string {
  if (EMPTY_STATUS.has(ctx.status) || ctx.method === 'HEAD') return '';
  const text = stateOf(ctx).text;
  if (text !== undefined) return text;
  const body: unknown = ctx.body;
  if (body === null || body === undefined) return '';
  if (typeof body === 'string') return body;
  return Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body);
}
