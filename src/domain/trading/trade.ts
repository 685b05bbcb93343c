// Paper trading: execute and quote with the hosted service's check order, numbers and messages (reference §1).
import type { WriteTx } from '../../ports/store.js';
import { routeCompetitionId } from '../competitions/route-competition.js';
import { versionRule } from '../versions.js';
import { checkConstraints } from './constraints.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { editDistance } from '../edit-distance.js';
import type { Balance, Competition, CrossChainTradingType, Principal, Trade } from '../model.js';
import { portfolioValue } from './portfolio.js';
import { detectChain, findPrice, type ResolvedPrice } from './prices.js';
import { competitionSlippage } from './slippage.js';
import type { Tables } from '../tables.js';
import type { BlockchainType } from '../../ports/prices.js';
import { pairKey } from '../data/keys.js';

/** Smallest tradable amount (exactly this much is allowed). */
export const MIN_TRADE_AMOUNT = 0.000001;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/** Body of `POST /api/trade/execute`, as sent (the checks below give upstream's messages). */
export interface ExecuteInput {
  fromToken?: unknown; toToken?: unknown; amount?: unknown; reason?: unknown; competitionId?: unknown;
  fromChain?: BlockchainType; toChain?: BlockchainType; fromSpecificChain?: string; toSpecificChain?: string;
  /** Accepted and ignored, as upstream does. */
  slippageTolerance?: unknown;
}

/** The agent behind a request; an admin key has none (401 `Authentication required`). */
export function callerAgentId(principal: Principal): string {
  if (principal.kind !== 'agent') throw new DomainError('AUTH_REQUIRED');
  return principal.agentId;
}

/** Upstream's `parseFloat(amount)`: "100abc" is 100; NaN or <= 0 is rejected. */
export function parseAmount(raw: unknown): number {
  const n = typeof raw === 'string' || typeof raw === 'number' ? Number.parseFloat(String(raw)) : Number.NaN;
  if (Number.isNaN(n) || n <= 0) throw new DomainError('TRADE_BAD_AMOUNT', {}, { details: { rule: 'positiveAmount', amount: raw ?? null } });
  return n;
}

/** Balance row of `address`: EVM (`0x`) addresses match case-insensitively, others exactly. */
export function findBalanceRow(rows: readonly Balance[], address: string): Balance | undefined {
  if (!address.startsWith('0x')) return rows.find((r) => r.tokenAddress === address);
  const a = address.toLowerCase();
  return rows.find((r) => r.tokenAddress.toLowerCase() === a);
}

/** Balance fields in the order the domain writes them. */
const BALANCE_KEYS: readonly (keyof Balance)[] = ['id', 'agentId', 'competitionId', 'tokenAddress', 'amount', 'symbol', 'specificChain', 'createdAt', 'updatedAt'];

/** True when `row` has exactly the balance fields, in the domain's order (a loaded document may order or extend them otherwise). */
function domainShaped(row: Balance): boolean {
  let i = 0;
  for (const k in row) if (k !== BALANCE_KEYS[i++]) return false;
  return i === BALANCE_KEYS.length;
}

/** What a trade changes in a balance row: always the amount and time, on a credit also the token's symbol and chain. */
export interface BalanceChange { amount: number; updatedAt: number; symbol?: string; specificChain?: Balance['specificChain'] }

/**
 * A balance row with some fields replaced: `{ ...row, ...changes }` (same keys, same order). A row
 * of the domain's own shape is rebuilt as one object literal, about eight times faster than any
 * generic copy (the hot write of every trade); any other row is copied with `Object.assign`.
 */
export function changedBalance(row: Balance, changes: BalanceChange): Balance {
  if (!domainShaped(row)) return Object.assign({}, row, changes);
  return {
    id: row.id, agentId: row.agentId, competitionId: row.competitionId, tokenAddress: row.tokenAddress, amount: changes.amount,
    symbol: 'symbol' in changes ? changes.symbol! : row.symbol,
    specificChain: 'specificChain' in changes ? changes.specificChain! : row.specificChain,
    createdAt: row.createdAt, updatedAt: changes.updatedAt,
  };
}

/** Rejects perps and spot-live competitions on the paper-trading endpoints. */
function requirePaperTrading(comp: Competition): void {
  if (comp.type === 'perpetual_futures') throw new DomainError('TRADE_PERPS', {}, { details: { rule: 'competitionType', type: comp.type } });
  if (comp.type === 'spot_live_trading') throw new DomainError('TRADE_SPOT_LIVE', {}, { details: { rule: 'competitionType', type: comp.type } });
}

/** Chains of one trade: parents given or detected from the address; specific chains only as given. */
export interface TradeChains { fromChain: BlockchainType; toChain: BlockchainType; fromSpecificChain?: string; toSpecificChain?: string }

function resolveChains(from: string, to: string, i: Omit<TradeChains, 'fromChain' | 'toChain'> & Partial<TradeChains>): TradeChains {
  const out: TradeChains = { fromChain: i.fromChain ?? detectChain(from), toChain: i.toChain ?? detectChain(to) };
  if (i.fromSpecificChain !== undefined) out.fromSpecificChain = i.fromSpecificChain;
  if (i.toSpecificChain !== undefined) out.toSpecificChain = i.toSpecificChain;
  return out;
}

/**
 * Upstream's cross-chain policy. `disallowAll` compares specific chains only when the client gave
 * both (two EVM tokens really on different chains pass when it gave none).
 */
export function checkCrossChain(type: CrossChainTradingType, c: TradeChains): void {
  const details = () => ({ rule: 'crossChain', tradingType: type, ...c });
  const parentsDiffer = c.fromChain !== c.toChain;
  if (type === 'disallowXParent' && parentsDiffer) throw new DomainError('CROSS_PARENT_DISABLED', {}, { details: details() });
  if (type === 'disallowAll') {
    const bothGiven = c.fromSpecificChain !== undefined && c.toSpecificChain !== undefined;
    if (parentsDiffer || (bothGiven && c.fromSpecificChain !== c.toSpecificChain)) throw new DomainError('CROSS_CHAIN_DISABLED', {}, { details: details() });
  }
}

export function priceBoth(deps: Deps, from: string, to: string, c: TradeChains, at: number): { fromPrice: ResolvedPrice; toPrice: ResolvedPrice } {
  const opts = (chain: BlockchainType, specificChain?: string) => (specificChain !== undefined ? { chain, specificChain } : { chain });
  const fromPrice = findPrice(deps.prices, deps.config.evmChains, from, at, opts(c.fromChain, c.fromSpecificChain));
  const toPrice = findPrice(deps.prices, deps.config.evmChains, to, at, opts(c.toChain, c.toSpecificChain));
  if (!fromPrice || !toPrice) {
    throw new DomainError('PRICE_UNAVAILABLE', {}, {
      details: { rule: 'price', fromToken: from, toToken: to, ...c, fromPriceFound: fromPrice !== null, toPriceFound: toPrice !== null },
    });
  }
  return { fromPrice, toPrice };
}

/** Amounts of a trade worth `usd` into a token priced `toUsd` (0 = burn: nothing received, no slippage), under `model`'s formula. */
export function fill(deps: Deps, usd: number, toUsd: number, model?: Competition['slippageModel']): { slippage: number; toAmount: number } {
  if (!Number.isFinite(usd)) throw new DomainError('TRADE_VALUE_NOT_FINITE', {}, { details: { rule: 'finiteValue', tradeAmountUsd: null } });
  if (toUsd === 0) return { slippage: 0, toAmount: 0 };
  const slippage = competitionSlippage(model, usd, deps.config.slippage, () => deps.ids.random());
  return { slippage, toAmount: (usd * (1 - slippage)) / toUsd };
}

const EXECUTE_USAGE = 'POST /api/trade/execute with competitionId in body';

/** Every field execute and quote read; any other is a client's typo or a field of another API. */
const TRADE_FIELDS = ['fromToken', 'toToken', 'amount', 'reason', 'competitionId', 'fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain', 'slippageTolerance'];

/**
 * TRADE_MISSING_PARAMS (upstream's fixed message naming all three fields) with `details` naming
 * what is actually wrong: the `missing` (absent or empty) fields, the `unknown` fields the request
 * has, and `didYouMean` for an unknown field within two edits of a missing one (`formToken`).
 */
export function missingTradeParams(i: object): DomainError {
  const given = i as Record<string, unknown>;
  const missing = ['fromToken', 'toToken', 'amount'].filter((k) => !given[k]);
  const unknown = Object.keys(given).filter((k) => !TRADE_FIELDS.includes(k));
  const guesses = unknown.flatMap((u) => missing.filter((m) => editDistance(u.toLowerCase(), m.toLowerCase()) <= 2).slice(0, 1).map((m): [string, string] => [u, m]));
  return new DomainError('TRADE_MISSING_PARAMS', {}, {
    details: {
      rule: 'required', missing,
      ...(unknown.length > 0 ? { unknown } : {}),
      ...(guesses.length > 0 ? { didYouMean: Object.fromEntries(guesses) } : {}),
    },
  });
}

/** Controller-level checks of execute (upstream's order 1-4), `cid` being the given or implicit competitionId. */
function checkExecuteInput(cid: unknown, i: ExecuteInput) {
  if (!i.fromToken || !i.toToken || !i.amount) throw missingTradeParams(i);
  for (const field of ['fromToken', 'toToken'] as const) if (typeof i[field] !== 'string') throw new DomainError('TRADE_FIELD_TYPE', { field });
  if (typeof cid !== 'string' || cid === '') throw new DomainError('COMPETITION_ID_REQUIRED', { usage: EXECUTE_USAGE });
  if (!i.reason) throw new DomainError('TRADE_REASON_REQUIRED', {}, { details: { rule: 'required', missing: ['reason'] } });
  if (typeof i.reason !== 'string') throw new DomainError('TRADE_FIELD_TYPE', { field: 'reason' });
  return { cid, from: i.fromToken as string, to: i.toToken as string, reason: i.reason, amount: parseAmount(i.amount) };
}

/** Adds `amount` of the to-token, overwriting the row's symbol and chain with the price report's. */
export function credit(deps: Deps, tx: WriteTx<Tables>, rows: readonly Balance[], agentId: string, comp: Competition, token: string, amount: number, p: ResolvedPrice, now: number) {
  const row = findBalanceRow(rows, token);
  if (row) {
    tx.put('balances', changedBalance(row, { amount: row.amount + amount, symbol: p.symbol, specificChain: p.specificChain, updatedAt: now }));
    return;
  }
  tx.insert('balances', {
    id: tx.nextSeq('balances'), agentId, competitionId: comp.id, tokenAddress: deps.caches.internToken(token), amount,
    symbol: p.symbol, specificChain: p.specificChain, createdAt: now, updatedAt: now,
  });
}

/** `POST /api/trade/execute`: every check of reference §1.2 in order, then one all-or-nothing write. */
export async function executeTrade(deps: Deps, principal: Principal, input: ExecuteInput): Promise<Trade> {
  const agentId = callerAgentId(principal);
  return deps.store.transact((tx) => {
    // The version decides whether competitionId is optional, required (checked after the token fields) or ignored.
    const mode = versionRule(deps, 'competitionIdExecute');
    const given = mode === 'required' || (mode === 'optional' && input.competitionId !== undefined)
      ? input.competitionId : routeCompetitionId(tx, principal, undefined, mode, EXECUTE_USAGE);
    const { cid, from, to, reason, amount } = checkExecuteInput(given, input);
    if (!isUuid(cid)) throw new DomainError('INVALID_UUID_SYNTAX', { value: cid }, { details: { rule: 'competitionId', competitionId: cid } });
    const comp = tx.get('competitions', cid.toLowerCase());
    if (!comp) throw new DomainError('COMPETITION_ID_NOT_FOUND', { id: cid }, { details: { rule: 'competitionExists', competitionId: cid } });
    requirePaperTrading(comp);
    const now = deps.clock.now();
    // Upstream relies on time having moved past the endDate it sets when ending; on a virtual clock a
    // trade can arrive in the very millisecond of the end, so an ended competition is refused by status too.
    if ((comp.endDate !== null && now > comp.endDate) || comp.status === 'ended' || comp.status === 'ending') {
      throw new DomainError('TRADE_COMPETITION_ENDED', { name: comp.name }, { details: { rule: 'competitionEnded', endDate: comp.endDate, now } });
    }
    const reg = tx.get('competitionAgents', pairKey(comp.id, agentId));
    if (reg?.status !== 'active') {
      throw new DomainError('TRADE_NOT_REGISTERED', { agentId, competitionId: cid }, { details: { rule: 'registration', agentId, competitionId: comp.id, status: reg?.status ?? null } });
    }
    if (amount < MIN_TRADE_AMOUNT) throw new DomainError('TRADE_TOO_SMALL', {}, { details: { rule: 'minimumAmount', amount, minimum: MIN_TRADE_AMOUNT } });
    if (from === to) throw new DomainError('IDENTICAL_TOKENS', {}, { details: { rule: 'identicalTokens', fromToken: from, toToken: to } });
    const chains = resolveChains(from, to, input);
    checkCrossChain(comp.crossChainTradingType, chains);
    const { fromPrice, toPrice } = priceBoth(deps, from, to, chains, now);
    if (toPrice.price > 0) checkConstraints(to, toPrice, comp.tradingConstraints, now, versionRule(deps, 'tokenTable'));
    const tradeAmountUsd = amount * fromPrice.price;
    const rows = tx.find('balances', 'agentCompetition', pairKey(agentId, comp.id));
    const fromRow = findBalanceRow(rows, from);
    const available = fromRow?.amount ?? 0;
    if (available < amount) {
      // Upstream never checks the status: a pending competition's agents simply hold nothing yet. The hint says why.
      const hint = comp.status === 'pending' ? { hint: `competition ${comp.id} is pending: balances are granted when it starts` } : {};
      throw new DomainError('INSUFFICIENT_BALANCE', {}, { details: { rule: 'balance', token: from, requested: amount, available, ...hint } });
    }
    const pct = comp.paperTradingConfig.maxTradePercentage;
    const value = portfolioValue(deps, rows, now) ?? 0;
    const maxTradeValueUsd = (value * pct) / 100;
    if (tradeAmountUsd > maxTradeValueUsd) {
      throw new DomainError('TRADE_TOO_LARGE', { pct }, {
        details: { rule: 'maxTradeSize', tradeAmountUsd, portfolioValue: value, maxTradePercentage: pct, maxTradeValueUsd },
      });
    }
    const { slippage, toAmount } = fill(deps, tradeAmountUsd, toPrice.price, comp.slippageModel);
    tx.put('balances', changedBalance(fromRow!, { amount: fromRow!.amount - amount, updatedAt: now }));
    if (toAmount > 0) credit(deps, tx, rows, agentId, comp, to, toAmount, toPrice, now);
    const trade: Trade = {
      id: deps.ids.uuid(), agentId, competitionId: comp.id, fromToken: deps.caches.internToken(from), toToken: deps.caches.internToken(to), fromAmount: amount, toAmount,
      tradeAmountUsd, toTokenSymbol: toPrice.symbol, fromTokenSymbol: fromPrice.symbol,
      reason, timestamp: now, fromChain: chains.fromChain, toChain: chains.toChain,
      fromSpecificChain: fromPrice.specificChain, toSpecificChain: toPrice.specificChain, slippage,
    };
    return tx.insert('trades', trade);
  });
}

/** Query of `GET /api/trade/quote` (validated by the route's schema). */
export interface QuoteInput {
  competitionId?: string; fromToken: string; toToken: string; amount: string;
  fromChain?: BlockchainType; toChain?: BlockchainType; fromSpecificChain?: string; toSpecificChain?: string;
}

/** A quote: what executing now would give, with a fresh slippage draw (no balance or policy checks). */
export interface Quote {
  fromToken: string; toToken: string; fromAmount: number; toAmount: number; exchangeRate: number;
  /** Percent (0.055 means 0.055 %). */
  slippage: number; tradeAmountUsd: number;
  prices: { fromToken: number; toToken: number };
  symbols: { fromTokenSymbol: string; toTokenSymbol: string };
  chains: { fromChain: BlockchainType; toChain: BlockchainType };
}

/**
 * `GET /api/trade/quote`: competition, type and prices are checked; registration, balance, size,
 * cross-chain policy, constraints and end date are not (as upstream). A burn quotes an infinite
 * amount, which serialises as null.
 */
export async function quoteTrade(deps: Deps, principal: Principal, q: QuoteInput): Promise<Quote> {
  // The slippage draw advances the world's random stream, so a quote is a transaction: ordered with
  // every write and journaled with --state (a restart then continues the stream where it was).
  return deps.store.transact((tx) => {
    const cid = routeCompetitionId(tx, principal, q.competitionId, versionRule(deps, 'competitionIdQuote'), 'GET /api/trade/quote?competitionId=xxx');
    const amount = parseAmount(q.amount);
    const comp = tx.get('competitions', cid.toLowerCase());
    if (!comp) throw new DomainError('COMPETITION_NOT_FOUND');
    if (comp.type === 'perpetual_futures') throw new DomainError(versionRule(deps, 'quotePerpsError'), {}, { details: { rule: 'competitionType', type: comp.type } });
    requirePaperTrading(comp);
    const now = deps.clock.now();
    const chains = resolveChains(q.fromToken, q.toToken, q);
    const { fromPrice, toPrice } = priceBoth(deps, q.fromToken, q.toToken, chains, now);
    const tradeAmountUsd = amount * fromPrice.price;
    if (!Number.isFinite(tradeAmountUsd)) throw new DomainError('TRADE_VALUE_NOT_FINITE', {}, { details: { rule: 'finiteValue', tradeAmountUsd: null } });
    const slippage = competitionSlippage(comp.slippageModel, tradeAmountUsd, deps.config.slippage, () => deps.ids.random());
    const toAmount = (tradeAmountUsd * (1 - slippage)) / toPrice.price;
    return {
      fromToken: q.fromToken, toToken: q.toToken, fromAmount: amount, toAmount, exchangeRate: toAmount / amount,
      slippage: slippage * 100, tradeAmountUsd,
      prices: { fromToken: fromPrice.price, toToken: toPrice.price },
      symbols: { fromTokenSymbol: fromPrice.symbol, toTokenSymbol: toPrice.symbol },
      chains: { fromChain: chains.fromChain, toChain: chains.toChain },
    };
  });
}
