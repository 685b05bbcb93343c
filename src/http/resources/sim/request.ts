// Schemas of the simulation control API (/api/sim/*): reset, clock, prices, tapes, faults, journal query, worlds, cheat codes.
import { API_VERSIONS } from '../../../domain/versions.js';
import { MAX_AMOUNT } from '../../../domain/model.js';
import { CONSTRAINT_METRICS, FAULT_KINDS } from '../../../ports/faults.js';
import { MAX_PRICE } from '../../../ports/prices.js';
import { handlerChecked } from '../../route.js';
import { bool, isoTime, nonEmpty, obj, specificChain, str, uuidParams } from '../shared/request.js';

/** Longest single move of the virtual clock (10 years): a bound on the scheduler work one call may ask for. */
export const MAX_CLOCK_JUMP_MS = 10 * 365.25 * 24 * 3_600_000;

/** Longest latency fault (ms of wall time). */
export const MAX_LATENCY_MS = 120_000;

const seed = { type: ['number', 'string'] } as const;
const anyObject = { type: 'object' } as const;
/** A world fixture document, or the name of a bundled world (`demo`; an unknown name answers 400 naming the field). */
const fixture = { type: ['object', 'string'], description: 'A world fixture document, or the name of a bundled world such as "demo"' } as const;

/** The world options a reset may replace; anything else is named in the 400. */
export const resetBody = obj({
  seed,
  // false: the reset world has no admin (POST /api/admin/setup answers 201 again); the caller's key stays the control key.
  admin: bool,
  options: {
    type: 'object',
    additionalProperties: false,
    properties: {
      startTime: { type: ['number', 'string'] },
      prices: obj({ kind: { type: 'string', enum: ['constant', 'tape', 'randomWalk'] } }, ['kind']),
      slippage: { type: 'string', enum: ['upstream', 'expected', 'none'] },
      snapshotIntervalMs: { type: 'number', minimum: 1000 },
      maxTradePercentage: { type: 'number' },
      evmChains: { type: 'array', items: specificChain },
      defaultInitialBalances: { type: 'array', items: obj({ specificChain, tokenSymbol: nonEmpty, amount: { type: 'number' } }, ['specificChain', 'tokenSymbol', 'amount']) },
      defaultTradingConstraints: anyObject,
      leaderboardAccess: { type: 'string', enum: ['participants', 'admin'] },
      rateLimits: { type: 'string', enum: ['upstream', 'off'] },
      apiVersion: { type: 'string', enum: [...API_VERSIONS] },
      unknownTokens: { type: 'string', enum: ['refuse', 'synthetic'] },
      fixture,
    },
  },
});

const advanceMs = { type: 'number', minimum: 0, maximum: MAX_CLOCK_JUMP_MS, description: 'Milliseconds to move forward' } as const;
const set = { ...isoTime, description: 'The instant to move to (forward only)' } as const;
const details = { ...bool, description: 'Also list the jobs that ran' } as const;
/** Exactly one of `advanceMs` and `set` (checked by the handler, which names both). */
export const clockBody = handlerChecked({
  // An object schema with every property listed (what tools that read properties, such as MCP clients, need), and its two forms.
  ...obj({ advanceMs, set, details }),
  oneOf: [
    { ...obj({ advanceMs, details }, ['advanceMs']), not: { required: ['set'] }, title: 'ClockAdvance' },
    { ...obj({ set, details }, ['set']), not: { required: ['advanceMs'] }, title: 'ClockSet' },
  ],
}, obj({ advanceMs, set, details }));

/** `POST /api/sim/prices`. */
export const pricesBody = obj({
  prices: { type: 'array', items: obj({ token: nonEmpty, specificChain, price: { type: 'number', minimum: 0, maximum: MAX_PRICE }, symbol: str }, ['token', 'price']) },
}, ['prices']);

/** One tape point: `[time, price]`, the time in epoch ms or as an instant. */
const tapePoint = {
  type: 'array', minItems: 2, maxItems: 2, description: '[time, price]: the time in epoch ms or as an RFC 3339 instant, the price in USD',
  prefixItems: [{ anyOf: [{ type: 'number' }, isoTime] }, { type: 'number', minimum: 0 }],
  items: { anyOf: [{ type: 'number' }, isoTime] },
} as const;

/** `POST /api/sim/prices/tape`; points are checked by the world (keys name a catalogue token or a perps asset). */
export const tapeBody = obj({
  tapes: {
    type: 'object', description: 'Tapes by `chain:address` (or a perps asset symbol such as BTC)',
    additionalProperties: handlerChecked({ type: 'array', minItems: 1, items: tapePoint }, { type: 'array', minItems: 1, items: { type: 'array', minItems: 2, maxItems: 2 } }),
  },
}, ['tapes']);

/** `POST /api/sim/load`: documentation only; the world checks the document (400 `Invalid world document: ...`). */
export const loadBody = handlerChecked({
  type: 'object', description: "A 'compsim-world' document as GET /api/sim/dump returns it (up to 200 MB)",
  properties: {
    format: { const: 'compsim-world' }, version: { const: 1, description: 'Format version' },
    tables: { type: 'object', additionalProperties: true, description: 'Rows per table' },
    seqs: { type: 'object', additionalProperties: true, description: 'Sequence counters' },
    aux: { type: 'object', additionalProperties: true, description: 'Clock, ids, price overrides, tapes, faults ...' },
  },
  required: ['format', 'version', 'tables'],
});

/** `{id}` of a snapshot or fault. */
export const idParams = obj({ id: nonEmpty }, ['id']);

/** Fields each fault kind requires besides `kind`. */
const REQUIRED_BY_KIND: Record<(typeof FAULT_KINDS)[number], string[]> = {
  priceMissing: ['token'], priceZero: ['token'], priceStale: ['token'], constraintFail: ['token', 'metric'],
  rateLimit: ['path'], latency: ['path', 'ms'],
};

/** `POST /api/sim/faults`: the kind, then the fields that kind requires (named in the 400). */
export const faultBody = {
  ...obj({
    kind: { type: 'string', enum: [...FAULT_KINDS] },
    token: nonEmpty, specificChain, at: isoTime,
    metric: { type: 'string', enum: [...CONSTRAINT_METRICS] },
    path: { type: 'string', pattern: '^/' },
    count: { type: 'integer', minimum: 1 },
    retryAfter: { type: 'integer', minimum: 1, maximum: 3600 },
    ms: { type: 'number', minimum: 0, maximum: MAX_LATENCY_MS },
  }, ['kind']),
  allOf: Object.entries(REQUIRED_BY_KIND).map(([kind, required]) => ({ if: obj({ kind: { const: kind } }, ['kind']), then: { required } })),
};

/** `GET /api/sim/requests` filters. */
export const requestsQuery = obj({
  method: str, path: str, status: { type: 'integer', minimum: 100, maximum: 599 }, agentId: str,
  since: {
    type: 'string', description: 'A journal seq (digits): later entries; or an RFC 3339 instant: entries at or after it',
    anyOf: [{ pattern: '^[0-9]+$', 'x-reasons': { pattern: 'a journal seq number or an ISO time' } }, { format: 'date-time' }],
  },
  limit: { type: 'integer', minimum: 1, maximum: 10_000 },
});

/** Longest idle TTL a world may be given (30 days). */
export const MAX_IDLE_TTL_SECONDS = 30 * 24 * 3600;

/** `POST /api/sim/worlds`: everything optional; `options` is the list `POST /api/sim/reset` takes. */
export const createWorldBody = obj({
  seed: { type: ['number', 'string'] },
  startTime: { type: ['number', 'string'] },
  options: resetBody.properties.options,
  fixture,
  idleTtlSeconds: { type: 'integer', minimum: 1, maximum: MAX_IDLE_TTL_SECONDS },
});

/** `{id}` of a world. */
export const worldParams = obj({ id: { type: 'string', minLength: 1 } }, ['id']);

/** `POST /api/sim/balances`: amounts are what the agent holds afterwards (never negative). */
export const setBalancesBody = obj({
  agentId: { type: 'string', minLength: 1 },
  competitionId: { type: 'string', minLength: 1 },
  balances: {
    type: 'array', minItems: 1, maxItems: 1000,
    items: obj({ token: { type: 'string', minLength: 1 }, specificChain, amount: { type: 'number', minimum: 0, maximum: MAX_AMOUNT } }, ['token', 'amount']),
  },
}, ['agentId', 'competitionId', 'balances']);

/** `{competitionId}` of the lifecycle cheat codes. */
export const competitionParams = uuidParams('competitionId');
