// Benchmark fixtures: a world with N funded agents in one started paper-trading competition, and a deterministic trade stream.
import { executeTrade } from '../../src/domain/trading/trade.js';
import { startCompetition } from '../../src/domain/competitions/lifecycle.js';
import { registerUser } from '../../src/domain/agents/users.js';
import type { Principal } from '../../src/domain/model.js';
import { createWorld, type World } from '../../src/world/world.js';
import type { WorldOptions } from '../../src/world/config.js';
import type { CompetitionInput } from '../../src/domain/competitions/create.js';

/** Admin key of benchmark worlds. */
export const ADMIN_KEY = '0123456789abcdef_fedcba9876543210';
/** Wrapped SOL and USDC on svm: the pair every benchmark trades. */
export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** One benchmark agent: its id, API key and the principal its key authenticates as. */
export interface BenchAgent { id: string; key: string; principal: Principal }

/** A world with agents registered in one active competition. */
export interface Arena { world: World; competitionId: string; agents: BenchAgent[] }

/**
 * Creates `n` agents (one user each) through the domain, in one started competition with large
 * balances; `competition` adds create fields (an end date, say).
 */
export async function buildArena(n: number, options: WorldOptions = {}, competition: CompetitionInput = {}): Promise<Arena> {
  const w = await createWorld({ seed: 7, admin: { apiKey: ADMIN_KEY }, ...options });
  const agents: BenchAgent[] = [];
  for (let i = 0; i < n; i++) {
    const r = await registerUser(w.deps, { walletAddress: `0x${(i + 1).toString(16).padStart(40, '0')}`, agentName: `Bench ${i}` });
    const a = r.agent!;
    agents.push({ id: a.id, key: r.apiKey!, principal: { kind: 'agent', agentId: a.id, ownerId: a.ownerId, generation: 'current' } });
  }
  const started = await startCompetition(w.deps, {
    agentIds: agents.map((a) => a.id),
    create: {
      ...competition,
      name: 'Bench Cup',
      paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1e12 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 1e9 }],
    },
  });
  return { world: w, competitionId: started.competition.id, agents };
}

/**
 * The `i`-th trade of a benchmark stream: agents take turns (round robin) and alternate between
 * buying SOL with USDC and selling a little SOL, so balances never run out.
 */
export function tradeInput(arena: Arena, i: number): { principal: Principal; body: Record<string, string> } {
  const n = arena.agents.length;
  const agent = arena.agents[i % n]!;
  const buy = Math.floor(i / n) % 2 === 0;
  return {
    principal: agent.principal,
    body: buy
      ? { competitionId: arena.competitionId, fromToken: USDC, toToken: SOL, amount: '15', reason: 'bench' }
      : { competitionId: arena.competitionId, fromToken: SOL, toToken: USDC, amount: '0.1', reason: 'bench' },
  };
}

/** Executes trades `from` .. `to - 1` of the stream through the domain, one after another. */
export async function runTrades(arena: Arena, from: number, to: number): Promise<void> {
  const deps = arena.world.deps;
  for (let i = from; i < to; i++) {
    const t = tradeInput(arena, i);
    await executeTrade(deps, t.principal, t.body);
  }
}
