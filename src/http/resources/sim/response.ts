// Response schemas of the simulation control API (/api/sim/*): reset, clock, prices, tapes, snapshots, dump/load, faults, journal.
import { SpecificChain } from '../shared/entities.js';
import { arrayOf, component, dateTime, errors, integer, nullable, number, ok, okOnly, oneOfStrings, shape, string, type Responses } from '../shared/response.js';

const SimJob = component('SimJob', shape({ kind: string, competitionId: string, at: dateTime }));

const PriceOverride = component('PriceOverride', shape({ token: string, specificChain: SpecificChain, price: number }, { optional: { symbol: string } }));

/** A stored fault: `kind` says which of the other fields it has (`at` as ISO). */
const Fault = component('Fault', shape({
  id: string, kind: oneOfStrings('priceMissing', 'priceZero', 'priceStale', 'constraintFail', 'rateLimit', 'latency'),
}, {
  optional: {
    token: string, specificChain: SpecificChain, at: dateTime, metric: oneOfStrings('pairAge', 'volume', 'liquidity', 'fdv', 'all'),
    path: string, remaining: nullable(integer), retryAfter: integer, ms: number,
  },
}));

const JournalEntry = component('JournalEntry', shape({
  seq: integer, method: string, path: string, status: integer, at: dateTime, principal: oneOfStrings('anonymous', 'admin', 'agent'),
  agentId: nullable(string), routeId: nullable(string),
}));

const now = ok({ now: dateTime });
/** Every sim route answers 404 when the world offers no simulation control. */
const sim = (r: Responses, ...statuses: number[]): Responses => ({ ...r, ...errors(404, ...statuses) });

export const resetResponses = sim({ 200: ok({ seed: { type: ['number', 'string'] }, now: dateTime, adminKey: nullable(string) }) }, 400);
export const clockGetResponses = sim({ 200: now });
/** Jobs run per kind (kinds that ran); with `details`, the first jobs themselves and how many were left out. */
export const clockSetResponses = sim({
  200: ok({ now: dateTime, ran: { type: 'object', additionalProperties: integer } },
    { optional: { jobs: arrayOf(SimJob), jobsOmitted: integer } }),
}, 400);
export const pricesSetResponses = sim({ 200: ok({ overrides: arrayOf(PriceOverride) }) }, 400);
export const pricesListResponses = sim({ 200: ok({ overrides: arrayOf(PriceOverride), tapes: arrayOf(string) }) });
export const okOnlyResponses = sim({ 200: okOnly });
export const tapeResponses = sim({ 200: ok({ tapes: arrayOf(string) }) }, 400);
export const snapshotResponses = sim({ 200: ok({ id: string }) });
export const restoreResponses = sim({ 200: now }, 400);
/** The versioned world document (`format: "compsim-world"`). */
export const dumpResponses = sim({
  200: ok({
    format: { type: 'string', const: 'compsim-world' }, version: integer,
    tables: { type: 'object', additionalProperties: arrayOf({ type: 'object' }) },
    seqs: { type: 'object', additionalProperties: integer }, aux: { type: 'object' },
  }),
});
export const loadResponses = sim({ 200: now }, 400, 413);
export const faultCreateResponses = sim({ 200: ok({ id: string, fault: Fault }) }, 400);
export const faultListResponses = sim({ 200: ok({ faults: arrayOf(Fault) }) });
export const faultDeleteResponses = sim({ 200: okOnly }, 400);
export const requestsResponses = sim({ 200: ok({ requests: arrayOf(JournalEntry) }) }, 400);
