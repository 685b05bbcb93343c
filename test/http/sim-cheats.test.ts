// Cheat codes for bot tests: POST /api/sim/balances, and starting or ending a competition now (POST /api/sim/competitions/{id}/start|end).
import { expect } from 'chai';
import { createAgent, createCompetition, expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer } from '../helpers/server.js';
import { startArena, TOK, type Arena } from '../helpers/trading.js';

const UNKNOWN_ID = '3f1c9a4e-6b2d-4e8f-9a7c-1d2e3f4a5b6c';

describe('POST /api/sim/balances', () => {
  let a: Arena;
  beforeEach(async () => {
    a = await startArena({ paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 1 }] });
  });
  afterEach(() => a.s.close());
  const set = (balances: unknown[], agentId = a.agents[0]!.agentId, competitionId = a.competitionId, key = ADMIN_KEY) =>
    a.s.call('POST', '/api/sim/balances', { key, body: { agentId, competitionId, balances } });
  const held = async (i = 0) => Object.fromEntries((await a.balances(i)).map((b) => [`${b.specificChain}:${b.tokenAddress}`, b.amount]));

  it('sets listed balances (an existing row and a new token on an explicit chain), keeps the others, and they trade (200)', async () => {
    const res = await set([{ token: TOK.SOL, amount: 3 }, { token: TOK.WETH, specificChain: 'eth', amount: 2 }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true, agentId: a.agents[0]!.agentId, competitionId: a.competitionId,
      balances: [
        { tokenAddress: TOK.SVM_USDC, amount: 1000, symbol: 'usdc', specificChain: 'svm' },
        { tokenAddress: TOK.SOL, amount: 3, symbol: 'SOL', specificChain: 'svm' },
        { tokenAddress: TOK.WETH, amount: 2, symbol: 'WETH', specificChain: 'eth' },
      ],
    });
    expect(await held(1)).to.deep.equal({ [`svm:${TOK.SVM_USDC}`]: 1000, [`svm:${TOK.SOL}`]: 1 }); // the other agent is untouched
    const sold = await a.trade({ fromToken: TOK.SOL, toToken: TOK.SVM_USDC, amount: '2.5' });
    expect(sold.status, JSON.stringify(sold.body)).to.equal(200);
    const balances = await a.s.call('GET', '/api/agent/balances', { key: a.agents[0]!.apiKey, query: { competitionId: a.competitionId } });
    expect(balances.body.balances.find((b: { tokenAddress: string }) => b.tokenAddress === TOK.WETH).amount).to.equal(2);
  });

  it('finds an EVM token on the first chain that prices it, and sets a zero balance', async () => {
    const res = await set([{ token: TOK.AERO, amount: 10 }, { token: TOK.SOL, amount: 0 }]);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await held()).to.deep.equal({ [`svm:${TOK.SVM_USDC}`]: 1000, [`svm:${TOK.SOL}`]: 0, [`base:${TOK.AERO}`]: 10 });
  });

  it('is part of snapshots: a restore brings the balances back', async () => {
    const snap = await a.s.call('POST', '/api/sim/snapshots', { key: ADMIN_KEY });
    await set([{ token: TOK.SOL, amount: 50 }]);
    await a.s.call('POST', `/api/sim/snapshots/${snap.body.id}/restore`, { key: ADMIN_KEY });
    expect(await held()).to.deep.equal({ [`svm:${TOK.SVM_USDC}`]: 1000, [`svm:${TOK.SOL}`]: 1 });
  });

  it('refuses unknown agents (404), competitions (404), tokens (400), negative amounts (400), non-participants (400) and changes nothing', async () => {
    const before = await a.s.world.dump();
    expectError(await set([{ token: TOK.SOL, amount: 1 }], UNKNOWN_ID), 404, `Agent not found: ${UNKNOWN_ID}`);
    expectError(await set([{ token: TOK.SOL, amount: 1 }], undefined, UNKNOWN_ID), 404, `Competition not found: ${UNKNOWN_ID}`);
    expectError(await set([{ token: TOK.SOL, amount: 1 }, { token: 'NoSuchToken111111111111111111111111111111111', amount: 1 }]), 400,
      'Invalid request: balances.1.token (no price for NoSuchToken111111111111111111111111111111111 on any chain at the current time)');
    expectError(await set([{ token: TOK.AERO, specificChain: 'eth', amount: 1 }]), 400,
      `Invalid request: balances.0.token (no price for ${TOK.AERO} on eth at the current time)`);
    expectError(await set([{ token: TOK.SOL, amount: -1 }]), 400, 'Invalid request: balances.0.amount (must be >= 0)');
    expectError(await set([]), 400, 'Invalid request: balances (must NOT have fewer than 1 items)');
    const outsider = await createAgent(a.s, ADMIN_KEY, 'Outsider');
    expectError(await set([{ token: TOK.SOL, amount: 1 }], outsider.agentId), 400, `Agent ${outsider.agentId} is not a participant of competition ${a.competitionId}`);
    expectError(await set([{ token: TOK.SOL, amount: 1 }], undefined, undefined, a.agents[0]!.apiKey), 401,
      'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
    const after = await a.s.world.dump();
    expect({ ...after.tables, agents: [], users: [] }).to.deep.equal({ ...before.tables, agents: [], users: [] });
  });

  it('refuses an ended competition and a perps competition (400)', async () => {
    expect((await a.s.call('POST', `/api/sim/competitions/${a.competitionId}/end`, { key: ADMIN_KEY })).status).to.equal(200);
    expectError(await set([{ token: TOK.SOL, amount: 1 }]), 400, `Balances cannot be set in an ended competition: ${a.competitionId}`);
    const perps = await createCompetition(a.s, ADMIN_KEY, { type: 'perpetual_futures' });
    await a.s.call('POST', `/api/admin/competitions/${perps.id}/agents/${a.agents[0]!.agentId}`, { key: ADMIN_KEY });
    expectError(await set([{ token: TOK.SOL, amount: 1 }], undefined, perps.id), 400, 'Balances cannot be set in a perpetual_futures competition (only trading and spot_live_trading)');
  });
});

describe('POST /api/sim/competitions/{id}/start and /end', () => {
  /** A world with two agents registered in a pending competition, an hour after its creation (same seed: the same world every time). */
  const make = async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, seed: 4 });
    // Fixed wallets: the helper's own counter would differ between the twins.
    const x = await createAgent(s, ADMIN_KEY, 'X', { walletAddress: `0x${'1'.repeat(40)}` });
    const y = await createAgent(s, ADMIN_KEY, 'Y', { walletAddress: `0x${'2'.repeat(40)}` });
    const comp = await createCompetition(s, ADMIN_KEY, { startDate: '2025-03-01T00:00:00.000Z', endDate: '2025-04-01T00:00:00.000Z' });
    for (const id of [x.agentId, y.agentId]) await s.call('POST', `/api/admin/competitions/${comp.id}/agents/${id}`, { key: ADMIN_KEY });
    await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 3_600_000 } });
    return { s, comp, x };
  };
  /** Two worlds built alike: one driven through the admin routes, the other through the cheat codes. */
  const twins = async () => [await make(), await make()] as const;

  it('start and end now with the effects of the admin routes (same dump as the admin routes give), and say which jobs ran', async () => {
    const [admin, cheat] = await twins();
    try {
      expect((await admin.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: admin.comp.id } })).status).to.equal(200);
      const started = await cheat.s.call('POST', `/api/sim/competitions/${cheat.comp.id}/start`, { key: ADMIN_KEY });
      expect(started.status, JSON.stringify(started.body)).to.equal(200);
      expect(started.body.competition).to.include({ id: cheat.comp.id, status: 'active', startDate: '2025-01-01T01:00:00.000Z' });
      expect(started.body.competition.agentIds).to.have.length(2);
      expect(started.body.ran).to.deep.equal({});
      expect(await cheat.s.world.dump()).to.deep.equal(await admin.s.world.dump());

      const trade = await cheat.s.call('POST', '/api/trade/execute', {
        key: cheat.x.apiKey, body: { competitionId: cheat.comp.id, fromToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', toToken: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', amount: '100', reason: 'x' },
      });
      expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
      await admin.s.call('POST', '/api/trade/execute', {
        key: admin.x.apiKey, body: { competitionId: admin.comp.id, fromToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', toToken: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', amount: '100', reason: 'x' },
      });
      expect((await admin.s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: admin.comp.id } })).status).to.equal(200);
      const ended = await cheat.s.call('POST', `/api/sim/competitions/${cheat.comp.id}/end`, { key: ADMIN_KEY });
      expect(ended.status, JSON.stringify(ended.body)).to.equal(200);
      expect(ended.body.competition).to.include({ status: 'ended', endDate: '2025-01-01T01:00:00.000Z' });
      expect(ended.body.leaderboard).to.have.length(2);
      expect(await cheat.s.world.dump()).to.deep.equal(await admin.s.world.dump());
    } finally {
      await admin.s.close();
      await cheat.s.close();
    }
  });

  it('runs the jobs due at the current time after the change (a competition whose end date has passed ends)', async () => {
    const w = await make();
    try {
      const other = await createCompetition(w.s, ADMIN_KEY, { name: 'Other' });
      await w.s.call('POST', `/api/admin/competitions/${other.id}/agents/${w.x.agentId}`, { key: ADMIN_KEY });
      await w.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: other.id } });
      // An end date set to the current instant is due now, yet nothing runs until the clock moves or a cheat code runs the due jobs.
      const upd = await w.s.call('PUT', `/api/admin/competition/${other.id}`, { key: ADMIN_KEY, body: { endDate: '2025-01-01T01:00:00.000Z' } });
      expect(upd.status, JSON.stringify(upd.body)).to.equal(200);
      const started = await w.s.call('POST', `/api/sim/competitions/${w.comp.id}/start`, { key: ADMIN_KEY });
      expect(started.body.ran).to.deep.equal({ end: 1 });
      expect((await w.s.call('GET', `/api/competitions/${other.id}`)).body.competition.status).to.equal('ended');
    } finally {
      await w.s.close();
    }
  });

  it('refuses unknown competitions (404), a second start and an end before the start (400)', async () => {
    const w = await make();
    try {
      expectError(await w.s.call('POST', `/api/sim/competitions/${UNKNOWN_ID}/start`, { key: ADMIN_KEY }), 404, 'Competition not found');
      expectError(await w.s.call('POST', `/api/sim/competitions/${UNKNOWN_ID}/end`, { key: ADMIN_KEY }), 404, 'Competition not found');
      expectError(await w.s.call('POST', `/api/sim/competitions/${w.comp.id}/end`, { key: ADMIN_KEY }), 400, 'Competition is not active or ending: pending');
      expect((await w.s.call('POST', `/api/sim/competitions/${w.comp.id}/start`, { key: ADMIN_KEY })).status).to.equal(200);
      expectError(await w.s.call('POST', `/api/sim/competitions/${w.comp.id}/start`, { key: ADMIN_KEY }), 400, 'Competition is already in active state and cannot be started');
      expectError(await w.s.call('POST', '/api/sim/competitions/not-a-uuid/start', { key: ADMIN_KEY }), 400, 'Invalid request: competitionId (invalid UUID)');
    } finally {
      await w.s.close();
    }
  });
});
