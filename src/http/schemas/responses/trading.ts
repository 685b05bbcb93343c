// Response schemas of health, prices, trade execute/quote (both generations) and the agent's own balances and trades.
import { API_VERSIONS } from '../../../domain/versions.js';
import {
  arrayOf, component, dateTime, errors, nullable, number, ok, oneOfStrings, shape, string, boolean, type Responses,
} from './common.js';
import { Balance, SpecificChain, Trade } from './entities.js';
import { LegacyQuote, LegacyTrade } from './legacy.js';

const chain = oneOfStrings('evm', 'svm');

const health = {
  status: { type: 'string', const: 'ok' }, timestamp: dateTime, uptime: { type: 'number', description: 'Seconds of virtual time since the world was created' },
  version: string,
};

/** The current generation's quote (no `success` field, as upstream). */
export const Quote = component('Quote', shape({
  fromToken: string, toToken: string, fromAmount: number, toAmount: number, exchangeRate: number,
  slippage: { type: 'number', description: 'Percent (0.055 means 0.055 %)' }, tradeAmountUsd: number,
  prices: shape({ fromToken: number, toToken: number }), symbols: shape({ fromTokenSymbol: string, toTokenSymbol: string }),
  chains: shape({ fromChain: chain, toChain: chain }),
}));

export const healthResponses: Responses = {
  200: { ...shape(health), examples: [{ status: 'ok', timestamp: '2025-06-02T12:00:00.000Z', uptime: 0, version: '0.1.0' }] },
};
export const healthDetailedResponses: Responses = {
  200: shape({
    ...health, services: { type: 'object', additionalProperties: { type: 'string', const: 'ok' } },
    apiVersion: { type: 'string', enum: [...API_VERSIONS], description: 'The API version the world speaks (compsim only).' },
    unknownTokens: { type: 'string', enum: ['refuse', 'synthetic'], description: 'How tokens outside the catalogue are priced (compsim only).' },
  }),
};

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
