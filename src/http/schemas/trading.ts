// Schemas of trade execute/quote and the agent's balances/trades: loose where upstream answers with its own messages.
import { obj, specificChain, str, uuid } from './common.js';

const parentChain = { type: 'string', enum: ['evm', 'svm'] };

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
