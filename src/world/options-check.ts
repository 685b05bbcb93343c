// Checks of world options from outside (create, reset, fixtures, the library): every value a world would store or compute from must be storable, finite and loadable back.
import { feedProblem } from '../adapters/prices/feeds.js';
import { MAX_AMOUNT } from '../domain/model.js';
import { CLOCK_RANGE_TEXT, inClockRange } from '../ports/clock.js';
import { SPECIFIC_CHAINS } from '../ports/prices.js';

/**
 * A world option that cannot be used. `field` is its path in the options (`prices.stepMs`,
 * `fixture.competitions[0].endDate`); the message reads `<field> <reason>`.
 */
export class OptionError extends Error {
  constructor(readonly field: string, readonly reason: string) {
    super(`${field} ${reason}`);
    this.name = 'OptionError';
  }
}

const CHAINS: readonly string[] = SPECIFIC_CHAINS;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Trading-constraint fields a world's default constraints may set, and whether null is allowed. */
const CONSTRAINTS: Record<string, boolean> = {
  minimumPairAgeHours: false, minimum24hVolumeUsd: false, minimumLiquidityUsd: false, minimumFdvUsd: false, minTradesPerDay: true,
};

/** Fields of a fixture competition that are dates. */
const FIXTURE_DATES = ['startDate', 'endDate', 'joinStartDate', 'joinEndDate', 'votingStartDate', 'votingEndDate'] as const;

/** An instant given as epoch ms or an ISO string, inside the clock's range; throws an OptionError naming `field`. */
export function checkInstant(v: unknown, field: string): number {
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : Number.NaN;
  if (!Number.isFinite(ms) || !inClockRange(ms)) {
    throw new OptionError(field, `must be an epoch-ms number or an ISO time from ${CLOCK_RANGE_TEXT}, got ${JSON.stringify(v)}`);
  }
  return ms;
}

function checkAmount(v: unknown, field: string): void {
  if (!finite(v) || v < 0 || v > MAX_AMOUNT) throw new OptionError(field, `must be a number from 0 to ${MAX_AMOUNT}, got ${JSON.stringify(v)}`);
}

/** A list of starting balances `[{specificChain, tokenSymbol, amount}]`. */
function checkBalances(v: unknown, field: string): void {
  if (!Array.isArray(v)) throw new OptionError(field, 'must be an array of {specificChain, tokenSymbol, amount}');
  v.forEach((b: unknown, i) => {
    const at = `${field}[${i}]`;
    if (!isPlainObject(b)) throw new OptionError(at, 'must be an object {specificChain, tokenSymbol, amount}');
    if (!CHAINS.includes(b.specificChain as string)) throw new OptionError(`${at}.specificChain`, `must be one of ${SPECIFIC_CHAINS.join(', ')}`);
    if (typeof b.tokenSymbol !== 'string' || b.tokenSymbol === '') throw new OptionError(`${at}.tokenSymbol`, 'must be a non-empty string');
    checkAmount(b.amount, `${at}.amount`);
  });
}

function checkConstraints(v: unknown, field: string): void {
  if (!isPlainObject(v)) throw new OptionError(field, `must be an object of ${Object.keys(CONSTRAINTS).join(', ')}`);
  for (const [k, x] of Object.entries(v)) {
    if (!(k in CONSTRAINTS)) throw new OptionError(`${field}.${k}`, `is not a trading constraint (${Object.keys(CONSTRAINTS).join(', ')})`);
    if (x === null && CONSTRAINTS[k]) continue;
    if (!finite(x) || x < 0) throw new OptionError(`${field}.${k}`, `must be a finite number >= 0${CONSTRAINTS[k] ? ' or null' : ''}, got ${JSON.stringify(x)}`);
  }
}

function checkFeed(v: unknown, field: string): void {
  const bad = feedProblem(v);
  if (bad) throw new OptionError(bad.field === '' ? field : `${field}.${bad.field}`, bad.reason);
}

/** A fixture's own fields the world reads before loading it (its users and competitions are then checked by the domain as they are created). */
function checkFixture(v: unknown, field: string): void {
  if (!isPlainObject(v)) throw new OptionError(field, 'must be an object (a world file as compsim serve --world reads it)');
  if (v.startTime !== undefined) checkInstant(v.startTime, `${field}.startTime`);
  if (v.prices !== undefined) checkFeed(v.prices, `${field}.prices`);
  if (v.competitions === undefined) return;
  if (!Array.isArray(v.competitions)) throw new OptionError(`${field}.competitions`, 'must be an array');
  v.competitions.forEach((c: unknown, i) => {
    const at = `${field}.competitions[${i}]`;
    if (!isPlainObject(c)) throw new OptionError(at, 'must be an object');
    for (const k of FIXTURE_DATES) if (c[k] !== undefined) checkInstant(c[k], `${at}.${k}`);
    if (c.paperTradingInitialBalances !== undefined) checkBalances(c.paperTradingInitialBalances, `${at}.paperTradingInitialBalances`);
  });
}

/**
 * Throws an {@link OptionError} for the first option a world could not store, compute finitely
 * or load back from its own dump: a start time outside the clock's range, a bad price feed,
 * starting balances or trading constraints of the wrong type or size, a bad fixture date.
 * Options it does not name are checked where they are read (resolveConfig).
 */
export function checkWorldOptions(o: Record<string, unknown>): void {
  if (o.startTime !== undefined) checkInstant(o.startTime, 'startTime');
  if (o.prices !== undefined) checkFeed(o.prices, 'prices');
  if (o.defaultInitialBalances !== undefined) checkBalances(o.defaultInitialBalances, 'defaultInitialBalances');
  if (o.defaultTradingConstraints !== undefined) checkConstraints(o.defaultTradingConstraints, 'defaultTradingConstraints');
  if (o.fixture !== undefined) checkFixture(o.fixture, 'fixture');
}
