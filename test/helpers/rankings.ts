// Test helper for agents and rankings: an independent Plackett-Luce update, ended cups with scripted final values, and a fixed multi-competition history.
import { expect } from 'chai';
import { createAgent } from './actors.js';
import { CUP_BALANCES, MINUTE, insertTrade, insertVote, setSol } from './competition-reads.js';
import { ADMIN_KEY, type TestServer } from './server.js';

/** A rating. */
export interface Skill { mu: number; sigma: number }

/** A never-rated agent (mu 25, sigma 25/3). */
export const FRESH: Skill = { mu: 25, sigma: 25 / 3 };
const BETA_SQ = (25 / 6) ** 2;

/**
 * The Plackett-Luce update of the OpenSkill paper for one-agent teams in strict finishing order,
 * written out from the reference formula (no openskill call): c = sqrt(sum(sigma_i^2 + beta^2)),
 * S_q = sum of exp(mu_i / c) over agents ranked at or below q, and for agent i
 * Omega_i = sigma_i^2 / c * sum_{q <= i} ([q = i] - exp(mu_i / c) / S_q),
 * Delta_i = (sigma_i / c)(sigma_i^2 / c^2) * sum_{q <= i} (exp(mu_i / c) / S_q)(1 - exp(mu_i / c) / S_q),
 * mu' = mu + Omega, sigma' = sigma * sqrt(max(1 - Delta, 0.0001)).
 */
export function independentPL(priors: readonly Skill[]): Skill[] {
  const c = Math.sqrt(priors.reduce((sum, p) => sum + p.sigma ** 2 + BETA_SQ, 0));
  const e = priors.map((p) => Math.exp(p.mu / c));
  const S = priors.map((_, q) => e.slice(q).reduce((a, b) => a + b, 0));
  return priors.map((p, i) => {
    const s2 = p.sigma ** 2;
    let omega = 0;
    let delta = 0;
    for (let q = 0; q <= i; q++) {
      const frac = e[i]! / S[q]!;
      omega += (q === i ? 1 : 0) - frac;
      delta += frac * (1 - frac);
    }
    return { mu: p.mu + (s2 / c) * omega, sigma: p.sigma * Math.sqrt(Math.max(1 - (p.sigma / c) * (s2 / c ** 2) * delta, 0.0001)) };
  });
}

/** The leaderboard score of a rating, in upstream's operation order: 24 x ((mu - 3 sigma) + 1500 / 24). */
export const scoreOf = (s: Skill) => 24 * ((s.mu - 3 * s.sigma) + 62.5);

/** Replays competitions (finishing orders of agent names) on one board from fresh ratings. */
export function replay(orders: string[][]): Map<string, Skill> {
  const board = new Map<string, Skill>();
  for (const order of orders) {
    const next = independentPL(order.map((n) => board.get(n) ?? FRESH));
    order.forEach((n, i) => board.set(n, next[i]!));
  }
  return board;
}

export type Actor = Awaited<ReturnType<typeof createAgent>>;

/**
 * Starts a paper-trading cup for `agents` (2500 USD each: 10 SOL at 150 + 1000 USDC), sets their
 * SOL holdings to `sol` (final value = sol x 150 + 1000), lets `before` act on the running cup
 * (trades, removals), advances one minute and ends it. Returns the competition id.
 */
export async function playCup(
  s: TestServer, name: string, agents: Actor[], sol: number[], extra: Record<string, unknown> = {},
  before?: (cid: string) => Promise<void>,
): Promise<string> {
  const res = await s.call('POST', '/api/admin/competition/start', {
    key: ADMIN_KEY, body: { name, agentIds: agents.map((a) => a.agentId), paperTradingInitialBalances: CUP_BALANCES, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const cid = res.body.competition.id as string;
  for (const [i, a] of agents.entries()) await setSol(s, cid, a.agentId, sol[i]!);
  if (before) await before(cid);
  await s.world.advance(MINUTE);
  const end = await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
  expect(end.status, JSON.stringify(end.body)).to.equal(200);
  return cid;
}

/** The scripted history of {@link playHistory}. */
export interface History {
  A: Actor; B: Actor; C: Actor; D: Actor; E: Actor;
  spring: string; summer: string; autumn: string; live: string; upcoming: string;
  /** Virtual instants at which spring, summer and autumn ended. */
  ended: { spring: number; summer: number; autumn: number };
}

/**
 * Agents Alpha, Bravo, Charlie, Delta, Echo (created in that order, Alpha and Delta with wallets),
 * arena `weekly-arena`, and five competitions:
 * - Spring (default paper arena, rewards 1: 1000, 2: 500): Alpha 4000, Bravo 2500, Charlie 1750 -> A, B, C;
 *   Alpha trades twice (100 + 50 USD), Bravo once (20 USD);
 * - Summer (weekly-arena, reward 1: 300): Bravo 1300, Charlie 5500, Delta 2500 -> C, D, B; Charlie trades once (30 USD);
 * - Autumn (weekly-arena): Alpha 1150, Bravo 7000, Charlie 2200, Delta 2800, Echo removed before the end -> B, D, C, A;
 * - Live (active): Alpha 2 SOL (1300), Delta 20 SOL (4000) at the 5-minute snapshot; Alpha trades once (10 USD);
 * - Upcoming (pending): Bravo.
 * Votes: two for Charlie (Summer), one for Alpha (Live).
 */
export async function playHistory(s: TestServer): Promise<History> {
  const A = await createAgent(s, ADMIN_KEY, 'Alpha', { agentWalletAddress: '0x00000000000000000000000000000000000000aa' });
  const B = await createAgent(s, ADMIN_KEY, 'Bravo');
  const C = await createAgent(s, ADMIN_KEY, 'Charlie');
  const D = await createAgent(s, ADMIN_KEY, 'Delta', { agentWalletAddress: '0x00000000000000000000000000000000000000DD' });
  const E = await createAgent(s, ADMIN_KEY, 'Echo');
  const arena = await s.call('POST', '/api/admin/arenas', {
    key: ADMIN_KEY, body: { id: 'weekly-arena', name: 'Weekly Arena', category: 'crypto_trading', skill: 'spot_paper_trading' },
  });
  expect(arena.status, JSON.stringify(arena.body)).to.equal(201);
  const spring = await playCup(s, 'Spring', [A, B, C], [20, 10, 5], { rewards: { 1: 1000, 2: 500 }, imageUrl: 'https://img.example/spring.png' }, async (cid) => {
    await insertTrade(s, { agentId: A.agentId, competitionId: cid, tradeAmountUsd: 100 });
    await insertTrade(s, { agentId: A.agentId, competitionId: cid, tradeAmountUsd: 50 });
    await insertTrade(s, { agentId: B.agentId, competitionId: cid, tradeAmountUsd: 20 });
  });
  const springEnd = s.world.deps.clock.now();
  await s.world.advance(MINUTE);
  const summer = await playCup(s, 'Summer', [B, C, D], [2, 30, 10], { arenaId: 'weekly-arena', rewards: { 1: 300 } }, async (cid) => {
    await insertTrade(s, { agentId: C.agentId, competitionId: cid, tradeAmountUsd: 30 });
    await insertVote(s, { userId: A.userId, agentId: C.agentId, competitionId: cid });
    await insertVote(s, { userId: B.userId, agentId: C.agentId, competitionId: cid });
  });
  const summerEnd = s.world.deps.clock.now();
  await s.world.advance(MINUTE);
  const autumn = await playCup(s, 'Autumn', [A, B, C, D, E], [1, 40, 8, 12, 50], { arenaId: 'weekly-arena' }, async (cid) => {
    const rm = await s.call('POST', `/api/admin/competitions/${cid}/agents/${E.agentId}/remove`, { key: ADMIN_KEY, body: { reason: 'rules' } });
    expect(rm.status, JSON.stringify(rm.body)).to.equal(200);
  });
  const autumnEnd = s.world.deps.clock.now();
  await s.world.advance(MINUTE);
  const live = await s.call('POST', '/api/admin/competition/start', {
    key: ADMIN_KEY, body: { name: 'Live', agentIds: [A.agentId, D.agentId], paperTradingInitialBalances: CUP_BALANCES },
  });
  const liveId = live.body.competition.id as string;
  await setSol(s, liveId, A.agentId, 2);
  await setSol(s, liveId, D.agentId, 20);
  await insertTrade(s, { agentId: A.agentId, competitionId: liveId, tradeAmountUsd: 10 });
  await insertVote(s, { userId: C.userId, agentId: A.agentId, competitionId: liveId });
  await s.world.advance(5 * MINUTE);
  const upcoming = await s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'Upcoming' } });
  const upId = upcoming.body.competition.id as string;
  expect((await s.call('POST', `/api/admin/competitions/${upId}/agents/${B.agentId}`, { key: ADMIN_KEY })).status).to.equal(200);
  return { A, B, C, D, E, spring, summer, autumn, live: liveId, upcoming: upId, ended: { spring: springEnd, summer: summerEnd, autumn: autumnEnd } };
}
