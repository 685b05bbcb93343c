// Test helper for perps competitions: three agents in a started perps competition whose SOL price follows a fixed tape.
import { expect } from 'chai';
import { createAgent, nextWallet } from './actors.js';
import { ADMIN_KEY, type TestServer } from './server.js';

export const MINUTE = 60_000;
export type Actor = Awaited<ReturnType<typeof createAgent>>;

/** A started perps competition of Alpha, Bravo and Charlie; `t0` is its start. */
export interface PerpsCup { A: Actor; B: Actor; C: Actor; cid: string; t0: number }

/**
 * Creates Alpha, Bravo and Charlie, starts the perps competition `name` with them and loads the
 * SOL tape: 150 until +4 min, 165 at +5..9, 120 at +10..14, 180 from +15 (linear in between; the
 * 5-minute snapshot ticks see the plateaus).
 */
export async function tapedPerpsCup(s: TestServer, name: string): Promise<PerpsCup> {
  const A = await createAgent(s, ADMIN_KEY, 'Alpha', { agentWalletAddress: nextWallet() });
  const B = await createAgent(s, ADMIN_KEY, 'Bravo', { agentWalletAddress: nextWallet() });
  const C = await createAgent(s, ADMIN_KEY, 'Charlie', { agentWalletAddress: nextWallet() });
  const start = await s.call('POST', '/api/admin/competition/start', {
    key: ADMIN_KEY, body: { name, type: 'perpetual_futures', agentIds: [A.agentId, B.agentId, C.agentId] },
  });
  expect(start.status, JSON.stringify(start.body)).to.equal(200);
  const t0 = s.world.deps.clock.now();
  const tape = [[0, 150], [4, 150], [5, 165], [9, 165], [10, 120], [14, 120], [15, 180]].map(([m, p]) => [t0 + m! * MINUTE, p]);
  expect((await s.call('POST', '/api/sim/prices/tape', { key: ADMIN_KEY, body: { tapes: { SOL: tape } } })).status).to.equal(200);
  return { A, B, C, cid: start.body.competition.id, t0 };
}

/** Loads a competition's script through `POST /api/admin/competitions/{id}/script` and expects a 200. */
export async function loadScript(s: TestServer, competitionId: string, actions: unknown[]): Promise<void> {
  const res = await s.call('POST', `/api/admin/competitions/${competitionId}/script`, { key: ADMIN_KEY, body: { actions } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}
