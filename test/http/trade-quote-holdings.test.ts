// GET /api/trade/quote, GET /api/agent/balances and GET /api/agent/trades: shapes, competition resolution, rejections.
import { expect } from 'chai';
import { createAgent, expectError } from '../helpers/actors.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { startArena, TOK, usdcOnly, type Arena } from '../helpers/trading.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('GET /api/trade/quote', () => {
  let a: Arena;
  beforeEach(async () => { a = await startArena(usdcOnly(1000), 1, { slippage: 'upstream' }); });
  afterEach(() => a.s.close());
  const quote = (query: Record<string, string>, key = a.agents[0]!.apiKey) => a.s.call('GET', '/api/trade/quote', { key, query });

  it('quotes with upstream\'s shape (no success field) and a fresh slippage draw per call (200)', async () => {
    const q = { competitionId: a.competitionId, fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1000' };
    const r1 = await quote(q);
    expect(r1.status).to.equal(200);
    expect(Object.keys(r1.body)).to.deep.equal(['fromToken', 'toToken', 'fromAmount', 'toAmount', 'exchangeRate', 'slippage', 'tradeAmountUsd', 'prices', 'symbols', 'chains']);
    expect(r1.body).to.deep.include({
      fromAmount: 1000, tradeAmountUsd: 1000, prices: { fromToken: 1, toToken: 150 },
      symbols: { fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL' }, chains: { fromChain: 'svm', toChain: 'svm' },
    });
    expect(r1.body.slippage).to.be.within(0.263, 0.334); // percent, reference table for $1,000
    expect(r1.body.toAmount).to.be.closeTo((1000 * (1 - r1.body.slippage / 100)) / 150, 1e-9);
    expect(r1.body.exchangeRate).to.be.closeTo(r1.body.toAmount / 1000, 1e-12);
    const r2 = await quote(q);
    expect(r2.body.slippage).to.not.equal(r1.body.slippage);
  });

  it('checks neither registration, balance, size, cross-chain policy nor constraints', async () => {
    const loner = await createAgent(a.s, ADMIN_KEY, 'Loner');
    const res = await quote({ competitionId: a.competitionId, fromToken: TOK.WETH, toToken: TOK.BONK, amount: '1000000' }, loner.apiKey);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.chains).to.deep.equal({ fromChain: 'evm', toChain: 'svm' });
  });

  it('quotes a burn as an unbounded amount (null), like upstream', async () => {
    const res = await quote({ fromToken: TOK.SVM_USDC, toToken: TOK.SVM_BURN, amount: '10' });
    expect(res.status).to.equal(200);
    expect(res.body.toAmount).to.equal(null);
    expect(res.body.exchangeRate).to.equal(null);
  });

  it('accepts an admin key and resolves the single active competition', async () => {
    const res = await quote({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '10' }, ADMIN_KEY);
    expect(res.status).to.equal(200);
  });

  it('rejects bad parameters with a message naming them (400), unknown competitions (404), perps (400) and unpriced tokens (400)', async () => {
    expectError(await quote({ fromToken: TOK.SVM_USDC, amount: '1' }), 400, 'Invalid request: toToken (required)');
    expectError(await quote({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '-1' }), 400, 'Amount must be a positive number');
    expectError(await quote({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1', fromChain: 'btc' }), 400,
      'Invalid request: fromChain (must be equal to one of the allowed values: evm, svm)');
    expectError(await quote({ competitionId: 'abc', fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1' }), 400, 'Invalid request: competitionId (invalid UUID)');
    expectError(await quote({ competitionId: MISSING, fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1' }), 404, 'Competition not found');
    const perps = await a.s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'P', type: 'perpetual_futures' } });
    expectError(await quote({ competitionId: perps.body.competition.id, fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1' }), 400,
      'This endpoint is not available for perpetual futures competitions. Perpetual futures positions are managed through external providers, not through this API.');
    expectError(await quote({ fromToken: TOK.SVM_USDC, toToken: 'nope', amount: '1' }), 400, 'Unable to determine price for tokens');
  });
});

describe('GET /api/agent/balances and GET /api/agent/trades', () => {
  let a: Arena;
  beforeEach(async () => { a = await startArena(usdcOnly(1000, [{ specificChain: 'eth', tokenSymbol: 'eth', amount: 0.5 }])); });
  afterEach(() => a.s.close());
  const get = (path: string, query: Record<string, string> = {}, key = a.agents[0]!.apiKey) => a.s.call('GET', path, { key, query });

  it('lists balances per competition with price, value and the price report\'s symbol (200)', async () => {
    const res = await get('/api/agent/balances', { competitionId: a.competitionId });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ success: true, agentId: a.agents[0]!.agentId, competitionId: a.competitionId });
    const [usdc, weth] = res.body.balances;
    expect(usdc).to.include({ id: 1, tokenAddress: TOK.SVM_USDC, amount: 1000, specificChain: 'svm', symbol: 'USDC', chain: 'svm', price: 1, value: 1000 });
    expect(weth).to.include({ tokenAddress: TOK.WETH, amount: 0.5, specificChain: 'eth', symbol: 'WETH', chain: 'evm', price: 3000, value: 1500 });
    expect(Object.keys(usdc)).to.deep.equal(['id', 'agentId', 'competitionId', 'tokenAddress', 'amount', 'createdAt', 'updatedAt', 'specificChain', 'symbol', 'chain', 'price', 'value']);
  });

  it('omits price and value for an unpriced token and keeps the stored symbol', async () => {
    await a.s.world.deps.store.transact((tx) => {
      const rows = tx.find('balances', 'agentCompetition', `${a.agents[0]!.agentId}:${a.competitionId}`);
      tx.put('balances', { ...rows[0]!, tokenAddress: 'UnpricedToken1111', symbol: 'odd' });
    });
    const res = await get('/api/agent/balances', { competitionId: a.competitionId });
    expect(res.body.balances[0]).to.include({ tokenAddress: 'UnpricedToken1111', symbol: 'odd', chain: 'svm' });
    expect(res.body.balances[0]).to.not.have.property('price');
  });

  it('lists the agent\'s trades newest first (200); without competitionId the spec version answers 400', async () => {
    await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '15', reason: 'first' });
    await a.s.world.advance(60_000);
    await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '15', reason: 'second' });
    const res = await get('/api/agent/trades', { competitionId: a.competitionId });
    expect(res.status).to.equal(200);
    expect(res.body.agentId).to.equal(a.agents[0]!.agentId);
    expect(res.body.trades.map((t: { reason: string }) => t.reason)).to.deep.equal(['second', 'first']);
    expect((await get('/api/agent/trades', { competitionId: a.competitionId }, a.agents[1]!.apiKey)).body.trades).to.deep.equal([]);
    expectError(await get('/api/agent/trades'), 400, 'Missing required parameter: competitionId. Use GET /api/agent/trades?competitionId=xxx');
    expectError(await get('/api/agent/balances'), 400, 'Missing required parameter: competitionId. Use GET /api/agent/balances?competitionId=xxx');
  });

  it('answers an unregistered agent with empty lists (no registration check, as upstream)', async () => {
    const loner = await createAgent(a.s, ADMIN_KEY, 'Loner');
    expect((await get('/api/agent/balances', { competitionId: a.competitionId }, loner.apiKey)).body.balances).to.deep.equal([]);
    expect((await get('/api/agent/trades', { competitionId: a.competitionId }, loner.apiKey)).body.trades).to.deep.equal([]);
  });

  it('rejects bad ids (400), unknown competitions (404), perps (400) and admin keys (401)', async () => {
    for (const path of ['/api/agent/balances', '/api/agent/trades']) {
      expectError(await get(path, { competitionId: 'x' }), 400, 'Invalid request: competitionId (invalid UUID)');
      expectError(await get(path, { competitionId: MISSING }), 404, 'Competition not found');
      expectError(await get(path, { competitionId: a.competitionId }, ADMIN_KEY), 401, 'Authentication required');
    }
    const perps = await a.s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'P', type: 'perpetual_futures' } });
    const pid = perps.body.competition.id;
    expectError(await get('/api/agent/balances', { competitionId: pid }), 400,
      'This endpoint is not available for perpetual futures competitions. Use GET /api/agent/perps/account for account summary.');
    expectError(await get('/api/agent/trades', { competitionId: pid }), 400,
      'This endpoint is not available for perpetual futures competitions. Use GET /api/agent/perps/positions for current positions.');
  });

  it('asks for competitionId when the agent is in several active competitions (400)', async () => {
    const second = await a.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Second', agentIds: [a.agents[0]!.agentId] } });
    expect(second.status).to.equal(200);
    expectError(await get('/api/agent/balances'), 400, 'Missing required parameter: competitionId. Use GET /api/agent/balances?competitionId=xxx');
    expectError(await get('/api/agent/trades'), 400, 'Missing required parameter: competitionId. Use GET /api/agent/trades?competitionId=xxx');
  });
});
