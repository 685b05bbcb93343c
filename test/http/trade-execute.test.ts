// POST /api/trade/execute: the success record, every rejection in upstream's check order, and "a rejection changes nothing".
import { expect } from 'chai';
import type { ManualClockLike } from '../../src/ports/clock.js';
import { createAgent, expectError } from '../helpers/actors.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { startArena, TOK, usdcOnly, type Arena } from '../helpers/trading.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

/** Asserts an error whose world dump is byte-identical before and after (nothing changed, not even the RNG). */
async function rejects(a: Arena, body: Record<string, unknown>, status: number, message: string, i = 0) {
  const before = JSON.stringify(await a.s.world.dump());
  const res = await a.trade(body, i);
  expectError(res, status, message);
  expect(JSON.stringify(await a.s.world.dump()), 'state changed by a rejected trade').to.equal(before);
  return res;
}

describe('POST /api/trade/execute', () => {
  describe('an accepted trade', () => {
    let a: Arena;
    beforeEach(async () => { a = await startArena(usdcOnly(1000)); });
    afterEach(() => a.s.close());

    it('moves balances, records the exchange rate and the pre-slippage USD value (200)', async () => {
      const res = await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150', reason: 'buy sol' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.success).to.equal(true);
      const t = res.body.transaction;
      expect(t).to.include({
        agentId: a.agents[0]!.agentId, competitionId: a.competitionId, fromToken: TOK.SVM_USDC, toToken: TOK.SOL,
        fromAmount: 150, toAmount: 1, price: 1 / 150, tradeAmountUsd: 150, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL',
        success: true, error: null, reason: 'buy sol', timestamp: '2025-01-01T00:00:00.000Z', fromChain: 'svm', toChain: 'svm',
        fromSpecificChain: 'svm', toSpecificChain: 'svm', tradeType: 'simulated', txHash: null,
      });
      expect(t.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const rows = await a.balances();
      expect(rows.map((r) => [r.tokenAddress, r.amount, r.symbol, r.specificChain])).to.deep.equal([
        [TOK.SVM_USDC, 850, 'usdc', 'svm'], [TOK.SOL, 1, 'SOL', 'svm'],
      ]);
    });

    it('derives price from the stored amounts: rows carry none, every trade list and older documents agree', async () => {
      // Slippage makes toAmount a fraction with a long expansion, so a rounded or stale price would show.
      const b = await startArena(usdcOnly(1000), 1, { slippage: 'upstream' });
      try {
        const res = await b.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '7' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const t = res.body.transaction;
        expect(t.toAmount).to.not.equal(7 / 150);
        expect(t.price).to.equal(t.toAmount / 7);
        const [row] = await b.s.world.deps.store.read((tx) => tx.find('trades', 'competition', b.competitionId));
        expect(row).to.not.have.property('price');
        expect(row).to.include({ fromAmount: 7, toAmount: t.toAmount });
        const listed = await b.s.call('GET', '/api/agent/trades', { key: b.agents[0]!.apiKey, query: { competitionId: b.competitionId } });
        expect(listed.body.trades.map((x: { price: number }) => x.price)).to.deep.equal([t.price]);
        // A document written before price was derived stores it; loading it still works and answers the same.
        const dump = (await b.s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
        dump.tables.trades[0].price = t.price;
        const loaded = await b.s.call('POST', '/api/sim/load', { key: ADMIN_KEY, body: dump });
        expect(loaded.status, JSON.stringify(loaded.body)).to.equal(200);
        const again = await b.s.call('GET', '/api/agent/trades', { key: b.agents[0]!.apiKey, query: { competitionId: b.competitionId } });
        expect(again.body.trades).to.deep.equal(listed.body.trades);
      } finally {
        await b.s.close();
      }
    });

    it('parses amounts like upstream: numbers and "100abc" (= 100) are accepted', async () => {
      expect((await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: 15 })).body.transaction.fromAmount).to.equal(15);
      expect((await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '100abc' })).body.transaction.fromAmount).to.equal(100);
    });

    it('accepts slippageTolerance and ignores it, as upstream does', async () => {
      const res = await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150', slippageTolerance: '0.0001' });
      expect(res.status).to.equal(200);
      expect(res.body.transaction.toAmount).to.equal(1);
    });

    it('allows exactly the minimum amount 0.000001', async () => {
      expect((await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '0.000001' })).status).to.equal(200);
    });

    it('keeps a balance row that reaches zero and lists it', async () => {
      await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150' });
      await a.trade({ fromToken: TOK.SOL, toToken: TOK.SVM_USDC, amount: '1' });
      const rows = await a.balances();
      expect(rows.find((r) => r.tokenAddress === TOK.SOL)!.amount).to.equal(0);
      const res = await a.s.call('GET', '/api/agent/balances', { key: a.agents[0]!.apiKey, query: { competitionId: a.competitionId } });
      expect(res.body.balances.map((b: { symbol: string; amount: number }) => [b.symbol, b.amount])).to.deep.equal([['USDC', 1000], ['SOL', 0]]);
    });

    it('resolves the competition when competitionId is omitted (the one active competition of the agent)', async () => {
      const res = await a.s.call('POST', '/api/trade/execute', { key: a.agents[0]!.apiKey, body: { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '15', reason: 'r' } });
      expect(res.status).to.equal(200);
      expect(res.body.transaction.competitionId).to.equal(a.competitionId);
    });
  });

  describe('rejections, in upstream\'s order', () => {
    let a: Arena;
    beforeEach(async () => { a = await startArena(usdcOnly(1000)); });
    afterEach(() => a.s.close());
    const ok = { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '10' };

    it('1. rejects missing or falsy tokens and amount (400)', async () => {
      const msg = 'Missing required parameters: fromToken, toToken, amount';
      await rejects(a, { toToken: TOK.SOL, amount: '1' }, 400, msg);
      await rejects(a, { fromToken: TOK.SVM_USDC, toToken: '', amount: '1' }, 400, msg);
      const res = await rejects(a, { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: 0 }, 400, msg);
      expect(res.body.details).to.deep.equal({ rule: 'required', missing: ['amount'] });
      await rejects(a, { fromToken: 5, toToken: TOK.SOL, amount: '1' }, 400, 'Invalid request: fromToken (must be string)');
    });

    it('1. keeps upstream\'s message for a misspelt field, and names the field and the typo in details (400)', async () => {
      const res = await rejects(a, { formToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '10', reason: 'r', note: 'x' }, 400,
        'Missing required parameters: fromToken, toToken, amount');
      expect(res.body.details).to.deep.equal({ rule: 'required', missing: ['fromToken'], unknown: ['formToken', 'note'], didYouMean: { formToken: 'fromToken' } });
      const two = await rejects(a, { fromtoken: TOK.SVM_USDC, toToken: TOK.SOL, amout: '10' }, 400, 'Missing required parameters: fromToken, toToken, amount');
      expect(two.body.details).to.deep.equal({
        rule: 'required', missing: ['fromToken', 'amount'], unknown: ['fromtoken', 'amout'], didYouMean: { fromtoken: 'fromToken', amout: 'amount' },
      });
    });

    it('2. rejects a competitionId that is not a non-empty string (400)', async () => {
      const msg = 'Missing required parameter: competitionId. Use POST /api/trade/execute with competitionId in body';
      await rejects(a, { ...ok, competitionId: 42 }, 400, msg);
      await rejects(a, { ...ok, competitionId: '' }, 400, msg);
    });

    it('2. without competitionId: 403 when no competition is active, 400 when several are', async () => {
      const body = { ...ok, reason: 'r' };
      const loner = await createAgent(a.s, ADMIN_KEY, 'Loner');
      // The agent is in no active competition, but exactly one is active: it is used, and the 403 names it.
      const res = await a.s.call('POST', '/api/trade/execute', { key: loner.apiKey, body });
      expectError(res, 403, `Agent ${loner.agentId} is not registered for competition ${a.competitionId}. Trading is not allowed.`);
      const second = await a.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Second', agentIds: [loner.agentId] } });
      expect(second.status).to.equal(200);
      const other = await createAgent(a.s, ADMIN_KEY, 'Other');
      expectError(await a.s.call('POST', '/api/trade/execute', { key: other.apiKey, body }), 400,
        'Missing required parameter: competitionId. Use POST /api/trade/execute with competitionId in body');
      for (const id of [a.competitionId, second.body.competition.id]) {
        await a.s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: id } });
      }
      expectError(await a.s.call('POST', '/api/trade/execute', { key: other.apiKey, body }), 403, 'No active competition');
    });

    it('3. rejects a missing reason (400)', async () => {
      await rejects(a, { ...ok, reason: '' }, 400, 'Missing required parameter: reason');
    });

    it('4. rejects amounts that are not positive numbers (400)', async () => {
      for (const amount of ['abc', '-5', '0', '0.0', 'NaN', true]) await rejects(a, { ...ok, amount }, 400, 'Amount must be a positive number');
    });

    it('5. rejects an unknown competition (404) and a non-uuid id with the database text (400)', async () => {
      await rejects(a, { ...ok, competitionId: MISSING }, 404, `Competition not found: ${MISSING}`);
      await rejects(a, { ...ok, competitionId: 'not-a-uuid' }, 400, 'invalid input syntax for type uuid: "not-a-uuid"');
    });

    it('6. rejects perpetual-futures and spot-live competitions (400)', async () => {
      const perps = await a.s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'P', type: 'perpetual_futures' } });
      const spot = await a.s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'S', type: 'spot_live_trading' } });
      await rejects(a, { ...ok, competitionId: perps.body.competition.id }, 400,
        'This endpoint is not available for perpetual futures competitions. Perpetual futures positions are managed through external providers, not through this API.');
      await rejects(a, { ...ok, competitionId: spot.body.competition.id }, 400,
        'This endpoint is not available for spot live trading competitions. Spot live trades occur on-chain through DEXs and are detected automatically.');
    });

    it('7. rejects trading after the end date, even before the auto-end has run (400)', async () => {
      const upd = await a.s.call('PUT', `/api/admin/competition/${a.competitionId}`, { key: ADMIN_KEY, body: { endDate: '2025-01-01T01:00:00Z' } });
      expect(upd.status).to.equal(200);
      (a.s.world.deps.clock as ManualClockLike).set(Date.UTC(2025, 0, 1, 1) + 1); // past the end, scheduler not run
      const res = await rejects(a, ok, 400, 'Competition has ended. Trading is no longer allowed for competition: Trading Cup');
      expect(res.body.details.rule).to.equal('competitionEnded');
      await a.s.world.advance(0); // the auto-end runs now
      await rejects(a, ok, 400, 'Competition has ended. Trading is no longer allowed for competition: Trading Cup');
    });

    it('8. checks registration before amount and token checks (403), also for disqualified agents', async () => {
      const loner = await createAgent(a.s, ADMIN_KEY, 'Loner');
      const msg = `Agent ${loner.agentId} is not registered for competition ${a.competitionId}. Trading is not allowed.`;
      const res = await a.s.call('POST', '/api/trade/execute', {
        key: loner.apiKey, body: { competitionId: a.competitionId, fromToken: TOK.SOL, toToken: TOK.SOL, amount: '0.0000001', reason: 'r' },
      });
      expectError(res, 403, msg);
      const removed = await a.s.call('POST', `/api/admin/competitions/${a.competitionId}/agents/${a.agents[1]!.agentId}/remove`, { key: ADMIN_KEY, body: { reason: 'cheating' } });
      expect(removed.status).to.equal(200);
      const r2 = await rejects(a, ok, 403, `Agent ${a.agents[1]!.agentId} is not registered for competition ${a.competitionId}. Trading is not allowed.`, 1);
      expect(r2.body.details).to.include({ rule: 'registration', status: 'disqualified' });
    });

    it('8. lets a registered agent of a pending competition through to the balance check, with a hint naming the cause (400)', async () => {
      const pending = await a.s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'Later', ...usdcOnly(1000) } });
      const cid = pending.body.competition.id;
      await a.s.call('POST', `/api/admin/competitions/${cid}/agents/${a.agents[0]!.agentId}`, { key: ADMIN_KEY });
      const res = await rejects(a, { ...ok, competitionId: cid }, 400, 'Insufficient balance');
      expect(res.body.details).to.deep.equal({
        rule: 'balance', token: TOK.SVM_USDC, requested: 10, available: 0, hint: `competition ${cid} is pending: balances are granted when it starts`,
      });
      // Started, it grants the balances and the same trade goes through.
      expect((await a.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: cid } })).status).to.equal(200);
      expect((await a.trade({ ...ok, competitionId: cid })).status).to.equal(200);
    });

    it('9. rejects amounts below 0.000001 (400)', async () => {
      const res = await rejects(a, { ...ok, amount: '0.0000009' }, 400, 'Trade amount too small (minimum: 0.000001)');
      expect(res.body.details).to.deep.equal({ rule: 'minimumAmount', amount: 0.0000009, minimum: 0.000001 });
    });

    it('11. rejects identical tokens, compared case-sensitively (400)', async () => {
      await rejects(a, { ...ok, toToken: TOK.SVM_USDC }, 400, 'Cannot trade between identical tokens');
      // Different case is "different" upstream; it then fails on price (svm addresses are case-sensitive there).
      await rejects(a, { ...ok, toToken: TOK.SVM_USDC.toLowerCase() }, 400, 'Unable to determine price for tokens');
    });

    it('14. rejects tokens without a price (400)', async () => {
      const res = await rejects(a, { ...ok, toToken: 'InvalidTokenAddressFormat123' }, 400, 'Unable to determine price for tokens');
      expect(res.body.details).to.include({ rule: 'price', fromPriceFound: true, toPriceFound: false });
    });

    it('17. rejects selling more than the balance, and tokens never held (400)', async () => {
      const res = await rejects(a, { ...ok, amount: '1000.5' }, 400, 'Insufficient balance');
      expect(res.body.details).to.deep.equal({ rule: 'balance', token: TOK.SVM_USDC, requested: 1000.5, available: 1000 });
      await rejects(a, { fromToken: TOK.SOL, toToken: TOK.SVM_USDC, amount: '1' }, 400, 'Insufficient balance');
    });

    it('401s an admin key: it authenticates but has no agent to trade for', async () => {
      const res = await a.s.call('POST', '/api/trade/execute', { key: ADMIN_KEY, body: { ...ok, competitionId: a.competitionId, reason: 'r' } });
      expectError(res, 401, 'Authentication required');
    });
  });
});
