// Wire shapes of trades and balances (upstream's row fields, in table order).
import { tradePrice, type Agent, type Trade } from '../../../domain/model.js';
import type { PricedBalance } from '../../../domain/trading/holdings.js';
import { iso } from '../shared/time.js';

/** A full trade row as upstream returns it (execute `transaction`, agent trade lists). */
export function apiTrade(t: Trade) {
  return {
    id: t.id, agentId: t.agentId, competitionId: t.competitionId, fromToken: t.fromToken, toToken: t.toToken,
    fromAmount: t.fromAmount, toAmount: t.toAmount, price: tradePrice(t), tradeAmountUsd: t.tradeAmountUsd,
    toTokenSymbol: t.toTokenSymbol, fromTokenSymbol: t.fromTokenSymbol, success: true, error: null, reason: t.reason,
    timestamp: iso(t.timestamp), fromChain: t.fromChain, toChain: t.toChain, fromSpecificChain: t.fromSpecificChain,
    toSpecificChain: t.toSpecificChain, tradeType: t.tradeType ?? 'simulated', txHash: t.txHash ?? null, blockNumber: t.blockNumber ?? null,
    protocol: t.protocol ?? null, gasUsed: null, gasPrice: null, gasCostUsd: null,
  };
}

/** An element of `GET /api/competitions/{id}/trades`: the row's public fields plus a short agent. */
export function apiCompetitionTrade(t: Trade, agent: Pick<Agent, 'id' | 'name' | 'imageUrl' | 'description'> | undefined) {
  return {
    id: t.id, competitionId: t.competitionId, agentId: t.agentId, fromToken: t.fromToken, toToken: t.toToken,
    fromAmount: t.fromAmount, toAmount: t.toAmount, fromTokenSymbol: t.fromTokenSymbol, toTokenSymbol: t.toTokenSymbol,
    fromSpecificChain: t.fromSpecificChain, toSpecificChain: t.toSpecificChain, tradeAmountUsd: t.tradeAmountUsd,
    timestamp: iso(t.timestamp), reason: t.reason, txHash: t.txHash ?? null, tradeType: t.tradeType ?? 'simulated',
    agent: agent ? { id: agent.id, name: agent.name, imageUrl: agent.imageUrl, description: agent.description } : null,
  };
}

/** A balance row of `GET /api/agent/balances` (price fields only when a price was found). */
export function apiBalance(b: PricedBalance) {
  return {
    id: b.id, agentId: b.agentId, competitionId: b.competitionId, tokenAddress: b.tokenAddress, amount: b.amount,
    createdAt: iso(b.createdAt), updatedAt: iso(b.updatedAt), specificChain: b.specificChain, symbol: b.symbol, chain: b.chain,
    ...(b.price !== undefined ? { price: b.price, value: b.value } : {}),
  };
}
