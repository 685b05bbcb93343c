// Setting an agent's balances in a competition directly (the sim API's cheat code for bot tests), checked like a trade's tokens.
import type { SpecificChain } from '../../ports/prices.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Balance } from '../model.js';
import { findPrice } from './prices.js';
import { changedBalance, findBalanceRow } from './trade.js';
import { pairKey } from '../data/keys.js';

/** One balance to set: a token address, optionally its chain, and the amount the agent holds afterwards. */
export interface BalanceSetting { token: string; specificChain?: SpecificChain; amount: number }

/** Input of {@link setBalances}. */
export interface SetBalancesInput { agentId: string; competitionId: string; balances: readonly BalanceSetting[] }

/**
 * Sets the listed balances of an agent in a competition (other tokens keep theirs), in one
 * transaction. The token resolves as a trade's does (an EVM token without `specificChain` on the
 * first of the world's EVM chains that prices it): a token with no price now is refused, so every
 * balance set here can be valued and traded. Refuses unknown agents and competitions, agents that
 * are not participants, ended competitions and perps competitions (which hold no balances).
 * Returns the agent's balances in the competition afterwards.
 */
export function setBalances(deps: Deps, input: SetBalancesInput): Promise<Balance[]> {
  return deps.store.transact((tx) => {
    if (!tx.get('agents', input.agentId)) throw new DomainError('SIM_AGENT_NOT_FOUND', { id: input.agentId });
    const c = tx.get('competitions', input.competitionId);
    if (!c) throw new DomainError('COMPETITION_ID_NOT_FOUND', { id: input.competitionId });
    if (c.type !== 'trading' && c.type !== 'spot_live_trading') throw new DomainError('SIM_BALANCE_COMPETITION_TYPE', { type: c.type });
    if (c.status === 'ended') throw new DomainError('SIM_BALANCE_COMPETITION_ENDED', { id: c.id });
    if (!tx.get('competitionAgents', pairKey(c.id, input.agentId))) {
      throw new DomainError('SIM_BALANCE_NOT_PARTICIPANT', { agentId: input.agentId, competitionId: c.id });
    }
    const now = deps.clock.now();
    const key = pairKey(input.agentId, c.id);
    input.balances.forEach((b, index) => {
      const p = findPrice(deps.prices, deps.config.evmChains, b.token, now, b.specificChain ? { specificChain: b.specificChain } : {});
      if (!p) throw new DomainError('SIM_BALANCE_TOKEN_UNKNOWN', { index, token: b.token, chain: b.specificChain ?? 'any chain' });
      const row = findBalanceRow(tx.find('balances', 'agentCompetition', key), b.token);
      if (row) {
        tx.put('balances', changedBalance(row, { amount: b.amount, symbol: p.symbol, specificChain: p.specificChain, updatedAt: now }));
      } else {
        tx.insert('balances', {
          id: tx.nextSeq('balances'), agentId: input.agentId, competitionId: c.id, tokenAddress: deps.caches.internToken(b.token),
          amount: b.amount, symbol: p.symbol, specificChain: p.specificChain, createdAt: now, updatedAt: now,
        });
      }
    });
    return tx.find('balances', 'agentCompetition', key);
  });
}
