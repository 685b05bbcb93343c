// `compsim/client`: a typed HTTP client for the competition API (and compsim's simulation control API and worlds), openapi-fetch over the generated document types; shortcuts throw CompsimError.
import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './openapi-types.js';

export type { components, operations, paths };

/** The error envelope every error answer carries: `{ success: false, error: "<message>" }`. */
export type ErrorResponse = components['schemas']['ErrorResponse'];
/** Body of `POST /api/trade/execute`. */
export type TradeRequest = NonNullable<operations['trade.execute']['requestBody']>['content']['application/json'];
/** A parent chain (`evm`, `svm`) or a specific chain (`eth`, `base`, `svm`, ...). */
export type Chain = 'evm' | 'svm' | components['schemas']['SpecificChain'];

/** The parts of an error answer the client reads. */
interface ErrorAnswer { response: Response; error?: unknown; request: string }

/**
 * A non-2xx answer to one of the client's convenience calls. `message` is the server's own text
 * (the `error` of its `{ success: false, error }` envelope) whenever it sent one.
 */
export class CompsimError extends Error {
  override readonly name = 'CompsimError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The envelope's `details` when it has them (a refused trade names the rule, the inputs and the limit), else undefined. */
  readonly details: unknown;
  /** The error body as answered: the envelope, or the text of a body that is not JSON. */
  readonly body: unknown;
  /** The request as `METHOD /path`. */
  readonly request: string;
  /** The raw response (headers such as `Retry-After`). */
  readonly response: Response;

  constructor(answer: ErrorAnswer) {
    const { response, error } = answer;
    const envelope = typeof error === 'object' && error !== null ? (error as { error?: unknown; details?: unknown }) : undefined;
    const text = typeof envelope?.error === 'string' ? envelope.error : `${response.status} ${response.statusText || 'error'}${typeof error === 'string' && error !== '' ? `: ${error.slice(0, 200)}` : ''}`;
    super(text);
    this.status = response.status;
    this.details = envelope?.details;
    this.body = error;
    this.request = answer.request;
    this.response = response;
  }
}

/** The body of a 2xx answer; a {@link CompsimError} for any other status. */
async function okBody<D>(request: string, call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (response.ok) return data as D;
  throw new CompsimError({ response, error, request });
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Origin of the server, e.g. `http://127.0.0.1:3000`, or a world of it (`http://127.0.0.1:3000/worlds/w1`); request paths start with `/api`. */
  baseUrl: string;
  /** API key sent as `Authorization: Bearer <apiKey>`: an agent key, or an admin key for admin and `/api/sim/*` routes (none when undefined). */
  apiKey?: string | undefined;
  /** Extra headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** The fetch to use (default: the global one); msw and test doubles plug in here. */
  fetch?: ((input: Request) => Promise<Response>) | undefined;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * Milliseconds of a duration: a number of ms, or text such as `250ms`, `30s`, `5m`, `1h30m`, `1d`, `2w`.
 * Throws a RangeError for anything else.
 */
export function parseDuration(duration: number | string): number {
  if (typeof duration === 'number') {
    if (!Number.isFinite(duration) || duration < 0) throw new RangeError(`invalid duration: ${duration} (a finite number of ms, 0 or more)`);
    return duration;
  }
  const text = duration.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(text)) {
    throw new RangeError(`invalid duration: '${duration}' (use e.g. 250ms, 30s, 5m, 1h30m, 1d)`);
  }
  let ms = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms;
}

/** Body of `POST /api/sim/reset`: another seed, world options, `admin: false`. */
export type ResetRequest = NonNullable<operations['sim.reset']['requestBody']>['content']['application/json'];
/** Body of `POST /api/sim/balances`. */
export type SetBalancesRequest = NonNullable<operations['sim.balances.set']['requestBody']>['content']['application/json'];
/** Body of `POST /api/sim/worlds`: seed, start time, options, a fixture (document or bundled name such as `demo`), idle TTL. */
export type CreateWorldRequest = NonNullable<operations['sim.worlds.create']['requestBody']>['content']['application/json'];
/** A specific chain (`eth`, `base`, `svm`, ...). */
export type SpecificChain = components['schemas']['SpecificChain'];

const postTrade = (http: Client<paths>, body: TradeRequest) => okBody('POST /api/trade/execute', http.POST('/api/trade/execute', { body }));
const getBalances = (http: Client<paths>, competitionId: string) =>
  okBody('GET /api/agent/balances', http.GET('/api/agent/balances', { params: { query: { competitionId } } }));
const getPrice = (http: Client<paths>, token: string, chain?: Chain) => {
  const where = chain === undefined ? {} : chain === 'evm' || chain === 'svm' ? { chain } : { chain: 'evm', specificChain: chain };
  return okBody('GET /api/price', http.GET('/api/price', { params: { query: { token, ...where } } }));
};
const moveClock = (http: Client<paths>, body: { advanceMs: number } | { set: string }) => okBody('POST /api/sim/clock', http.POST('/api/sim/clock', { body }));
const clockNow = (http: Client<paths>) => okBody('GET /api/sim/clock', http.GET('/api/sim/clock'));
const reset = (http: Client<paths>, body: ResetRequest) => okBody('POST /api/sim/reset', http.POST('/api/sim/reset', { body }));
const setPrice = (http: Client<paths>, token: string, price: number, specificChain?: SpecificChain) =>
  okBody('POST /api/sim/prices', http.POST('/api/sim/prices', { body: { prices: [{ token, price, ...(specificChain ? { specificChain } : {}) }] } }));
const setBalance = (http: Client<paths>, body: SetBalancesRequest) => okBody('POST /api/sim/balances', http.POST('/api/sim/balances', { body }));
const snapshot = (http: Client<paths>) => okBody('POST /api/sim/snapshots', http.POST('/api/sim/snapshots'));
const restore = (http: Client<paths>, id: string) =>
  okBody(`POST /api/sim/snapshots/${id}/restore`, http.POST('/api/sim/snapshots/{id}/restore', { params: { path: { id } } }));
const createWorldCall = (http: Client<paths>, body: CreateWorldRequest) => okBody('POST /api/sim/worlds', http.POST('/api/sim/worlds', { body }));
const listWorlds = (http: Client<paths>) => okBody('GET /api/sim/worlds', http.GET('/api/sim/worlds'));
const deleteWorld = (http: Client<paths>, id: string) =>
  okBody(`DELETE /api/sim/worlds/${id}`, http.DELETE('/api/sim/worlds/{id}', { params: { path: { id } } }));

type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/** A world just created on the server, with clients bound to it: its admin's, and one per agent its fixture made. */
export type CreatedWorld = Omit<Answer<typeof createWorldCall>, 'agents'> & {
  /** A client of the new world (`<server>/worlds/<id>`) with its admin key. */
  client: CompsimClient;
  /** The fixture's agents with their keys, each with a client of the new world bound to its key. */
  agents: (Answer<typeof createWorldCall>['agents'][number] & { client: CompsimClient })[];
};

/**
 * Shortcuts of a {@link CompsimClient}: each is one request, resolves to the body of its 2xx answer,
 * and throws a {@link CompsimError} (status, the server's message, details) for any other answer.
 */
export interface Conveniences {
  /** `POST /api/trade/execute` with `body`. */
  trade(body: TradeRequest): ReturnType<typeof postTrade>;
  /** `GET /api/agent/balances?competitionId=`: the agent's balances in that competition. */
  balances(competitionId: string): ReturnType<typeof getBalances>;
  /**
   * `GET /api/price?token=`: `chain` `evm`/`svm` is sent as `chain`; a specific chain such as `base`
   * as `chain=evm&specificChain=base`.
   */
  price(token: string, chain?: Chain): ReturnType<typeof getPrice>;
  /** The simulation control API (compsim only, `compsim serve --sim-api`; admin key). */
  sim: {
    /** `POST /api/sim/clock` `{ advanceMs }`: moves virtual time by `duration` (see {@link parseDuration}), running due jobs; a bad duration rejects with a RangeError before any request. */
    advance(duration: number | string): ReturnType<typeof moveClock>;
    /** `POST /api/sim/clock` `{ set }`: moves virtual time forward to an ISO instant, running due jobs. */
    setTime(instant: string): ReturnType<typeof moveClock>;
    /** `GET /api/sim/clock`: the virtual time. */
    now(): ReturnType<typeof clockNow>;
    /** `POST /api/sim/reset`: back to the seeded baseline (or another seed and options). */
    reset(body?: ResetRequest): ReturnType<typeof reset>;
    /** `POST /api/sim/prices`: overrides one token's price (on `specificChain`, else wherever the token is found). */
    setPrice(token: string, price: number, specificChain?: SpecificChain): ReturnType<typeof setPrice>;
    /** `POST /api/sim/balances`: sets what an agent holds of the listed tokens in a competition. */
    setBalance(body: SetBalancesRequest): ReturnType<typeof setBalance>;
    /** `POST /api/sim/snapshots`: captures the whole world; answers its `id`. */
    snapshot(): ReturnType<typeof snapshot>;
    /** `POST /api/sim/snapshots/{id}/restore`: rewinds the world to a snapshot (any number of times). */
    restore(id: string): ReturnType<typeof restore>;
  };
  /** Worlds of the server (`/api/sim/worlds`; its server key or an admin key of its default world). */
  worlds: {
    /** `POST /api/sim/worlds`: a new isolated world, with clients bound to it and to its agents' keys. */
    create(body?: CreateWorldRequest): Promise<CreatedWorld>;
    /** `GET /api/sim/worlds`: the worlds the server holds, the default one first. */
    list(): ReturnType<typeof listWorlds>;
    /** `DELETE /api/sim/worlds/{id}`: drops a world and its state. */
    delete(id: string): ReturnType<typeof deleteWorld>;
  };
}

/** The typed client: openapi-fetch's `GET`/`POST`/`PUT`/`DELETE` over every documented path, plus {@link Conveniences}. */
export type CompsimClient = Client<paths> & Conveniences;

/**
 * A client of a compsim server (or any server of the same API). Paths, parameters, bodies and
 * answers are typed from the OpenAPI document. The raw calls (`GET`, `POST`, ...) answer
 * `{ data, error, response }`, where `error` is the typed {@link ErrorResponse} of a 4xx/5xx; the
 * {@link Conveniences} resolve to the 2xx body and throw a {@link CompsimError} otherwise.
 */
export function createClient(options: ClientOptions): CompsimClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.Authorization = `Bearer ${options.apiKey}`;
  const http = createFetchClient<paths>({ baseUrl, headers, ...(options.fetch ? { fetch: options.fetch } : {}) });
  /** A client of a world of this server with another key (same headers and fetch). */
  const bound = (basePath: string, apiKey: string) => createClient({ ...options, baseUrl: `${baseUrl}${basePath}`, apiKey });
  const conveniences: Conveniences = {
    trade: (body) => postTrade(http, body),
    balances: (competitionId) => getBalances(http, competitionId),
    price: (token, chain) => getPrice(http, token, chain),
    sim: {
      // parseDuration throws before any request; inside an async function that is a rejection.
      advance: async (duration) => moveClock(http, { advanceMs: parseDuration(duration) }),
      setTime: (instant) => moveClock(http, { set: instant }),
      now: () => clockNow(http),
      reset: (body = {}) => reset(http, body),
      setPrice: (token, price, specificChain) => setPrice(http, token, price, specificChain),
      setBalance: (body) => setBalance(http, body),
      snapshot: () => snapshot(http),
      restore: (id) => restore(http, id),
    },
    worlds: {
      async create(body = {}) {
        const world = await createWorldCall(http, body);
        return {
          ...world, client: bound(world.basePath, world.adminKey),
          agents: world.agents.map((a) => ({ ...a, client: bound(world.basePath, a.apiKey) })),
        };
      },
      list: () => listWorlds(http),
      delete: (id) => deleteWorld(http, id),
    },
  };
  return Object.assign(http, conveniences);
}
