// `compsim/client`: a typed HTTP client for the competition API (and compsim's simulation control API), openapi-fetch over the generated document types.
import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './openapi-types.js';

export type { components, operations, paths };

/** The error envelope every error answer carries: `{ success: false, error: "<message>" }`. */
export type ErrorResponse = components['schemas']['ErrorResponse'];
/** Body of `POST /api/trade/execute`. */
export type TradeRequest = NonNullable<operations['trade.execute']['requestBody']>['content']['application/json'];
/** A parent chain (`evm`, `svm`) or a specific chain (`eth`, `base`, `svm`, ...). */
export type Chain = 'evm' | 'svm' | components['schemas']['SpecificChain'];

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Origin of the server, e.g. `http://127.0.0.1:3000` (request paths start with `/api`). */
  baseUrl: string;
  /** API key sent as `Authorization: Bearer <apiKey>`: an agent key, or an admin key for admin and `/api/sim/*` routes. */
  apiKey?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one); msw and test doubles plug in here. */
  fetch?: (input: Request) => Promise<Response>;
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

/** Shortcuts of a {@link CompsimClient}: each is one plain request and answers `{ data, error, response }` as openapi-fetch does. */
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
  /** The simulation control API (compsim only; admin key). */
  sim: {
    /** `POST /api/sim/clock` `{ advanceMs }`: moves virtual time by `duration` (see {@link parseDuration}), running due jobs; a bad duration rejects with a RangeError before any request. */
    advance(duration: number | string): ReturnType<typeof advanceClock>;
    /** `GET /api/sim/clock`: the virtual time. */
    now(): ReturnType<typeof clockNow>;
  };
}

const postTrade = (http: Client<paths>, body: TradeRequest) => http.POST('/api/trade/execute', { body });
const getBalances = (http: Client<paths>, competitionId: string) => http.GET('/api/agent/balances', { params: { query: { competitionId } } });
const getPrice = (http: Client<paths>, token: string, chain?: Chain) => {
  const where = chain === undefined ? {} : chain === 'evm' || chain === 'svm' ? { chain } : { chain: 'evm', specificChain: chain };
  return http.GET('/api/price', { params: { query: { token, ...where } } });
};
const advanceClock = async (http: Client<paths>, duration: number | string) => http.POST('/api/sim/clock', { body: { advanceMs: parseDuration(duration) } });
const clockNow = (http: Client<paths>) => http.GET('/api/sim/clock');

/** The typed client: openapi-fetch's `GET`/`POST`/`PUT`/`DELETE` over every documented path, plus {@link Conveniences}. */
export type CompsimClient = Client<paths> & Conveniences;

/**
 * A client of a compsim server (or any server of the same API). Paths, parameters, bodies and
 * answers are typed from the OpenAPI document; every call answers `{ data, error, response }`,
 * where `error` is the typed {@link ErrorResponse} of a 4xx/5xx.
 */
export function createClient(options: ClientOptions): CompsimClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.Authorization = `Bearer ${options.apiKey}`;
  const http = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''), headers, ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const conveniences: Conveniences = {
    trade: (body) => postTrade(http, body),
    balances: (competitionId) => getBalances(http, competitionId),
    price: (token, chain) => getPrice(http, token, chain),
    sim: { advance: (duration) => advanceClock(http, duration), now: () => clockNow(http) },
  };
  return Object.assign(http, conveniences);
}
