// Request schemas of spot trading: execute, quote, price, own balances and trades, spot-live swaps and competition scripts.
import type { JSONSchema } from '../../route.js';
import { nonEmpty, obj, specificChain, str, uuid } from '../shared/request.js';

const amount: JSONSchema = { type: ['number', 'string'] };
const parentChain: JSONSchema = { type: 'string', enum: ['evm', 'svm'] };

/** Admin swap body (amounts as numbers or numeric strings, like trade amounts). */
export const swapBody = obj({
  agentId: uuid, fromToken: nonEmpty, toToken: nonEmpty, fromAmount: amount, toAmount: amount, txHash: nonEmpty,
  blockNumber: { type: 'integer', minimum: 0 }, protocol: str, fromChain: parentChain, toChain: parentChain, fromSpecificChain: str, toSpecificChain: str,
}, ['agentId', 'fromToken', 'toToken', 'fromAmount']);

/** A script: `{actions: [{action, at | afterMs, ...}]}` (each action is checked by the domain, which names it). */
export const scriptBody = obj({
  actions: { type: 'array', items: obj({ action: nonEmpty, at: { type: ['number', 'string'] }, afterMs: { type: 'number', minimum: 0 }, ref: str }, ['action']) },
}, ['actions']);

/**
 * `GET /api/trade/quote` query for both generations: every field optional and free text here; the
 * handler applies the current schema to agent keys and the legacy checks to team keys.
 */
export const anyQuoteQuery = obj({
  competitionId: str, fromToken: str, toToken: str, amount: str, fromChain: str, toChain: str, fromSpecificChain: str, toSpecificChain: str,
});


/**
 * Execute body: token, amount, reason and competitionId stay untyped so the domain gives upstream's
 * messages in upstream's order; specific chains are free strings as upstream passes them through.
 */
export const executeBody = obj({
  // Documented, checked by the domain (upstream's messages and order).
  fromToken: { description: 'Address of the token to sell (required)' },
  toToken: { description: 'Address of the token to buy (required)' },
  amount: { description: 'Amount of fromToken, a number or a numeric string (required)' },
  reason: { description: 'Why the agent trades (required)' },
  competitionId: { description: 'Competition uuid (optional: the one active competition the agent is in)' },
  fromChain: parentChain, toChain: parentChain, fromSpecificChain: str, toSpecificChain: str, slippageTolerance: {},
});

/** Quote query: upstream validates it whole, so bad values are named here. */
export const quoteQuery = obj({
  competitionId: uuid, fromToken: { type: 'string', minLength: 1 }, toToken: { type: 'string', minLength: 1 }, amount: str,
  fromChain: parentChain, toChain: parentChain, fromSpecificChain: specificChain, toSpecificChain: specificChain,
}, ['fromToken', 'toToken', 'amount']);

/** `?competitionId=` of the agent's balances and trades (optional: absent means the active one). */
export const competitionQuery = obj({ competitionId: uuid });
