// Rules-table rows of October 2025: the admin-user upsert on email and the per-type counters of agent-competition rows, and how the OpenAPI document, the client types and docs/versions.md state them.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { GENERATED_FILE } from '../../scripts/client-types.js';
import { VERSIONS_PAGE } from '../../scripts/version-table.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { API_VERSIONS, type ApiVersion } from '../../src/domain/versions.js';
import { createAgent, expectError, nextWallet } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { TOK } from '../helpers/trading.js';

const HOUR = 3_600_000;
const UPSERT = '201 with the existing user: an upsert on email that keeps its fields, fills empty ones and moves `updatedAt` and `lastLoginAt` to now';
const REFUSE = '409 `A user with this email already exists`';
const BOTH = '`totalTrades` and `totalPositions`, 0 where not applicable';
const PER_TYPE = 'perps: `totalPositions` only; other types: `totalTrades` only';

describe('rules table: October-2025 user registration and agent-competition rows', () => {
  let s: TestServer;
  const open = async (apiVersion: ApiVersion) => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, apiVersion }); };
  afterEach(() => s.close());
  const register = (body: Record<string, unknown>) => s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body });
  const usersWith = async (email: string) => (await s.call('GET', '/api/admin/users', { key: ADMIN_KEY })).body.users.filter((u: any) => u.email === email);

  describe('POST /api/admin/users with an email that already exists', () => {
    it('2025-10: answers 201 with the existing user, its fields kept and empty ones filled; updatedAt and lastLoginAt move to now', async () => {
      await open('2025-10');
      const wallet = nextWallet();
      const first = await register({ walletAddress: wallet, email: 'dup@x.io', name: 'Alice', userMetadata: { tier: 1 } });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      const t0 = s.world.deps.clock.now();
      await s.world.advance(HOUR);
      const again = await register({ walletAddress: wallet, email: 'dup@x.io', name: 'Bob', userMetadata: { tier: 2 }, userImageUrl: 'https://example.com/bob.png' });
      expect(again.status, JSON.stringify(again.body)).to.equal(201);
      expect(again.body.success).to.equal(true);
      expect(again.body.user).to.deep.equal({
        ...first.body.user, imageUrl: 'https://example.com/bob.png',
        updatedAt: new Date(t0 + HOUR).toISOString(), lastLoginAt: new Date(t0 + HOUR).toISOString(),
      });
      expect(again.body.user).to.include({ id: first.body.user.id, name: 'Alice', walletAddress: wallet, status: 'active', createdAt: new Date(t0).toISOString() });
      expect(again.body.user.metadata).to.deep.equal({ tier: 1 });
      expect(await usersWith('dup@x.io')).to.have.length(1);
    });

    it('2025-10: keeps the existing wallet when the repeat brings another one, and still adds the requested agent (201)', async () => {
      await open('2025-10');
      const first = await register({ walletAddress: nextWallet(), email: 'agent@x.io' });
      const again = await register({ walletAddress: nextWallet(), email: 'agent@x.io', agentName: 'Second Bot' });
      expect(again.status, JSON.stringify(again.body)).to.equal(201);
      expect(again.body.user).to.include({ id: first.body.user.id, walletAddress: first.body.user.walletAddress });
      expect(again.body.agent).to.include({ ownerId: first.body.user.id, name: 'Second Bot' });
    });

    it('2025-10: compares emails case-sensitively (a new user, 201) and still refuses a repeated wallet with a new email (409)', async () => {
      await open('2025-10');
      const wallet = nextWallet();
      const first = await register({ walletAddress: wallet, email: 'case@x.io' });
      const other = await register({ walletAddress: nextWallet(), email: 'Case@x.io' });
      expect(other.status, JSON.stringify(other.body)).to.equal(201);
      expect(other.body.user.id).to.not.equal(first.body.user.id);
      expectError(await register({ walletAddress: wallet, email: 'new@x.io' }), 409, 'A user with this walletAddress already exists');
    });

    for (const version of ['spec', '2026-08'] as const) {
      it(`${version}: refuses the repeat (409) and changes nothing`, async () => {
        await open(version);
        const wallet = nextWallet();
        const first = await register({ walletAddress: wallet, email: 'dup@x.io', name: 'Alice' });
        await s.world.advance(HOUR);
        expectError(await register({ walletAddress: nextWallet(), email: 'dup@x.io', name: 'Bob' }), 409, 'A user with this email already exists');
        expectError(await register({ walletAddress: wallet, email: 'dup@x.io' }), 409, 'A user with this walletAddress already exists');
        const users = await usersWith('dup@x.io');
        expect(users).to.have.length(1);
        expect(users[0]).to.include({ id: first.body.user.id, name: 'Alice', updatedAt: first.body.user.updatedAt });
      });
    }
  });

  describe('GET /api/agents/{agentId}/competitions row counters', () => {
    /** An agent in a paper competition with one trade and in a perps competition with one position; its rows by type. */
    async function rows(version: ApiVersion) {
      await open(version);
      const a = await createAgent(s, ADMIN_KEY, 'Both Kinds', { agentWalletAddress: nextWallet() });
      const paper = await s.call('POST', '/api/admin/competition/start', {
        key: ADMIN_KEY, body: { name: 'Paper', agentIds: [a.agentId], paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }] },
      });
      const trade = await s.call('POST', '/api/trade/execute', { key: a.apiKey, body: { competitionId: paper.body.competition.id, fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '10', reason: 'one' } });
      expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
      const perps = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Perps', type: 'perpetual_futures', agentIds: [a.agentId] } });
      const cid = perps.body.competition.id as string;
      const opened = await s.call('POST', `/api/admin/competitions/${cid}/perps/positions`, { key: ADMIN_KEY, body: { agentId: a.agentId, asset: 'BTC', side: 'long', sizeUsd: 1000, leverage: 2 } });
      expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
      const res = await s.call('GET', `/api/agents/${a.agentId}/competitions`);
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
      const byType = (t: string) => res.body.competitions.find((c: any) => c.competitionType === t);
      return { paper: byType('trading'), perps: byType('perpetual_futures') };
    }

    it('2025-10: a perps row has totalPositions and no totalTrades; a paper row totalTrades and no totalPositions (200)', async () => {
      const { paper, perps } = await rows('2025-10');
      expect(perps).to.include({ totalPositions: 1 }).and.not.have.property('totalTrades');
      expect(paper).to.include({ totalTrades: 1 }).and.not.have.property('totalPositions');
    });

    for (const version of ['spec', '2026-08'] as const) {
      it(`${version}: every row has both counters, 0 where not applicable (200)`, async () => {
        const { paper, perps } = await rows(version);
        expect(perps).to.include({ totalPositions: 1, totalTrades: 0 });
        expect(paper).to.include({ totalTrades: 1, totalPositions: 0 });
      });
    }
  });
});

describe('where the October-2025 rows are written down', () => {
  const docs = Object.fromEntries(API_VERSIONS.map((v) => [v, buildOpenApi(undefined, { version: '0.0.0', apiVersion: v })]));
  const op = (v: ApiVersion, path: string, method: string) => docs[v]!.paths[path]![method]!;

  it('the OpenAPI document of each version states its own rule first, then the versions that differ', () => {
    expect(op('2025-10', '/api/admin/users', 'post').description).to.include(`API version \`2025-10\`: \`POST /api/admin/users\` with an email that already exists (compared case-sensitively): ${UPSERT} (\`spec\`: ${REFUSE}; \`2026-08\`: ${REFUSE}).`);
    for (const v of ['spec', '2026-08'] as const) {
      expect(op(v, '/api/admin/users', 'post').description).to.include(`API version \`${v}\`: \`POST /api/admin/users\` with an email that already exists (compared case-sensitively): ${REFUSE} (\`2025-10\`: ${UPSERT}).`);
      expect(op(v, '/api/agents/{agentId}/competitions', 'get').description).to.include(`API version \`${v}\`: Counters of a \`GET /api/agents/{agentId}/competitions\` row: ${BOTH} (\`2025-10\`: ${PER_TYPE}).`);
    }
    expect(op('2025-10', '/api/agents/{agentId}/competitions', 'get').description).to.include(`: ${PER_TYPE} (\`spec\`: ${BOTH}; \`2026-08\`: ${BOTH}).`);
    // The row schema lets either counter be absent, and says when.
    const row = (docs.spec!.components as { schemas: Record<string, any> }).schemas.AgentCompetition;
    expect(row.required).to.not.include('totalTrades').and.not.include('totalPositions');
    expect(row.properties.totalTrades.description).to.equal('Trades in the competition (0 in perps). API version 2025-10: absent on a perps row.');
    expect(row.properties.totalPositions.description).to.equal('Perps positions, open and closed (0 in other types). API version 2025-10: present on a perps row only.');
  });

  it('the generated client types carry both rules and optional counters', () => {
    const types = readFileSync(GENERATED_FILE, 'utf8');
    expect(types).to.include(`with an email that already exists (compared case-sensitively): ${REFUSE} (\`2025-10\`: ${UPSERT}).`);
    expect(types).to.include(`row: ${BOTH} (\`2025-10\`: ${PER_TYPE}).`);
    expect(types).to.include('totalTrades?: number;').and.include('totalPositions?: number;');
  });

  it('docs/versions.md has a row for each, with every version\'s value', () => {
    const page = readFileSync(VERSIONS_PAGE, 'utf8');
    expect(page).to.include(`| \`POST /api/admin/users\` with an email that already exists (compared case-sensitively) | ${REFUSE} | ${REFUSE} | ${UPSERT} | team era |`);
    expect(page).to.include(`| Counters of a \`GET /api/agents/{agentId}/competitions\` row | ${BOTH} | ${BOTH} | ${PER_TYPE} | team era |`);
  });
});
