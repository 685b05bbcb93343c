// Test helper for the legacy (team) generation: a served world, team registration and legacy-style competition starts.
import { expect } from 'chai';
import type { WorldOptions } from '../../../src/world/config.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../../helpers/server.js';

export { ADMIN_KEY };

/** Token addresses (constant prices: SOL 150, USDC 1, WETH 3000). */
export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
export const ETH_USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
export const MISSING = '00000000-0000-4000-8000-000000000000';

/** A starting list of 10,000 svm USDC (portfolio value 10,000 USD). */
export const USDC_10K = [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 10000 }];

/** The legacy messages of the auth middleware and the deactivation error. */
export const MSG = {
  noKey: 'Authentication required. Use Authorization: Bearer YOUR_API_KEY',
  badKey: 'Invalid API key',
  adminOnly: 'Admin access required',
  deactivated: (reason: string) => `Your team has been deactivated from the competition: ${reason}`,
};

/** A served world with the fixed admin key; slippage `none` unless overridden. */
export function startLegacyServer(options: WorldOptions = {}): Promise<TestServer> {
  return startTestServer({ admin: { apiKey: ADMIN_KEY }, slippage: 'none', ...options });
}

let n = 0;

/** A registered team. */
export interface Team { teamId: string; apiKey: string; name: string; email: string; walletAddress: string }

/** Registers a team through the public endpoint (201 expected). */
export async function registerTeam(s: TestServer, name: string, extra: Record<string, unknown> = {}): Promise<Team> {
  n += 1;
  const body = { teamName: name, email: `team${n}@example.com`, contactPerson: `Contact ${n}`, ...extra };
  const res = await s.call('POST', '/api/public/teams/register', { body });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  const t = res.body.team;
  return { teamId: t.id, apiKey: t.apiKey, name: t.name, email: t.email, walletAddress: t.walletAddress };
}

/** Starts a competition with a legacy-style body (teamIds); returns the response body's competition. */
export async function startWithTeams(s: TestServer, teamIds: string[], extra: Record<string, unknown> = {}) {
  const res = await s.call('POST', '/api/admin/competition/start', {
    key: ADMIN_KEY, body: { name: 'Team Cup', teamIds, paperTradingInitialBalances: USDC_10K, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.competition;
}

/** Asserts an error envelope with an exact message. */
export function expectError(res: { status: number; body: any }, status: number, message: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.success).to.equal(false);
  expect(res.body.error).to.equal(message);
}
