// Legacy trading adapter: execute and quote with the team era's check order (reference legacy §3.1, §3.5) on the shared trade engine.
import type { BlockchainType } from '../../ports/prices.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Trade } from '../model.js';
import { activeAgentIds, portfolioValue, takeSnapshotsTx } from '../trading/portfolio.js';
import { detectChain } from '../trading/prices.js';
import { competitionSlippage } from '../trading/slippage.js';
import {
  changedBalance, checkCrossChain, credit, fill, findBalanceRow, MIN_TRADE_AMOUNT, missingTradeParams, parseAmount, priceBoth, type ExecuteInput, type TradeChains,
} from '../trading/trade.js';
import { legacyActiveCompetition } from './competition.js';

const PARENTS: readonly string[] = ['evm', 'svm'];

/** The team era's execute rule: a side's specific chain counts only together with its parent chain. */
function executeChains(from: string, to: string, i: ExecuteInput): TradeChains {
  const out: TradeChains = { fromChain: i.fromChain ?? detectChain(from), toChain: i.toChain ?? detectChain(to) };
  if (i.fromChain !== undefined && i.fromSpecificChain !== undefined) out.fromSpecificChain = i.fromSpecificChain;
  if (i.toChain !== undefined && i.toSpecificChain !== undefined) out.toSpecificChain = i.toSpecificChain;
  return out;
}

/**
 * `POST /api/trade/execute` with a team key. Order: no active competition (403), missing
 * tokens/amount, missing reason, amount not positive, below the minimum, identical tokens, prices,
 * cross-chain policy, balance, maximum size; then balances move, the trade is stored and every
 * active participant is snapshotted. No registration check (as upstream): a team outside the
 * competition has no balance there and fails on it.
 */
export async function executeLegacyTrade(deps: Deps, agentId: string, input: ExecuteInput): Promise<Trade> {
  return deps.store.transact((tx) => {
    const comp = legacyActiveCompetition(tx, agentId);
    if (!comp) throw new DomainError('NO_ACTIVE_COMPETITION');
    if (!input.fromToken || !input.toToken || !input.amount) throw missingTradeParams(input);
    if (!input.reason) throw new DomainError('TRADE_REASON_REQUIRED', {}, { details: { rule: 'required', missing: ['reason'] } });
    for (const field of ['fromToken', 'toToken', 'reason'] as const) if (typeof input[field] !== 'string') throw new DomainError('TRADE_FIELD_TYPE', { field });
    const from = input.fromToken as string;
    const to = input.toToken as string;
    const amount = parseAmount(input.amount);
    if (amount < MIN_TRADE_AMOUNT) throw new DomainError('TRADE_TOO_SMALL', {}, { details: { rule: 'minimumAmount', amount, minimum: MIN_TRADE_AMOUNT } });
    if (from === to) throw new DomainError('IDENTICAL_TOKENS', {}, { details: { rule: 'identicalTokens', fromToken: from, toToken: to } });
    const now = deps.clock.now();
    const chains = executeChains(from, to, input);
    const { fromPrice, toPrice } = priceBoth(deps, from, to, chains, now);
    checkCrossChain(comp.crossChainTradingType, chains);
    const rows = tx.find('balances', 'agentCompetition', `${agentId}:${comp.id}`);
    const fromRow = findBalanceRow(rows, from);
    const available = fromRow?.amount ?? 0;
    if (available < amount) throw new DomainError('INSUFFICIENT_BALANCE', {}, { details: { rule: 'balance', token: from, requested: amount, available } });
    const tradeAmountUsd = amount * fromPrice.price;
    const pct = comp.paperTradingConfig.maxTradePercentage;
    const value = portfolioValue(deps, rows, now) ?? 0;
    if (tradeAmountUsd > (value * pct) / 100) {
      throw new DomainError('TRADE_TOO_LARGE', { pct }, {
        details: { rule: 'maxTradeSize', tradeAmountUsd, portfolioValue: value, maxTradePercentage: pct, maxTradeValueUsd: (value * pct) / 100 },
      });
    }
    const { slippage, toAmount } = fill(deps, tradeAmountUsd, toPrice.price, comp.slippageModel);
    tx.put('balances', changedBalance(fromRow!, { amount: fromRow!.amount - amount, updatedAt: now }));
    if (toAmount > 0) credit(deps, tx, rows, agentId, comp, to, toAmount, toPrice, now);
    const trade = tx.insert('trades', {
      id: deps.ids.uuid(), agentId, competitionId: comp.id, fromToken: from, toToken: to, fromAmount: amount, toAmount,
      tradeAmountUsd, toTokenSymbol: toPrice.symbol, fromTokenSymbol: fromPrice.symbol,
      reason: input.reason as string, timestamp: now, fromChain: chains.fromChain, toChain: chains.toChain,
      fromSpecificChain: fromPrice.specificChain, toSpecificChain: toPrice.specificChain, slippage,
    });
    // Upstream fired a snapshot of every participant after each trade; here it is part of the trade.
    takeSnapshotsTx(deps, tx, comp, activeAgentIds(tx, comp.id), now);
    return trade;
  });
}

/** Query of the legacy quote, as sent. */
export interface LegacyQuoteInput {
  fromToken?: unknown; toToken?: unknown; amount?: unknown;
  fromChain?: unknown; toChain?: unknown; fromSpecificChain?: unknown; toSpecificChain?: unknown;
}

/** The legacy quote: the current one without `tradeAmountUsd` and `symbols`. */
export interface LegacyQuote {
  fromToken: string; toToken: string; fromAmount: number; toAmount: number; exchangeRate: number;
  /** Percent. */
  slippage: number;
  prices: { fromToken: number; toToken: number };
  chains: { fromChain: BlockchainType; toChain: BlockchainType };
}

function quoteChains(from: string, to: string, q: LegacyQuoteInput): TradeChains {
  const parent = (v: unknown, addr: string) => (typeof v === 'string' && PARENTS.includes(v) ? (v as BlockchainType) : detectChain(addr));
  const out: TradeChains = { fromChain: parent(q.fromChain, from), toChain: parent(q.toChain, to) };
  // Here the specific chain applies even without the parent chain (reference legacy §3.5).
  if (typeof q.fromSpecificChain === 'string') out.fromSpecificChain = q.fromSpecificChain;
  if (typeof q.toSpecificChain === 'string') out.toSpecificChain = q.toSpecificChain;
  return out;
}

/**
 * `GET /api/trade/quote` with a team key: missing params, amount, prices (all 400); no competition,
 * balance or policy checks. Slippage follows the team's legacy active competition's formula, or
 * the legacy one when no competition is active.
 */
export async function quoteLegacyTrade(deps: Deps, agentId: string, q: LegacyQuoteInput): Promise<LegacyQuote> {
  // A transaction, not a read: the slippage draw advances the world's random stream (see quoteTrade).
  return deps.store.transact((tx) => {
    if (!q.fromToken || !q.toToken || !q.amount) throw missingTradeParams(q);
    for (const field of ['fromToken', 'toToken'] as const) if (typeof q[field] !== 'string') throw new DomainError('TRADE_FIELD_TYPE', { field });
    const from = q.fromToken as string;
    const to = q.toToken as string;
    const amount = parseAmount(q.amount);
    const chains = quoteChains(from, to, q);
    const { fromPrice, toPrice } = priceBoth(deps, from, to, chains, deps.clock.now());
    const usd = amount * fromPrice.price;
    if (!Number.isFinite(usd)) throw new DomainError('TRADE_VALUE_NOT_FINITE', {}, { details: { rule: 'finiteValue', tradeAmountUsd: null } });
    const comp = legacyActiveCompetition(tx, agentId);
    const model = comp ? (comp.slippageModel ?? 'current') : 'legacy';
    const slippage = competitionSlippage(model, usd, deps.config.slippage, () => deps.ids.random());
    const toAmount = (usd * (1 - slippage)) / toPrice.price;
    return {
      fromToken: from, toToken: to, fromAmount: amount, toAmount, exchangeRate: toAmount / amount, slippage: slippage * 100,
      prices: { fromToken: fromPrice.price, toToken: toPrice.price }, chains: { fromChain: chains.fromChain, toChain: chains.toChain },
    };
  });
}
