// Test helper: a served world with agents in a started paper-trading competition, and token addresses.
import { expect } from 'chai';
import type { WorldOptions } from '../../src/world/config.js';
import { createAgent } from './actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from './server.js';

/** Addresses from fixtures/tokens.json (constant prices in brackets). */
export const TOK = {
  SOL: 'So11111111111111111111111111111111111111112', // 150
  SVM_USDC: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  SVM_USDT: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
  BONK: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', // FDV 500,000
  WIF: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm', // no metadata
  JUP: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN',
  WETH: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', // 3000
  ETH_USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  UNI: '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984', // 8
  SHIB: '0x95aD61b0a150d79219dCF64E1E6Cc01f0B64C4cE', // 24h volume 20,000
  BASE_USDC: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  AERO: '0x940181a94A35A4569E4529A3CDfB74e38FD98631', // only on base
  DEGEN: '0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed', // always 24 h old
  BRETT: '0x532f27101965dd16442E59d40670FaF5eBB142E4', // liquidity 40,000
  EVM_BURN: '0x000000000000000000000000000000000000dEaD',
  SVM_BURN: '1nc1nerator11111111111111111111111111111111',
} as const;

/** A started competition with its agents. */
export interface Arena {
  s: TestServer;
  competitionId: string;
  agents: { agentId: string; apiKey: string; userId: string }[];
  /** POST /api/trade/execute as agent `i` (competitionId filled in unless given). */
  trade(body: Record<string, unknown>, i?: number): ReturnType<TestServer['call']>;
  /** The store's balance rows of agent `i` in this competition. */
  balances(i?: number): Promise<{ tokenAddress: string; amount: number; symbol: string; specificChain: string }[]>;
}

/**
 * Starts a server (constant prices; slippage `none` unless overridden), creates `n` agents and
 * starts a competition with `comp` create fields for them.
 */
export async function startArena(comp: Record<string, unknown> = {}, n = 2, world: WorldOptions = {}): Promise<Arena> {
  const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, slippage: 'none', ...world });
  const agents: Arena['agents'] = [];
  for (let i = 0; i < n; i++) agents.push(await createAgent(s, ADMIN_KEY, `Trader ${i}`));
  const res = await s.call('POST', '/api/admin/competition/start', {
    key: ADMIN_KEY, body: { name: 'Trading Cup', agentIds: agents.map((a) => a.agentId), ...comp },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const competitionId = res.body.competition.id as string;
  return {
    s, competitionId, agents,
    trade: (body, i = 0) => s.call('POST', '/api/trade/execute', { key: agents[i]!.apiKey, body: { competitionId, reason: 'test', ...body } }),
    balances: (i = 0) => s.world.deps.store.read((tx) => tx.find('balances', 'agentCompetition', `${agents[i]!.agentId}:${competitionId}`)),
  };
}

/** One svm USDC balance of `usdc`, and optionally more rows. */
export function usdcOnly(usdc: number, more: { specificChain: string; tokenSymbol: string; amount: number }[] = []) {
  return { paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: usdc }, ...more] };
}
