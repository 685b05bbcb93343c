// Request schemas of spot trading: execute, quote, price, own balances and trades, spot-live swaps and competition scripts.
import { handlerChecked } from '../../route.js';
import { nonEmpty, obj, specificChain, str, uuid } from '../shared/request.js';

const amount = { type: ['number', 'string'] } as const;
const parentChain = { type: 'string', enum: ['evm', 'svm'] } as const;

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
 * A positive amount as a numeric string: what `parseFloat` reads as more than 0 (leading blanks, an
 * optional `+`, then a decimal number that is not all zeros; anything may follow, as upstream).
 */
export const POSITIVE_NUMERIC_STRING = '^\\s*\\+?0*([1-9]|\\.0*[1-9])';

/**
 * Execute body. Tokens, amount, reason and competitionId are checked by the domain (upstream's
 * messages in upstream's order), the chains here; specific chains are free strings as upstream
 * passes them through.
 */
export const executeBody = obj({
  fromToken: handlerChecked({ ...nonEmpty, description: 'Address of the token to sell' }),
  toToken: handlerChecked({ ...nonEmpty, description: 'Address of the token to buy' }),
  amount: handlerChecked({
    description: 'Amount of fromToken: a positive number, or a string starting with one (read as parseFloat does)',
    anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'string', pattern: POSITIVE_NUMERIC_STRING }],
  }),
  reason: handlerChecked({ ...nonEmpty, description: 'Why the agent trades' }),
  competitionId: handlerChecked({ ...uuid, description: 'Competition id (default: the one active competition the agent is in)' }),
  fromChain: parentChain, toChain: parentChain, fromSpecificChain: str, toSpecificChain: str,
  slippageTolerance: { description: 'Accepted and ignored (any JSON value)' },
}, ['fromToken', 'toToken', 'amount', 'reason']);

/**
 * Quote query, validated whole by the handler for agent keys (upstream's messages); a team key gets
 * the legacy checks instead, so request validation only reads each field as text.
 */
export const quoteQuery = obj({
  competitionId: handlerChecked(uuid, str), fromToken: handlerChecked(nonEmpty, str), toToken: handlerChecked(nonEmpty, str),
  amount: handlerChecked({
    type: 'string', pattern: POSITIVE_NUMERIC_STRING, description: 'Amount of fromToken: text starting with a positive number (read as parseFloat does)',
  }, str),
  fromChain: handlerChecked(parentChain, str), toChain: handlerChecked(parentChain, str),
  fromSpecificChain: handlerChecked(specificChain, str), toSpecificChain: handlerChecked(specificChain, str),
}, ['fromToken', 'toToken', 'amount']);

/**
 * `GET /api/price`: the token is required (the domain's `Token address is required`); `chain` and
 * `specificChain` are hints (unknown values are ignored: the chain is then detected from the address).
 */
export const priceQuery = obj({
  token: handlerChecked({ ...nonEmpty, description: 'Token address' }, str),
  chain: { type: 'string', description: '`evm` or `svm`; any other value: detected from the address' },
  specificChain: { type: 'string', description: 'A specific chain (`eth`, `base`, `svm`, ...); any other value is ignored' },
  competitionId: { type: 'string', description: 'Accepted and ignored' },
}, ['token']);

/** `?competitionId=` of the agent's balances and trades (optional: absent means the active one). */
export const competitionQuery = obj({ competitionId: uuid });
