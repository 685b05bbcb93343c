// Response schemas of spot trading: execute, quote, price, own balances and trades, spot-live swaps and competition scripts.
import { LegacyQuote, LegacyTrade } from '../legacy/response.js';
import { Balance, ScriptAction, SpecificChain, Trade } from '../shared/entities.js';
import { arrayOf, boolean, component, dateTime, errors, nullable, number, ok, oneOfStrings, shape, string, type Responses } from '../shared/response.js';

export const swapResponses: Responses = { 200: ok({ trade: Trade }), ...errors(400, 403, 404, 409) };
export const scriptResponses: Responses = { 200: ok({ actions: arrayOf(ScriptAction) }), ...errors(400, 404) };

const chain = oneOfStrings('evm', 'svm');

/** The current generation's quote (no `success` field, as upstream). */
export const Quote = component('Quote', shape({
  fromToken: string, toToken: string, fromAmount: number, toAmount: number, exchangeRate: number,
  slippage: { type: 'number', description: 'Percent (0.055 means 0.055 %)' }, tradeAmountUsd: number,
  prices: shape({ fromToken: number, toToken: number }), symbols: shape({ fromTokenSymbol: string, toTokenSymbol: string }),
  chains: shape({ fromChain: chain, toChain: chain }),
}));

/** A missing price is a 200 with `success: false`. */
export const priceResponses: Responses = {
  200: shape({ success: boolean, price: nullable(number), token: string, chain, specificChain: nullable(SpecificChain), timestamp: dateTime }, {
    optional: { symbol: string },
  }),
  ...errors(400),
};
/** An agent key gets the current trade row, a team key the legacy transaction. */
export const executeResponses: Responses = { 200: ok({ transaction: { anyOf: [Trade, LegacyTrade] } }), ...errors(400, 403, 404) };
export const quoteResponses: Responses = { 200: { anyOf: [Quote, LegacyQuote] }, ...errors(400, 403, 404) };
export const balancesResponses: Responses = {
  // Version 2025-10 names no competition.
  200: ok({ agentId: string, balances: arrayOf(Balance) }, { optional: { competitionId: string } }), ...errors(400, 401, 403, 404),
};
export const agentTradesResponses: Responses = { 200: ok({ agentId: string, trades: arrayOf(Trade) }), ...errors(400, 401, 403, 404) };
