// Caps on unpaged list answers (timeline points, snapshot lists, own and team trade lists): a 400 naming the limit and how to ask for less.
import { expect } from 'chai';
import type { Trade } from '../../src/domain/model.js';
import { createAgent, expectError } from '../helpers/actors.js';
import { MINUTE, SOL, USDC_SVM } from '../helpers/competition-reads.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { registerTeam, startWithTeams } from './legacy/legacy-helpers.js';

let seq = 0;

/** Inserts `n` trade rows of an agent in one transaction (the caps count rows, not how they came). */
async function insertTrades(s: TestServer, agentId: string, competitionId: string, n: number): Promise<void> {
  const now = s.world.deps.clock.now();
  await s.world.deps.store.transact((tx) => {
    for (let i = 0; i < n; i++) {
      const row: Trade = {
        id: `00000000-0000-4000-8000-${(seq++).toString().padStart(12, '0')}`, agentId, competitionId, fromToken: USDC_SVM, toToken: SOL,
        fromAmount: 1, toAmount: 0.005, tradeAmountUsd: 1, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL', reason: 'cap', timestamp: now + i,
        fromChain: 'svm', toChain: 'svm', fromSpecificChain: 'svm', toSpecificChain: 'svm', slippage: 0,
      };
      tx.insert('trades', row);
    }
  });
}

describe('List caps: timeline and snapshots', () => {
  let s: TestServer;
  let cid: string;
  let first: string;
  before(async () => {
    // 21 agents with a snapshot every minute for 999 minutes: 1000 snapshots each, 21,000 in all.
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, snapshotIntervalMs: MINUTE });
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) ids.push((await createAgent(s, ADMIN_KEY, `Agent ${i}`)).agentId);
    first = ids[0]!;
    const res = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Cap Cup', agentIds: ids } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    cid = res.body.competition.id;
    await s.world.advance(999 * MINUTE);
  });
  after(() => s.close());
  const timeline = (bucket: string) => s.call('GET', `/api/competitions/${cid}/timeline`, { query: { bucket } });
  const snapshots = (query: Record<string, string> = {}) => s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query });

  it('refuses a timeline of more than 20,000 points in all, suggesting a bucket that fits (400)', async () => {
    // 999 minutes per agent: bucket 2 gives at most 999 / 2 + 2 = 501 points each, 10,521 in all.
    expectError(await timeline('1'), 400,
      'Timeline too large: 21000 points in all with bucket=1 (limit 20000). Ask for fewer points with a larger bucket (minutes, up to 1440), e.g. bucket=2');
    const res = await timeline('2');
    expect(res.status).to.equal(200);
    expect(res.body.timeline).to.have.length(21);
    expect(res.body.timeline[0].timeline).to.have.length(500);
  });

  it('lists one agent\'s snapshots newest first, and refuses more than 250,000 snapshots in one list (200, 400)', async () => {
    const one = await snapshots({ agentId: first });
    expect(one.status).to.equal(200);
    expect(one.body.snapshots).to.have.length(1000);
    const times = one.body.snapshots.map((x: { timestamp: string }) => x.timestamp);
    expect(times).to.deep.equal([...times].sort().reverse());
    expect((await snapshots()).body.snapshots).to.have.length(21_000);
    // The rows, not how they came, count: 229,001 more of the first agent make 250,001 in all.
    const at = s.world.deps.clock.now();
    await s.world.deps.store.transact((tx) => {
      for (let i = 0; i < 229_001; i++) tx.insert('snapshots', { id: tx.nextSeq('snapshots'), competitionId: cid, agentId: first, timestamp: at, totalValue: 1 });
    });
    expectError(await snapshots(), 400,
      "Too many snapshots for one answer: 250001 (limit 250000). Ask for one agent's with ?agentId=, or for a thinned series with GET /api/competitions/{competitionId}/timeline?bucket=");
  });

  it('refuses a timeline of more than 1,000 points for one agent (400)', async () => {
    await s.world.advance(MINUTE);
    expectError(await timeline('1'), 400,
      'Timeline too large: 1001 points for one agent with bucket=1 (limit 1000). Ask for fewer points with a larger bucket (minutes, up to 1440), e.g. bucket=2');
  });
});

describe('List caps: trade lists without paging', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
  });
  after(() => s.close());

  it('GET /api/agent/trades refuses more than 10,000 trades and points at the paged list (400)', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Trader');
    const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Trade Cup', agentIds: [a.agentId] } });
    const cid = start.body.competition.id as string;
    await insertTrades(s, a.agentId, cid, 10_000);
    const ok = await s.call('GET', '/api/agent/trades', { key: a.apiKey, query: { competitionId: cid } });
    expect(ok.status).to.equal(200);
    expect(ok.body.trades).to.have.length(10_000);
    await insertTrades(s, a.agentId, cid, 1);
    expectError(await s.call('GET', '/api/agent/trades', { key: a.apiKey, query: { competitionId: cid } }), 400,
      `Too many trades for one answer: 10001 (limit 10000). Page through them with GET /api/competitions/${cid}/agents/${a.agentId}/trades?limit=100&offset=0`);
    const paged = await s.call('GET', `/api/competitions/${cid}/agents/${a.agentId}/trades`, { key: a.apiKey, query: { limit: '100', offset: '0' } });
    expect(paged.body.pagination).to.deep.equal({ total: 10_001, limit: 100, offset: 0, hasMore: true });
  });

  it('GET /api/account/trades refuses more than 10,000 trades of a team (400)', async () => {
    const t = await registerTeam(s, 'Cap Team');
    const cid = (await startWithTeams(s, [t.teamId])).id as string;
    await insertTrades(s, t.teamId, cid, 10_001);
    expectError(await s.call('GET', '/api/account/trades', { key: t.apiKey }), 400,
      'Too many trades for one answer: 10001 (limit 10000). The legacy API has no paged trade list.');
  });
});
