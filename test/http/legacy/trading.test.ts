// POST /api/trade/execute and GET /api/trade/quote with team keys: the legacy record and quote, the team era's check order, legacy slippage.
import { expect } from 'chai';
import type { SlippageMode } from '../../../src/domain/deps.js';
import { slippageForBias, EXPECTED_BIAS } from '../../../src/domain/trading/slippage.js';
import type { TestServer } from '../../helpers/server.js';
import {
  ADMIN_KEY, ETH_USDC, expectError, registerTeam, SOL, startLegacyServer, startWithTeams, USDC, WETH, type Team,
} from './legacy-helpers.js';

const KEYS = [
  'id', 'timestamp', 'fromToken', 'toToken', 'fromAmount', 'toAmount', 'price', 'success', 'teamId', 'competitionId', 'reason',
  'fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain',
];

interface Setup { s: TestServer; a: Team; b: Team; cid: string }

async function setup(slippage: SlippageMode = 'none', start: Record<string, unknown> = {}): Promise<Setup> {
  const s = await startLegacyServer({ slippage });
  const a = await registerTeam(s, 'Alpha');
  const b = await registerTeam(s, 'Bravo');
  const cid = (await startWithTeams(s, [a.teamId, b.teamId], start)).id as string;
  return { s, a, b, cid };
}

const exec = (x: Setup, body: Record<string, unknown>, key = x.a.apiKey) => x.s.call('POST', '/api/trade/execute', { key, body });

describe('POST /api/trade/execute with a team key', () => {
  let x: Setup;
  afterEach(() => x.s.close());

  it('answers the legacy transaction in upstream\'s key order, without agentId, tradeAmountUsd or symbols (200)', async () => {
    x = await setup();
    const res = await exec(x, { fromToken: USDC, toToken: SOL, amount: '150', reason: 'buy sol' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const t = res.body.transaction;
    expect(Object.keys(t)).to.deep.equal(KEYS);
    expect(t).to.include({
      timestamp: '2025-01-01T00:00:00.000Z', fromToken: USDC, toToken: SOL, fromAmount: 150, toAmount: 1, price: 1 / 150, success: true,
      teamId: x.a.teamId, competitionId: x.cid, reason: 'buy sol', fromChain: 'svm', toChain: 'svm', fromSpecificChain: 'svm', toSpecificChain: 'svm',
    });
  });

  it('snapshots every participant after a trade (upstream\'s post-trade snapshot)', async () => {
    x = await setup();
    await x.s.world.advance(1000);
    await exec(x, { fromToken: USDC, toToken: SOL, amount: '150', reason: 'r' });
    const counts = await x.s.world.deps.store.read((tx) => [
      (tx.find('snapshots', 'agentCompetition', `${x.a.teamId}:${x.cid}`)).length,
      (tx.find('snapshots', 'agentCompetition', `${x.b.teamId}:${x.cid}`)).length,
    ]);
    expect(counts).to.deep.equal([2, 2]);
  });

  describe('rejections in the team era\'s order (nothing changes)', () => {
    async function rejects(body: Record<string, unknown>, status: number, message: string, key?: string) {
      const before = JSON.stringify(await x.s.world.dump());
      expectError(await exec(x, body, key), status, message);
      expect(JSON.stringify(await x.s.world.dump()), 'state changed').to.equal(before);
    }
    beforeEach(async () => { x = await setup(); });

    it('1. no active competition comes first, before any body check (403)', async () => {
      await x.s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: x.cid } });
      const c = await registerTeam(x.s, 'Charlie');
      await rejects({}, 403, 'No active competition', c.apiKey);
    });

    it('2-3. missing tokens or amount, then a missing reason (400)', async () => {
      const msg = 'Missing required parameters: fromToken, toToken, amount';
      await rejects({ toToken: SOL, amount: '1', reason: 'r' }, 400, msg);
      await rejects({ fromToken: USDC, toToken: SOL, amount: 0, reason: 'r' }, 400, msg);
      await rejects({ fromToken: USDC, toToken: SOL, amount: '1' }, 400, 'Missing required parameter: reason');
      await rejects({ fromToken: 5, toToken: SOL, amount: '1', reason: 'r' }, 400, 'Invalid request: fromToken (must be string)');
    });

    it('4-6. amount not positive, below the minimum, identical tokens (400)', async () => {
      await rejects({ fromToken: USDC, toToken: SOL, amount: 'abc', reason: 'r' }, 400, 'Amount must be a positive number');
      await rejects({ fromToken: USDC, toToken: SOL, amount: '-1', reason: 'r' }, 400, 'Amount must be a positive number');
      await rejects({ fromToken: USDC, toToken: SOL, amount: '0.0000001', reason: 'r' }, 400, 'Trade amount too small (minimum: 0.000001)');
      await rejects({ fromToken: USDC, toToken: USDC, amount: '1', reason: 'r' }, 400, 'Cannot trade between identical tokens');
    });

    it('7-8. prices before the cross-chain rule (400)', async () => {
      await rejects({ fromToken: USDC, toToken: '0x00000000000000000000000000000000000000aa', amount: '1', reason: 'r' }, 400, 'Unable to determine price for tokens');
      await rejects({ fromToken: USDC, toToken: WETH, amount: '1', reason: 'r' }, 400, 'Cross-chain trading is disabled. Both tokens must be on the same blockchain.');
    });

    it('9. insufficient balance, also for a team outside the competition (no registration check) (400)', async () => {
      await rejects({ fromToken: USDC, toToken: SOL, amount: '10001', reason: 'r' }, 400, 'Insufficient balance');
      const outsider = await registerTeam(x.s, 'Outsider');
      await rejects({ fromToken: USDC, toToken: SOL, amount: '1', reason: 'r' }, 400, 'Insufficient balance', outsider.apiKey);
    });

    it('10. more than the maximum share of the portfolio (400)', async () => {
      await rejects({ fromToken: USDC, toToken: SOL, amount: '2500.01', reason: 'r' }, 400, 'Trade exceeds maximum size (25% of portfolio value)');
      expect((await exec(x, { fromToken: USDC, toToken: SOL, amount: '2500', reason: 'r' })).status).to.equal(200);
    });
  });

  it('allows cross-chain trades in a competition started with allowCrossChainTrading: true', async () => {
    x = await setup('none', { allowCrossChainTrading: true });
    const res = await exec(x, { fromToken: USDC, toToken: WETH, amount: '300', reason: 'r' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.transaction).to.include({ toAmount: 0.1, fromChain: 'svm', toChain: 'evm', toSpecificChain: 'eth' });
  });

  it('ignores a specific chain given without its parent chain, as the team era did', async () => {
    x = await setup('none', { paperTradingInitialBalances: [{ specificChain: 'eth', tokenSymbol: 'usdc', amount: 10000 }] });
    const res = await exec(x, { fromToken: ETH_USDC, toToken: WETH, amount: '300', reason: 'r', fromSpecificChain: 'base', toSpecificChain: 'polygon' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.transaction).to.include({ fromSpecificChain: 'eth', toSpecificChain: 'eth' });
  });
});

describe('the implicit ACTIVE competition of a team', () => {
  let s: TestServer;
  afterEach(() => s.close());

  it('is the earliest-started active competition the team is in, else the earliest-started one', async () => {
    s = await startLegacyServer();
    const solo = await registerTeam(s, 'Solo');
    const member = await registerTeam(s, 'Member');
    const first = (await startWithTeams(s, [solo.teamId], { name: 'First' })).id;
    await s.world.advance(1000);
    const second = (await startWithTeams(s, [member.teamId], { name: 'Second' })).id;
    const body = { fromToken: USDC, toToken: SOL, amount: '150', reason: 'r' };
    const res = await s.call('POST', '/api/trade/execute', { key: member.apiKey, body });
    expect(res.body.transaction.competitionId).to.equal(second);
    const outsider = await registerTeam(s, 'Outsider');
    expectError(await s.call('POST', '/api/trade/execute', { key: outsider.apiKey, body }), 400, 'Insufficient balance');
    const status = await s.call('GET', '/api/competition/status', { key: outsider.apiKey });
    expect(status.body.competition.id).to.equal(first);
  });
});

describe('legacy slippage (reference legacy §3.2)', () => {
  let x: Setup;
  afterEach(() => x.s.close());

  it('expected: base = usd/10000 x 0.05 with the mean jitter (U = 0.5)', async () => {
    x = await setup('expected');
    const res = await exec(x, { fromToken: USDC, toToken: SOL, amount: '1000', reason: 'r' });
    expect(res.body.transaction.toAmount).to.be.closeTo((1000 * (1 - 0.005)) / 150, 1e-12);
    const q = await x.s.call('GET', '/api/trade/quote', { key: x.a.apiKey, query: { fromToken: USDC, toToken: SOL, amount: '2000' } });
    expect(q.body.slippage).to.be.closeTo(1, 1e-12); // percent: 2000/10000 x 0.05 = 1 %
  });

  it('none: no slippage', async () => {
    x = await setup('none');
    expect((await exec(x, { fromToken: USDC, toToken: SOL, amount: '1500', reason: 'r' })).body.transaction.toAmount).to.equal(10);
  });

  it('upstream: one seeded draw in base x [0.9, 1.1), identical on every run', async () => {
    x = await setup('upstream');
    const t1 = (await exec(x, { fromToken: USDC, toToken: SOL, amount: '1000', reason: 'r' })).body.transaction;
    const slip = 1 - (t1.toAmount * 150) / 1000;
    expect(slip).to.be.within(0.005 * 0.9, 0.005 * 1.1);
    const y = await setup('upstream');
    try {
      expect((await exec(y, { fromToken: USDC, toToken: SOL, amount: '1000', reason: 'r' })).body.transaction.toAmount).to.equal(t1.toAmount);
    } finally {
      await y.s.close();
    }
  });

  it('uses the current formula in a competition created without legacy fields (one formula per competition)', async () => {
    const s = await startLegacyServer({ slippage: 'expected' });
    const a = await registerTeam(s, 'Alpha');
    const start = await s.call('POST', '/api/admin/competition/start', {
      key: ADMIN_KEY, body: { name: 'Current', agentIds: [a.teamId], paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 10000 }] },
    });
    x = { s, a, b: a, cid: start.body.competition.id };
    expect(start.body.competition.status).to.equal('active');
    const res = await exec(x, { fromToken: USDC, toToken: SOL, amount: '1000', reason: 'r' });
    expect(res.body.transaction.toAmount).to.be.closeTo((1000 * (1 - slippageForBias(1000, EXPECTED_BIAS))) / 150, 1e-12);
  });
});

describe('GET /api/trade/quote with a team key', () => {
  let s: TestServer;
  let t: Team;
  beforeEach(async () => {
    s = await startLegacyServer({ slippage: 'expected' });
    t = await registerTeam(s, 'Alpha');
  });
  afterEach(() => s.close());
  const quote = (query: Record<string, string>) => s.call('GET', '/api/trade/quote', { key: t.apiKey, query });

  it('answers the legacy quote (no tradeAmountUsd, no symbols), with no active competition needed (200)', async () => {
    const res = await quote({ fromToken: USDC, toToken: SOL, amount: '1000' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      fromToken: USDC, toToken: SOL, fromAmount: 1000, toAmount: (1000 * 0.995) / 150, exchangeRate: (1000 * 0.995) / 150 / 1000, slippage: 0.5,
      prices: { fromToken: 1, toToken: 150 }, chains: { fromChain: 'svm', toChain: 'svm' },
    });
  });

  it('rejects missing parameters, a bad amount and unpriced tokens with upstream\'s messages (400)', async () => {
    expectError(await quote({ fromToken: USDC, amount: '1' }), 400, 'Missing required parameters: fromToken, toToken, amount');
    expectError(await quote({ fromToken: '', toToken: SOL, amount: '1' }), 400, 'Missing required parameters: fromToken, toToken, amount');
    expectError(await quote({ fromToken: USDC, toToken: SOL, amount: 'x' }), 400, 'Amount must be a positive number');
    expectError(await quote({ fromToken: USDC, toToken: 'nope', amount: '1' }), 400, 'Unable to determine price for tokens');
    expectError(await quote({ fromToken: WETH, toToken: USDC, amount: '1', fromSpecificChain: 'base' }), 400, 'Unable to determine price for tokens');
  });
});
