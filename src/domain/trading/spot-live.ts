// Spot-live competitions: on-chain swaps of an agent's wallet, injected by an admin (or a script), recorded as trades with chains, symbols and a tx hash.
import type { BlockchainType } from '../../ports/prices.js';
import type { WriteTx } from '../../ports/store.js';
import { requireCompetition } from '../competitions/create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Competition, Trade } from '../model.js';
import { detectChain } from './prices.js';
import type { Tables } from '../tables.js';
import { changedBalance, credit, findBalanceRow, parseAmount, priceBoth, type TradeChains } from './trade.js';

/** The reason upstream's spot-live processor writes on every detected swap. */
export const SPOT_LIVE_REASON = 'On-chain trade detected';

/** Body of `POST /api/admin/competitions/{id}/spot-live/swaps`. */
export interface SwapInput {
  agentId: string; fromToken: string; toToken: string;
  /** Positive amounts (numbers or numeric strings, parsed like trade amounts). */
  fromAmount: number | string; toAmount?: number | string;
  txHash?: string; blockNumber?: number; protocol?: string;
  fromChain?: BlockchainType; toChain?: BlockchainType; fromSpecificChain?: string; toSpecificChain?: string;
}

function chainsOf(i: SwapInput): TradeChains {
  const c: TradeChains = { fromChain: i.fromChain ?? detectChain(i.fromToken), toChain: i.toChain ?? detectChain(i.toToken) };
  if (i.fromSpecificChain !== undefined) c.fromSpecificChain = i.fromSpecificChain;
  if (i.toSpecificChain !== undefined) c.toSpecificChain = i.toSpecificChain;
  return c;
}

/**
 * Records one swap of an agent's wallet as a `spot_live` trade, as upstream's processor does when
 * it detects one: competition exists (404), is spot-live (400) and active (400); the agent exists
 * (404) and is actively registered (403); a positive amount, two different tokens, prices for both
 * (upstream drops unpriceable swaps), enough of the from-token (the wallet cannot spend more), and
 * a tx hash not recorded before in this competition (409). `toAmount` defaults to the feed's rate
 * with no slippage; `price` = toAmount / fromAmount; `tradeAmountUsd` = fromAmount x from price.
 * Balances move at once; snapshots follow on the usual schedule. The tx hash defaults to 32 seeded
 * random bytes.
 */
export function recordSwapTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition, i: SwapInput): Trade {
  if (comp.type !== 'spot_live_trading') throw new DomainError('SPOT_LIVE_ONLY');
  if (comp.status !== 'active') throw new DomainError('SPOT_LIVE_NOT_ACTIVE', { status: comp.status });
  if (!(tx.get('agents', i.agentId))) throw new DomainError('AGENT_NOT_FOUND');
  if ((tx.get('competitionAgents', `${comp.id}:${i.agentId}`))?.status !== 'active') throw new DomainError('SPOT_LIVE_NOT_REGISTERED');
  const amount = parseAmount(i.fromAmount);
  if (i.fromToken === i.toToken) throw new DomainError('IDENTICAL_TOKENS');
  const now = deps.clock.now();
  const chains = chainsOf(i);
  const { fromPrice, toPrice } = priceBoth(deps, i.fromToken, i.toToken, chains, now);
  const tradeAmountUsd = amount * fromPrice.price;
  const toAmount = i.toAmount !== undefined ? parseAmount(i.toAmount) : toPrice.price > 0 ? tradeAmountUsd / toPrice.price : 0;
  const rows = tx.find('balances', 'agentCompetition', `${i.agentId}:${comp.id}`);
  const fromRow = findBalanceRow(rows, i.fromToken);
  if ((fromRow?.amount ?? 0) < amount) {
    throw new DomainError('INSUFFICIENT_BALANCE', {}, { details: { rule: 'balance', token: i.fromToken, requested: amount, available: fromRow?.amount ?? 0 } });
  }
  const txHash = i.txHash ?? `0x${deps.ids.hex(32)}`;
  if ((tx.find('trades', 'competition', comp.id)).some((t) => t.txHash === txHash)) throw new DomainError('SPOT_LIVE_DUPLICATE_TX', { txHash });
  tx.put('balances', changedBalance(fromRow!, { amount: fromRow!.amount - amount, updatedAt: now }));
  if (toAmount > 0) credit(deps, tx, rows, i.agentId, comp, i.toToken, toAmount, toPrice, now);
  return tx.insert('trades', {
    id: deps.ids.uuid(), agentId: i.agentId, competitionId: comp.id, fromToken: i.fromToken, toToken: i.toToken, fromAmount: amount, toAmount,
    tradeAmountUsd, toTokenSymbol: toPrice.symbol, fromTokenSymbol: fromPrice.symbol, reason: SPOT_LIVE_REASON,
    timestamp: now, fromChain: chains.fromChain, toChain: chains.toChain, fromSpecificChain: fromPrice.specificChain,
    toSpecificChain: toPrice.specificChain, slippage: 0, tradeType: 'spot_live', txHash, blockNumber: i.blockNumber ?? null, protocol: i.protocol ?? null,
  });
}

/** `POST /api/admin/competitions/{competitionId}/spot-live/swaps`: {@link recordSwapTx} in its own transaction. */
export function recordSwap(deps: Deps, competitionId: string, i: SwapInput): Promise<Trade> {
  return deps.store.transact((tx) => recordSwapTx(deps, tx, requireCompetition(tx, competitionId), i));
}
