// Spot-live competitions: joining needs a verified wallet, injected swaps become spot_live trades, balances and snapshots follow, ROI ranking.
import { expect } from 'chai';
import { Wallet } from 'ethers';
import { signWalletVerification } from '../../src/world/signing.js';
import { createAgent, createCompetition, expectError, nextWallet } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { TOK } from '../helpers/trading.js';

const MINUTE = 60_000;
const MISSING = '00000000-0000-4000-8000-000000000000';
const WALLET_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
type Actor = Awaited<ReturnType<typeof createAgent>>;

describe('spot-live competitions', () => {
  let s: TestServer;
  let w1: Actor;
  let w2: Actor;
  let cid: string;
  const swap = (body: Record<string, unknown>, competitionId = cid) =>
    s.call('POST', `/api/admin/competitions/${competitionId}/spot-live/swaps`, { key: ADMIN_KEY, body: { agentId: w1.agentId, ...body } });
  const join = (a: Actor, competitionId = cid) => s.call('POST', `/api/competitions/${competitionId}/agents/${a.agentId}`, { key: a.apiKey });

  /** Verifies `a`'s wallet through the API with an independent key. */
  async function verifyWallet(a: Actor): Promise<string> {
    const nonce = (await s.call('GET', '/api/auth/agent/nonce', { key: a.apiKey })).body.nonce;
    const signed = await signWalletVerification(WALLET_KEY, { nonce, domain: 'http://127.0.0.1:3000', timestamp: s.world.deps.clock.now() });
    const res = await s.call('POST', '/api/auth/verify', { key: a.apiKey, body: { message: signed.message, signature: signed.signature } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.walletAddress;
  }

  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, slippage: 'none' });
    w1 = await createAgent(s, ADMIN_KEY, 'Wallet One', { agentWalletAddress: nextWallet() });
    w2 = await createAgent(s, ADMIN_KEY, 'Wallet Two');
    const comp = await createCompetition(s, ADMIN_KEY, {
      name: 'Live Cup', type: 'spot_live_trading',
      paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }, { specificChain: 'eth', tokenSymbol: 'usdc', amount: 500 }],
    });
    cid = comp.id;
  });
  afterEach(() => s.close());

  async function startWithBoth(): Promise<void> {
    expect((await join(w1)).status).to.equal(200);
    await verifyWallet(w2);
    expect((await join(w2)).status).to.equal(200);
    const res = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: cid } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  it('requires a verified wallet to join; verifying one through /api/auth/verify lets the agent in', async () => {
    expectError(await join(w2), 400, 'Agent must have a wallet address to participate in this competition');
    expect(await verifyWallet(w2)).to.equal(new Wallet(WALLET_KEY).address.toLowerCase());
    const res = await join(w2);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  });

  describe('injected swaps', () => {
    beforeEach(startWithBoth);

    it('starts the wallets from the starting list and records a swap as a spot_live trade at the feed rate (200)', async () => {
      const res = await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: '150' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const t = res.body.trade;
      expect(t).to.include({
        agentId: w1.agentId, competitionId: cid, fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 150, toAmount: 1, price: 1 / 150,
        tradeAmountUsd: 150, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL', success: true, reason: 'On-chain trade detected',
        fromChain: 'svm', toChain: 'svm', fromSpecificChain: 'svm', toSpecificChain: 'svm', tradeType: 'spot_live', blockNumber: null, protocol: null,
      });
      expect(t.txHash).to.match(/^0x[0-9a-f]{64}$/);
      const balances = await s.call('GET', '/api/agent/balances', { key: w1.apiKey, query: { competitionId: cid } });
      expect(balances.body.balances.map((b: any) => [b.symbol, b.specificChain, b.amount])).to.deep.equal([
        ['USDC', 'svm', 850], ['USDC', 'eth', 500], ['SOL', 'svm', 1],
      ]);
      const mine = await s.call('GET', '/api/agent/trades', { key: w1.apiKey, query: { competitionId: cid } });
      expect(mine.body.trades.map((x: any) => [x.id, x.tradeType, x.txHash])).to.deep.equal([[t.id, 'spot_live', t.txHash]]);
      const list = await s.call('GET', `/api/competitions/${cid}/trades`, { key: w2.apiKey });
      expect(list.body.trades[0]).to.include({ id: t.id, tradeType: 'spot_live', txHash: t.txHash });
    });

    it('keeps the given amounts and on-chain fields; the rate is toAmount / fromAmount', async () => {
      const res = await swap({
        fromToken: TOK.ETH_USDC, toToken: TOK.WETH, fromAmount: 300, toAmount: '0.099', txHash: '0xabc', blockNumber: 21000000, protocol: 'uniswap-v3',
      });
      expect(res.body.trade).to.include({ fromAmount: 300, toAmount: 0.099, price: 0.099 / 300, tradeAmountUsd: 300, txHash: '0xabc', blockNumber: 21000000, protocol: 'uniswap-v3', fromSpecificChain: 'eth', toSpecificChain: 'eth' });
      expectError(await swap({ fromToken: TOK.ETH_USDC, toToken: TOK.WETH, fromAmount: 1, txHash: '0xabc' }), 409, 'Swap already recorded: 0xabc');
    });

    it('moves snapshots and the ROI ranking; the end stores the simple return as score', async () => {
      await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 150 });
      s.world.deps.prices.overrides.set({ address: TOK.SOL, specificChain: 'svm', price: 200 });
      await s.world.advance(5 * MINUTE);
      const snaps = await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { agentId: w1.agentId } });
      expect(snaps.body.snapshots.map((x: any) => x.totalValue)).to.deep.equal([1550, 1500]);
      const rows = (await s.call('GET', `/api/competitions/${cid}/agents`)).body.agents;
      expect(rows.map((r: any) => [r.name, r.rank, r.score])).to.deep.equal([['Wallet One', 1, 1550], ['Wallet Two', 2, 1500]]);
      const end = await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
      expect(end.body.leaderboard.map((r: any) => [r.agentId, r.value, r.pnl])).to.deep.equal([[w1.agentId, 50 / 1500, 50], [w2.agentId, 0, 0]]);
      expect(end.body.competition).to.include({ evaluationMetric: 'simple_return' });
      const after = (await s.call('GET', `/api/competitions/${cid}/agents`)).body.agents;
      expect(after.map((r: any) => [r.name, r.rank, r.score])).to.deep.equal([['Wallet One', 1, 1550], ['Wallet Two', 2, 1500]]);
    });

    it('runs scripted swaps at their virtual time', async () => {
      const res = await s.call('POST', `/api/admin/competitions/${cid}/script`, {
        key: ADMIN_KEY, body: { actions: [{ action: 'swap', afterMs: 2 * MINUTE, agentHandle: 'wallet_two', fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 300 }] },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((await s.world.advance(2 * MINUTE)).map((j) => j.kind)).to.deep.equal(['script']);
      const trades = await s.call('GET', '/api/agent/trades', { key: w2.apiKey, query: { competitionId: cid } });
      expect(trades.body.trades.map((t: any) => [t.toAmount, t.timestamp])).to.deep.equal([[2, new Date(s.world.deps.clock.now()).toISOString()]]);
    });

    it('refuses a scripted swap whose fields have the wrong type, storing nothing and leaving the clock working', async () => {
      const good = { action: 'swap', afterMs: MINUTE, agentHandle: 'wallet_two', fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 300 };
      const post = (bad: Record<string, unknown>) => s.call('POST', `/api/admin/competitions/${cid}/script`, { key: ADMIN_KEY, body: { actions: [good, { ...good, ...bad }] } });
      const cases: [Record<string, unknown>, string][] = [
        [{ fromToken: 5 }, 'fromToken (must be a non-empty string)'],
        [{ toToken: '' }, 'toToken (must be a non-empty string)'],
        [{ fromAmount: true }, 'fromAmount (must be a number or a numeric string)'],
        [{ txHash: 5 }, 'txHash (must be a non-empty string)'],
        [{ blockNumber: 'x' }, 'blockNumber (must be an integer >= 0)'],
        [{ protocol: 5 }, 'protocol (must be a string)'],
        [{ fromChain: 'btc' }, "fromChain (must be 'evm' or 'svm')"],
        [{ toSpecificChain: 1 }, 'toSpecificChain (must be a string)'],
        [{ agentHandle: undefined, agentId: 5 }, 'agentId (must be a string)'],
      ];
      for (const [bad, reason] of cases) expectError(await post(bad), 400, `Invalid request: actions.1.${reason}`);
      expect((await s.call('GET', `/api/admin/competitions/${cid}/script`, { key: ADMIN_KEY })).body.actions).to.deep.equal([]);
      const clock = await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 2 * MINUTE } });
      expect(clock.status, JSON.stringify(clock.body)).to.equal(200);
    });

    it('refuses paper trade execution with upstream\'s message (400)', async () => {
      const res = await s.call('POST', '/api/trade/execute', { key: w1.apiKey, body: { competitionId: cid, fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '10', reason: 'r' } });
      expectError(res, 400, 'This endpoint is not available for spot live trading competitions. Spot live trades occur on-chain through DEXs and are detected automatically.');
    });

    it('rejects swaps the wallet could not have made (400, 403, 404, 409)', async () => {
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 1001 }), 400, 'Insufficient balance');
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SVM_USDC, fromAmount: 1 }), 400, 'Cannot trade between identical tokens');
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: 'NoSuchToken1111111111111111111111111111111', fromAmount: 1 }), 400, 'Unable to determine price for tokens');
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: '-1' }), 400, 'Amount must be a positive number');
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 1, agentId: MISSING }), 404, 'Agent not found');
      const outsider = await createAgent(s, ADMIN_KEY, 'Outsider', { agentWalletAddress: nextWallet() });
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 1, agentId: outsider.agentId }), 403, 'Agent is not registered in this competition');
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 1 }, MISSING), 404, 'Competition not found');
      const paper = await createCompetition(s, ADMIN_KEY, { name: 'Paper' });
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 1 }, paper.id), 400, 'This endpoint is only available for spot live trading competitions');
      const later = await createCompetition(s, ADMIN_KEY, { name: 'Later', type: 'spot_live_trading' });
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, fromAmount: 1 }, later.id), 400, 'Competition is not active (status: pending)');
      expectError(await swap({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL }), 400, 'Invalid request: fromAmount (required)');
    });
  });
});
