// A quote's slippage draw and a crash with --state: the trades after a quote are the same whether or not the process died right after it.
import { expect } from 'chai';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE } from '../../src/adapters/file/state-files.js';
import { quoteLegacyTrade } from '../../src/domain/legacy/trading.js';
import type { Principal } from '../../src/domain/model.js';
import { executeTrade, quoteTrade } from '../../src/domain/trading/trade.js';
import type { WorldFixture } from '../../src/world/fixture.js';
import { StatePersistence } from '../../src/world/persistence.js';
import { createWorld, type World } from '../../src/world/world.js';

const DEMO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture;
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** The first demo agent as a principal, and the active competition's id. */
async function actor(world: World): Promise<{ principal: Principal; competitionId: string }> {
  const agent = world.fixture.agents[0]!;
  const ownerId = await world.deps.store.read((tx) => tx.get('agents', agent.id)!.ownerId);
  const competitionId = world.fixture.competitions.find((c) => c.status === 'active')!.id;
  return { principal: { kind: 'agent', agentId: agent.id, ownerId, generation: 'current' }, competitionId };
}

/** Three trades USDC -> SOL; their slippage draws come from the world's random stream. */
async function trades(world: World): Promise<number[]> {
  const { principal, competitionId } = await actor(world);
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = await executeTrade(world.deps, principal, { competitionId, fromToken: USDC, toToken: SOL, amount: 100 + i, reason: 'after the quote' });
    out.push(t.slippage);
  }
  return out;
}

describe('GET /api/trade/quote and the journal (--state)', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'compsim-quote-'));
    dirs.push(d);
    return d;
  };
  after(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const kind of ['agent', 'team'] as const) {
    it(`gives the same trades after a ${kind} quote whether or not the process died right after it`, async () => {
      const dir = fresh();
      const state = await StatePersistence.open(dir);
      const world = await createWorld({ fixture: DEMO }, state);
      const { principal, competitionId } = await actor(world);
      const q = { competitionId, fromToken: USDC, toToken: SOL, amount: '250' };
      const quoted = kind === 'agent' ? await quoteTrade(world.deps, principal, q) : await quoteLegacyTrade(world.deps, (principal as { agentId: string }).agentId, q);
      expect(quoted.slippage).to.be.greaterThan(0);
      // What a kill -9 right now leaves: the directory as it is on disk (every answered call is durable).
      const crashed = fresh();
      cpSync(dir, crashed, { recursive: true });
      unlinkSync(join(crashed, LOCK_FILE));
      const uninterrupted = await trades(world);
      await state.close();
      const again = await StatePersistence.open(crashed);
      try {
        expect(await trades(await createWorld({ fixture: DEMO }, again))).to.deep.equal(uninterrupted);
      } finally {
        await again.close();
      }
    });
  }
});
