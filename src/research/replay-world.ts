// An in-process replay through the library API: a fresh world, agents, competition, trades and clock moves through the domain functions the routes call, answers kept as the analysis reads them.
import { registerUser } from '../domain/agents/users.js';
import { DomainError } from '../domain/errors.js';
import { endCompetitionWithTeams, startAnyGeneration } from '../domain/legacy/admin-lifecycle.js';
import type { Principal } from '../domain/model.js';
import type { CompetitionInput } from '../domain/competitions/create.js';
import { agentBalances } from '../domain/trading/holdings.js';
import { executeTrade } from '../domain/trading/trade.js';
import { actorWallet } from '../harness/runner.js';
import type { WorldOptions } from '../world/config.js';
import { IN_PROCESS_ADMIN_KEY } from '../world/in-process-target.js';
import { createWorld, type World } from '../world/world.js';
import { ReplayInputError } from './replay-input.js';
import type { ReplayAnswer, ReplayAnswers, SnapshotRow } from './replay-outcome.js';
import { actorOf, replayWorld, type ReplayPlan } from './replay-plan.js';

/** What an in-process replay leaves for the analysis. */
export interface WorldReplay {
  world: World;
  competitionId: string;
  answers: ReplayAnswers;
  snapshots: SnapshotRow[];
}

/** Answers by plan position, as {@link ReplayAnswers}. */
class Answers implements ReplayAnswers {
  readonly ids: string[] = [];
  readonly starting: ReplayAnswer[] = [];
  readonly trades: ReplayAnswer[] = [];
  agentId(i: number) {
    return this.ids[i];
  }
  balances(i: number) {
    return this.starting[i];
  }
  trade(i: number) {
    return this.trades[i];
  }
}

/** A rule the domain refused (its status and message, as the request path answers it); anything else is a bug and is thrown. */
function refusal(err: unknown): ReplayAnswer {
  if (!(err instanceof DomainError)) throw err;
  return { status: err.status, body: { error: err.message } };
}

/** Registers every agent the way the scenario runner registers an actor (same body, same order), so ids and draws match a served replay. */
async function registerAgents(world: World, plan: ReplayPlan, answers: Answers): Promise<Principal[]> {
  const principals: Principal[] = [];
  for (const [i, name] of plan.agents.entries()) {
    let agent;
    try {
      const r = await registerUser(world.deps, { walletAddress: actorWallet(actorOf(i)), agentName: name });
      if (!r.agent) throw new ReplayInputError(`agent '${name}' could not be registered: ${r.agentError ?? 'no agent made'}`);
      agent = r.agent;
    } catch (err) {
      if (err instanceof DomainError) throw new ReplayInputError(`agent '${name}' could not be registered: ${err.message}`);
      throw err;
    }
    answers.ids.push(agent.id);
    principals.push({ kind: 'agent', agentId: agent.id, ownerId: agent.ownerId, generation: 'current' });
  }
  return principals;
}

/** Starts the competition with every agent, as `POST /api/admin/competition/start` does with the plan's body. */
async function startReplayCompetition(world: World, plan: ReplayPlan, ids: readonly string[]): Promise<string> {
  const create = plan.create as unknown as CompetitionInput & { tradingConstraints?: CompetitionInput['tradingConstraints'] };
  try {
    const r = await startAnyGeneration(world.deps, {
      create, agentIds: [...ids], ...(create.tradingConstraints ? { tradingConstraints: create.tradingConstraints } : {}), slippageModel: undefined,
    });
    return r.competition.id;
  } catch (err) {
    if (err instanceof DomainError) throw new ReplayInputError(`the competition could not start: ${err.message}`);
    throw err;
  }
}

/** Every snapshot row of the competition, agents in registration order, oldest first (the store, read directly: no list cap). */
async function snapshotRows(world: World, competitionId: string, ids: readonly string[]): Promise<SnapshotRow[]> {
  return world.deps.store.read((tx) => {
    const out: SnapshotRow[] = [];
    for (const id of ids) {
      for (const s of tx.find('snapshots', 'agentCompetition', `${id}:${competitionId}`)) out.push({ id: s.id, agentId: s.agentId, timestamp: s.timestamp, totalValue: s.totalValue });
    }
    return out;
  });
}

/**
 * Runs the plan in a fresh world through the library API: the world the in-process scenario target
 * would build for the plan's scenario, the agents registered and the competition started as the
 * scenario's calls do, then each trade through `executeTrade` at its recorded time (the clock moved
 * by `world.setTime`, which takes the snapshots on the way), the clock to the end and the end.
 * Refused trades keep the domain's status and message. Nothing is logged: the answers are kept as
 * the analysis reads them.
 */
export async function replayInWorld(plan: ReplayPlan): Promise<WorldReplay> {
  const o = plan.options;
  // The world the in-process scenario target builds for the plan's scenario (same options, same admin key).
  const world = await createWorld({ ...(replayWorld(plan) as WorldOptions), seed: o.seed, startTime: plan.start, admin: { apiKey: IN_PROCESS_ADMIN_KEY } });
  const answers = new Answers();
  const principals = await registerAgents(world, plan, answers);
  const competitionId = await startReplayCompetition(world, plan, answers.ids);
  for (const p of principals) {
    const r = await agentBalances(world.deps, p, competitionId);
    answers.starting.push({ status: 200, body: { balances: r.balances.map((b) => ({ tokenAddress: b.tokenAddress, symbol: b.symbol, amount: b.amount })) } });
  }
  const principalOf = new Map(plan.agents.map((name, i) => [name, principals[i]!]));
  let now = plan.start;
  for (const t of plan.trades) {
    if (t.timestamp > now) await world.setTime((now = t.timestamp));
    const input: Record<string, string> = { competitionId, fromToken: t.fromToken, toToken: t.toToken, amount: t.amount, reason: t.reason };
    for (const k of ['fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain'] as const) if (t[k] !== undefined) input[k] = t[k]!;
    try {
      // The stored row is immutable: the analysis reads its amounts and symbols where they are.
      answers.trades.push({ status: 200, body: { transaction: await executeTrade(world.deps, principalOf.get(t.agent)!, input) } });
    } catch (err) {
      answers.trades.push(refusal(err));
    }
  }
  await world.setTime(plan.end);
  try {
    await endCompetitionWithTeams(world.deps, competitionId);
  } catch (err) {
    if (err instanceof DomainError) throw new ReplayInputError(`the competition could not end: ${err.message}`);
    throw err;
  }
  return { world, competitionId, answers, snapshots: await snapshotRows(world, competitionId, answers.ids) };
}
