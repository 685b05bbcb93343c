// Test helper for the competition read tests: a started cup whose agents' values diverge, and direct trade/vote rows.
import { expect } from 'chai';
import type { Trade, Vote } from '../../src/domain/model.js';
import { createAgent } from './actors.js';
import { ADMIN_KEY, type TestServer } from './server.js';

export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC_SVM = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const MISSING = '00000000-0000-4000-8000-000000000000';
export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

/** 10 SOL (150 USD each at catalogue prices) + 1000 USDC = 2500 USD per agent. */
export const CUP_BALANCES = [
  { specificChain: 'svm', tokenSymbol: 'sol', amount: 10 },
  { specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 },
];

/** Sets an agent's SOL holding in a competition (stands in for trades). */
export async function setSol(s: TestServer, competitionId: string, agentId: string, amount: number): Promise<void> {
  await s.world.deps.store.transact((tx) => {
    const row = (tx.find('balances', 'agentCompetition', `${agentId}:${competitionId}`)).find((b) => b.symbol.toLowerCase() === 'sol');
    expect(row, 'SOL balance row').to.not.equal(undefined);
    tx.put('balances', { ...row!, amount });
  });
}

/** Overrides the SOL price. */
export function setSolPrice(s: TestServer, price: number): void {
  s.world.deps.prices.overrides.set({ address: SOL, specificChain: 'svm', price });
}

export type Actor = Awaited<ReturnType<typeof createAgent>>;

/** A started cup. */
export interface Cup { cid: string; a: Actor; b: Actor; c: Actor; startedAt: number }

/**
 * Agents Alpha, bravo, Charlie (created one second apart, registered in that order), started
 * together with 2500 USD each (initial snapshot). Then SOL goes to 200 and holdings become 5 / 20
 * / 10 SOL, and the 5-minute snapshot records A 2000, B 5000, C 3000.
 */
export async function threeAgentCup(s: TestServer, extra: Record<string, unknown> = {}): Promise<Cup> {
  const a = await createAgent(s, ADMIN_KEY, 'Alpha');
  await s.world.advance(1000);
  const b = await createAgent(s, ADMIN_KEY, 'bravo');
  await s.world.advance(1000);
  const c = await createAgent(s, ADMIN_KEY, 'Charlie');
  const res = await s.call('POST', '/api/admin/competition/start', {
    key: ADMIN_KEY, body: { name: 'Three Cup', agentIds: [a.agentId, b.agentId, c.agentId], paperTradingInitialBalances: CUP_BALANCES, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const cid = res.body.competition.id as string;
  const startedAt = s.world.deps.clock.now();
  await setSol(s, cid, a.agentId, 5);
  await setSol(s, cid, b.agentId, 20);
  await setSol(s, cid, c.agentId, 10);
  setSolPrice(s, 200);
  await s.world.advance(5 * MINUTE);
  return { cid, a, b, c, startedAt };
}

let seq = 0;

/** Inserts a vote row directly (no vote-casting endpoint is needed for the read views). */
export async function insertVote(s: TestServer, v: Omit<Vote, 'id' | 'createdAt'> & { createdAt?: number }): Promise<Vote> {
  seq += 1;
  const row: Vote = { id: `vote-${seq}`, createdAt: s.world.deps.clock.now(), ...v };
  return s.world.deps.store.transact((tx) => tx.insert('votes', row));
}

/** Inserts a trade row directly (until tests drive trades through POST /api/trade/execute). */
export async function insertTrade(s: TestServer, t: Pick<Trade, 'agentId' | 'competitionId'> & Partial<Trade>): Promise<Trade> {
  seq += 1;
  const row: Trade = {
    id: `00000000-0000-4000-8000-${seq.toString().padStart(12, '0')}`, fromToken: USDC_SVM, toToken: SOL, fromAmount: 100, toAmount: 0.5,
    tradeAmountUsd: 100, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL', reason: 'test', timestamp: s.world.deps.clock.now(),
    fromChain: 'svm', toChain: 'svm', fromSpecificChain: 'svm', toSpecificChain: 'svm', slippage: 0, ...t,
  };
  return s.world.deps.store.transact((tx) => tx.insert('trades', row));
}
