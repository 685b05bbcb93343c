// Admin competition lifecycle: create, start (by id or create-and-start), end, update, snapshots.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, createCompetition, expectError, nextWallet } from '../helpers/actors.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const SOL = 'So11111111111111111111111111111111111111112';

describe('POST /api/admin/competition/create', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());
  const create = (body: object) => s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body });

  it('creates a pending competition with upstream defaults (201)', async () => {
    const res = await create({ name: 'Cup', rewards: { 2: 50, 1: 100 } });
    expect(res.status).to.equal(201);
    const c = res.body.competition;
    expect(c).to.include({ name: 'Cup', status: 'pending', type: 'trading', crossChainTradingType: 'disallowAll', sandboxMode: false, arenaId: 'default-paper-arena', startDate: null });
    expect(c.tradingConstraints).to.deep.equal({ minimumPairAgeHours: 168, minimum24hVolumeUsd: 100000, minimumLiquidityUsd: 100000, minimumFdvUsd: 1000000, minTradesPerDay: null });
    expect(c.rewards).to.deep.equal([{ rank: 1, reward: 100 }, { rank: 2, reward: 50 }]);
    expect(c.paperTradingConfig).to.deep.equal({ maxTradePercentage: 25 });
    expect(c.paperTradingInitialBalances).to.have.length(9);
  });

  it('stores every given field, dates as ISO strings', async () => {
    const res = await create({
      name: 'Full', description: 'd', type: 'perpetual_futures', tradingType: 'allow', sandboxMode: true,
      startDate: '2025-02-01T00:00:00Z', endDate: '2025-02-08T00:00:00.000Z', maxParticipants: 10,
      tradingConstraints: { minimumPairAgeHours: 1, minTradesPerDay: 3 }, paperTradingConfig: { maxTradePercentage: 50 },
      paperTradingInitialBalances: [{ specificChain: 'eth', tokenSymbol: 'usdc', amount: 100.555 }],
    });
    expect(res.status).to.equal(201);
    const c = res.body.competition;
    expect(c).to.include({ type: 'perpetual_futures', arenaId: 'default-perps-arena', crossChainTradingType: 'allow', startDate: '2025-02-01T00:00:00.000Z', maxParticipants: 10 });
    expect(c.tradingConstraints).to.include({ minimumPairAgeHours: 1, minimum24hVolumeUsd: 100000, minTradesPerDay: 3 });
    expect(c.paperTradingInitialBalances).to.deep.equal([{ specificChain: 'eth', tokenSymbol: 'usdc', amount: 100.56 }]);
  });

  it('rejects a missing name, bad enums and bad balances (400)', async () => {
    expectError(await create({}), 400, 'Invalid request: name (required)');
    expectError(await create({ name: 'x', tradingType: 'any' }), 400, 'Invalid request: tradingType (must be equal to one of the allowed values: disallowAll, disallowXParent, allow)');
    expectError(await create({ name: 'x', paperTradingConfig: { maxTradePercentage: 0 } }), 400, 'Invalid request: paperTradingConfig.maxTradePercentage (must be >= 1)');
    expectError(await create({ name: 'x', paperTradingInitialBalances: [] }), 400, 'Invalid request: paperTradingInitialBalances (at least one initial balance is required)');
    expectError(await create({ name: 'x', paperTradingInitialBalances: [{ specificChain: 'eth', tokenSymbol: 'usdc', amount: 0 }] }), 400,
      'Invalid request: paperTradingInitialBalances.0.amount (must be > 0)');
    const dup = { specificChain: 'eth', tokenSymbol: 'usdc', amount: 1 };
    expectError(await create({ name: 'x', paperTradingInitialBalances: [dup, dup] }), 400,
      'Invalid request: paperTradingInitialBalances (duplicate entries detected: each (specificChain, tokenSymbol) pair must be unique)');
    expectError(await create({ name: 'x', boostTimeDecayRate: 0.09 }), 400, 'Invalid request: boostTimeDecayRate (too small: expected number to be >=0.1)');
    expectError(await create({ name: 'x', boostTimeDecayRate: 0.91 }), 400, 'Invalid request: boostTimeDecayRate (too big: expected number to be <=0.9)');
    expectError(await create({ name: 'x', boostTimeDecayRate: '0.5' }), 400, 'Invalid request: boostTimeDecayRate (expected number, received string)');
    for (const rate of [0.1, 0.9]) expect((await create({ name: 'x', boostTimeDecayRate: rate })).status).to.equal(201);
    expectError(await create({ name: 'x', paperTradingInitialBalances: [{ specificChain: 'eth', tokenSymbol: 'doge', amount: 1 }] }), 400,
      "Invalid request: paperTradingInitialBalances (unknown token symbol 'doge' on chain 'eth')");
    expectError(await create({ name: 'x', startDate: 'soon' }), 400, 'Invalid request: startDate (invalid datetime)');
    expectError(await create({ name: 'x', joinStartDate: '2025-02-02T00:00:00Z', joinEndDate: '2025-02-01T00:00:00Z' }), 400,
      'Invalid request: joinStartDate (joinStartDate must be before or equal to joinEndDate)');
  });

  it('rejects an unknown arena (404) and an arena of another skill (400)', async () => {
    expectError(await create({ name: 'x', arenaId: 'no-such-arena' }), 404, 'Arena with ID no-such-arena not found');
    expectError(await create({ name: 'x', arenaId: 'default-paper-arena', type: 'perpetual_futures' }), 400,
      'Competition type "perpetual_futures" incompatible with arena skill "spot_paper_trading"');
  });
});

describe('POST /api/admin/competition/start and /end', () => {
  let s: TestServer;
  let a: Awaited<ReturnType<typeof createAgent>>;
  let b: Awaited<ReturnType<typeof createAgent>>;
  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: '2025-03-01T00:00:00Z' });
    a = await createAgent(s, ADMIN_KEY, 'Ay');
    b = await createAgent(s, ADMIN_KEY, 'Bee');
  });
  afterEach(() => s.close());
  const start = (body: object) => s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body });
  const end = (competitionId: string) => s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId } });

  it('starts by id: registers agents, resets balances, takes the initial snapshot, startDate = now (200)', async () => {
    const c = await createCompetition(s, ADMIN_KEY, {
      startDate: '2030-01-01T00:00:00Z',
      paperTradingInitialBalances: [{ specificChain: 'optimism', tokenSymbol: 'eth', amount: 2 }, { specificChain: 'svm', tokenSymbol: 'SOL', amount: 1 }],
    });
    await s.world.advance(60_000);
    const res = await start({ competitionId: c.id, agentIds: [a.agentId, b.agentId], tradingConstraints: { minimumFdvUsd: 5 } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const got = res.body.competition;
    expect(got).to.include({ id: c.id, competitionId: c.id, status: 'active', startDate: '2025-03-01T00:01:00.000Z', crossChainTradingType: 'disallowAll' });
    expect(got.agentIds).to.deep.equal([a.agentId, b.agentId]);
    expect(got.tradingConstraints).to.include({ minimumFdvUsd: 5, minTradesPerDay: null });
    const balances = await s.world.deps.store.read((tx) => tx.find('balances', 'agentCompetition', `${a.agentId}:${c.id}`));
    // Upstream quirk: optimism WETH shares base's address, so it is labelled base.
    expect(balances.map((x) => [x.specificChain, x.symbol, x.amount])).to.deep.equal([['base', 'eth', 2], ['svm', 'SOL', 1]]);
    const snaps = await s.call('GET', `/api/admin/competition/${c.id}/snapshots`, { key: ADMIN_KEY });
    expect(snaps.body.snapshots).to.have.length(2);
    expect(snaps.body.snapshots[0]).to.include({ agentId: a.agentId, competitionId: c.id, timestamp: '2025-03-01T00:01:00.000Z', totalValue: 6150 });
  });

  it('creates and starts in one call (200)', async () => {
    const res = await start({ name: 'Instant', agentIds: [a.agentId] });
    expect(res.status).to.equal(200);
    expect(res.body.competition).to.include({ name: 'Instant', status: 'active' });
  });

  it('rejects start without agents, with inactive or unknown agents, twice, or unknown (400/404)', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    expectError(await start({ competitionId: c.id }), 400, 'Cannot start competition: no registered agents');
    await s.call('POST', `/api/admin/agents/${b.agentId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'x' } });
    expectError(await start({ competitionId: c.id, agentIds: [b.agentId, MISSING] }), 400,
      `Cannot start competition: the following agent IDs are invalid or inactive: ${b.agentId}, ${MISSING}`);
    expect((await start({ competitionId: c.id, agentIds: [a.agentId] })).status).to.equal(200);
    expectError(await start({ competitionId: c.id, agentIds: [a.agentId] }), 400, 'Competition is already in active state and cannot be started');
    expectError(await start({ competitionId: MISSING }), 404, 'Competition not found');
    expectError(await start({ agentIds: [a.agentId] }), 400, 'Invalid request: name (required)');
  });

  it('leaves nothing behind when a start fails halfway (all-or-nothing)', async () => {
    const c = await createCompetition(s, ADMIN_KEY, { maxParticipants: 1 });
    const before = await s.world.dump();
    expectError(await start({ competitionId: c.id, agentIds: [a.agentId, b.agentId] }), 409, 'Competition has reached maximum participant limit (1)');
    expect(await s.world.dump()).to.deep.equal(before);
  });

  it('ends: final snapshot, ranked leaderboard with pnl, status ended, endDate = now (200)', async () => {
    const c = await createCompetition(s, ADMIN_KEY, { paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'sol', amount: 1 }] });
    await start({ competitionId: c.id, agentIds: [a.agentId, b.agentId] });
    const bal = await s.world.deps.store.read((tx) => tx.find('balances', 'agentCompetition', `${b.agentId}:${c.id}`));
    await s.world.deps.store.transact((tx) => tx.put('balances', { ...bal[0]!, amount: 3 }));
    s.world.deps.prices.overrides.set({ address: SOL, specificChain: 'svm', price: 200 });
    await s.world.advance(1000);
    const res = await end(c.id);
    expect(res.status).to.equal(200);
    expect(res.body.competition).to.include({ status: 'ended', endDate: '2025-03-01T00:00:01.000Z' });
    expect(res.body.leaderboard).to.deep.equal([{ agentId: b.agentId, value: 600, pnl: 450 }, { agentId: a.agentId, value: 200, pnl: 50 }]);
    const rows = await s.world.deps.store.read((tx) => tx.find('leaderboards', 'competition', c.id));
    expect(rows.map((r) => [r.rank, r.startingValue, r.totalAgents])).to.deep.equal([[1, 150, 2], [2, 150, 2]]);
    const again = await end(c.id);
    expect(again.body.leaderboard).to.deep.equal(res.body.leaderboard);
  });

  it('rejects ending a pending or unknown competition (400/404)', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    expectError(await end(c.id), 400, 'Competition is not active or ending: pending');
    expectError(await end(MISSING), 404, 'Competition not found');
    expectError(await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: 'x' } }), 400, 'Invalid request: competitionId (invalid UUID)');
  });

  it('allows several active competitions at once', async () => {
    expect((await start({ name: 'One', agentIds: [a.agentId] })).status).to.equal(200);
    expect((await start({ name: 'Two', agentIds: [a.agentId] })).status).to.equal(200);
  });
});

describe('PUT /api/admin/competition/{competitionId}', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());

  it('updates fields, rewards and constraints (200)', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    const res = await s.call('PUT', `/api/admin/competition/${c.id}`, { key: ADMIN_KEY, body: { name: 'Renamed', rewards: { 1: 5 }, tradingConstraints: { minimumLiquidityUsd: 7 }, endDate: '2026-01-01T00:00:00Z' } });
    expect(res.status).to.equal(200);
    expect(res.body.competition).to.include({ name: 'Renamed', endDate: '2026-01-01T00:00:00.000Z' });
    expect(res.body.competition.rewards).to.deep.equal([{ rank: 1, reward: 5 }]);
    expect(res.body.competition.tradingConstraints.minimumLiquidityUsd).to.equal(7);
  });

  it('rejects an empty update (400) and a missing competition (404)', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    expectError(await s.call('PUT', `/api/admin/competition/${c.id}`, { key: ADMIN_KEY, body: {} }), 400, 'No valid fields provided for update');
    expectError(await s.call('PUT', `/api/admin/competition/${MISSING}`, { key: ADMIN_KEY, body: { name: 'x' } }), 404, 'Competition not found');
  });

  const put = (id: string, body: object) => s.call('PUT', `/api/admin/competition/${id}`, { key: ADMIN_KEY, body });
  const row = (id: string) => s.world.deps.store.read((tx) => tx.get('competitions', id)!);
  const walleted = async (name: string) => (await createAgent(s, ADMIN_KEY, name, { agentWalletAddress: nextWallet() })).agentId;

  it('changes the type only while pending, with the new type\'s configuration, judged against the current arena', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    expectError(await put(c.id, { type: 'perpetual_futures', arenaId: 'default-perps-arena' }), 400,
      'Perps provider configuration is required when changing to perpetual futures type');
    expectError(await put(c.id, { type: 'spot_live_trading', arenaId: 'default-spot-live-arena' }), 400,
      'Spot live configuration is required when changing to spot_live_trading type');
    expectError(await put(c.id, { spotLiveConfig: { dataSource: 'rpc_direct', dataSourceConfig: {} }, arenaId: 'default-spot-live-arena' }), 400,
      'Chains are required when converting to spot_live_trading type');
    // perpsProvider alone means perpetual futures; the paper arena it is in does not admit that type.
    expectError(await put(c.id, { perpsProvider: {} }), 400, 'Competition type "perpetual_futures" incompatible with arena skill "spot_paper_trading"');
    expect((await row(c.id)).type).to.equal('trading');
    const ok = await put(c.id, { perpsProvider: { initialCapital: 750 }, arenaId: 'default-perps-arena', evaluationMetric: 'sortino_ratio' });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body.competition).to.include({ type: 'perpetual_futures', evaluationMetric: 'sortino_ratio', perpsInitialEquityUsd: 10000 });
    expect((await row(c.id)).perpsConfig).to.deep.equal({
      provider: 'symphony', initialCapital: 750, selfFundingThreshold: 0, minFundingThreshold: null, apiUrl: null, evaluationMetric: 'sortino_ratio',
    });
    expectError(await put(c.id, { perpsProvider: { initialCapital: 0 } }), 400, 'Invalid request: perpsProvider.initialCapital (too small: expected number to be >0)');
    const started = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: c.id, agentIds: [await walleted('Perper')] } });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    expectError(await put(c.id, { type: 'trading', arenaId: 'default-paper-arena' }), 400, 'Cannot change competition type once it has started. Current status: active');
    expectError(await put(c.id, { evaluationMetric: 'calmar_ratio' }), 400, 'Cannot update perps configuration once competition has started. Current status: active');
    expectError(await put(c.id, { perpsProvider: { initialCapital: 9 } }), 400, 'Cannot update perps configuration once competition has started. Current status: active');
    expect((await row(c.id)).perpsConfig!.initialCapital).to.equal(750);
  });

  it('refuses started paper configuration and starting balances, arena changes once ended, unknown games', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Paper Player');
    const c = (await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Live', agentIds: [a.agentId] } })).body.competition;
    expectError(await put(c.id, { paperTradingConfig: { maxTradePercentage: 10 } }), 400, 'Cannot update paper trading config for competition that has started');
    expectError(await put(c.id, { paperTradingInitialBalances: [{ specificChain: 'eth', tokenSymbol: 'usdc', amount: 1 }] }), 400,
      'Cannot update paper trading initial balances for competition that has started');
    expectError(await put(c.id, { spotLiveConfig: { chains: ['base'] } }), 400, 'Cannot change competition type once it has started. Current status: active');
    // evaluationMetric on a paper competition is accepted and ignored.
    expect((await put(c.id, { evaluationMetric: 'sortino_ratio' })).status).to.equal(200);
    expect((await row(c.id)).perpsConfig).to.equal(undefined);
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: c.id } });
    expectError(await put(c.id, { arenaId: 'default-paper-arena' }), 400, 'Cannot change arena for ended competition - rankings already finalized');
    const p = await createCompetition(s, ADMIN_KEY);
    expectError(await put(p.id, { gameIds: [MISSING], arenaId: 'default-nfl-game-prediction-arena' }), 404, `Games not found: ${MISSING}`);
  });

  it('upserts starting balances into the stored list while pending (entries not named are kept)', async () => {
    const c = await createCompetition(s, ADMIN_KEY, { paperTradingInitialBalances: [
      { specificChain: 'eth', tokenSymbol: 'usdc', amount: 100 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 2 },
    ] });
    const res = await put(c.id, { paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'sol', amount: 3 }, { specificChain: 'base', tokenSymbol: 'usdc', amount: 50 }] });
    expect(res.status).to.equal(200);
    expect(res.body.competition.paperTradingInitialBalances).to.deep.equal([
      { specificChain: 'eth', tokenSymbol: 'usdc', amount: 100 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 3 },
      { specificChain: 'base', tokenSymbol: 'usdc', amount: 50 },
    ]);
  });

  it('validates boostTimeDecayRate on update and start too (400)', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    expectError(await put(c.id, { boostTimeDecayRate: 1 }), 400, 'Invalid request: boostTimeDecayRate (too big: expected number to be <=0.9)');
    expectError(await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: c.id, boostTimeDecayRate: 0 } }), 400,
      'Invalid request: boostTimeDecayRate (too small: expected number to be >=0.1)');
  });
});

describe('POST /api/admin/competition/start of perpetual futures', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());

  it('stores perpsProvider with upstream\'s defaults; initialCapital funds nothing (accounts start at perpsInitialEquityUsd)', async () => {
    const w = await createAgent(s, ADMIN_KEY, 'Capital', { agentWalletAddress: nextWallet() });
    const res = await s.call('POST', '/api/admin/competition/start', {
      key: ADMIN_KEY, body: { name: 'Capital Perps', type: 'perpetual_futures', agentIds: [w.agentId], perpsProvider: { initialCapital: 1234 } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const cid = res.body.competition.id;
    const row = await s.world.deps.store.read((tx) => tx.get('competitions', cid)!);
    expect(row.perpsConfig).to.deep.equal({
      provider: 'symphony', initialCapital: 1234, selfFundingThreshold: 0, minFundingThreshold: null, apiUrl: null, evaluationMetric: 'calmar_ratio',
    });
    const account = await s.call('GET', '/api/agent/perps/account', { key: w.apiKey, query: { competitionId: cid } });
    expect(account.body.account.totalEquity).to.equal('10000');
    const plain = await createCompetition(s, ADMIN_KEY, { type: 'perpetual_futures', arenaId: 'default-perps-arena' });
    expect((await s.world.deps.store.read((tx) => tx.get('competitions', plain.id)!)).perpsConfig!.initialCapital).to.equal(500);
  });

  it('refuses participants without a wallet, naming each (400); spot-live starts have no such check', async () => {
    const w = await createAgent(s, ADMIN_KEY, 'Has Wallet', { agentWalletAddress: nextWallet() });
    const x = await createAgent(s, ADMIN_KEY, 'No Wallet');
    const y = await createAgent(s, ADMIN_KEY, 'Nor This');
    const res = await s.call('POST', '/api/admin/competition/start', {
      key: ADMIN_KEY, body: { name: 'Perps', type: 'perpetual_futures', agentIds: [w.agentId, x.agentId, y.agentId] },
    });
    expectError(res, 400, `Cannot proceed with perpetual futures competition: The following agents have no wallet address: No Wallet (${x.agentId}), Nor This (${y.agentId})`);
    expect((await s.world.deps.store.read((tx) => tx.all('competitions'))).some((c) => c.name === 'Perps')).to.equal(false);
    const spot = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Spot', type: 'spot_live_trading', agentIds: [x.agentId] } });
    expect(spot.status, JSON.stringify(spot.body)).to.equal(200);
  });
});
