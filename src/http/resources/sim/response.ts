// Response schemas of the simulation control API (/api/sim/*): reset, clock, prices, tapes, snapshots, dump/load, faults, journal, worlds, cheat codes.
import { Competition, SpecificChain, StartedCompetition } from '../shared/entities.js';
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

/** `status: damaged`: found damaged at start (no seed or time; `damage` names the file and the reason; its routes answer 503). */
const WorldInfo = component('WorldInfo', shape({
  id: string, basePath: string, url: string, seed: { type: ['number', 'string', 'null'] }, now: nullable(dateTime), idleTtlSeconds: nullable(integer),
  status: oneOfStrings('ok', 'damaged'),
}, { optional: { damage: shape({ file: string, reason: string }) } }));

const SimBalance = component('SimBalance', shape({ tokenAddress: string, amount: number, symbol: string, specificChain: SpecificChain }));

/** Jobs run per kind by the due-jobs pass after a lifecycle cheat code. */
const ran = { type: 'object', additionalProperties: integer };

/** An agent a created world's fixture made, with its key (as `compsim serve` prints them). */
const WorldAgent = component('WorldAgent', shape({ id: string, name: string, handle: string, apiKey: string }));
/** A competition a created world's fixture made. */
const WorldCompetition = component('WorldCompetition', shape({ id: string, name: string, status: string }));

export const worldCreateResponses: Responses = {
  201: ok({
    id: string, adminKey: string, basePath: string, url: string, seed: { type: ['number', 'string'] }, now: dateTime, idleTtlSeconds: nullable(integer),
    status: oneOfStrings('ok'), agents: arrayOf(WorldAgent), competitions: arrayOf(WorldCompetition),
  }),
  ...errors(401, 404, 429),
};
export const worldListResponses: Responses = { 200: ok({ worlds: arrayOf(WorldInfo) }), ...errors(401, 404) };
export const worldDeleteResponses: Responses = { 200: okOnly, ...errors(400, 401, 404, 409) };
export const setBalancesResponses: Responses = {
  200: ok({ agentId: string, competitionId: string, balances: arrayOf(SimBalance) }), ...errors(400, 404),
};
export const simStartResponses: Responses = { 200: ok({ competition: StartedCompetition, ran }), ...errors(400, 404) };
export const simEndResponses: Responses = {
  200: ok({ competition: Competition, leaderboard: arrayOf(shape({ agentId: string, value: number, pnl: number })), ran }), ...errors(400, 404),
};
