// What a replay does, as data: the agents, the window and the competition's settings, and the same replay as a scenario for a served target or `compsim run`.
import type { Json, ScenarioDoc, Step } from '../harness/types.js';
import { ReplayInputError, type ReplayBalance, type ReplayTrade, type Tapes } from './replay-input.js';

/** How to rebuild the competition. */
export interface ReplayOptions {
  seed: number | string;
  slippage: 'upstream' | 'expected' | 'none';
  /** Portfolio snapshot interval (virtual ms). */
  intervalMs: number;
  /** Competition start (default: the earlier of the first trade and the first tape point). */
  startTime?: number;
  /** Competition end (default: one interval after the last trade). */
  endTime?: number;
  /** Starting balances (default: the world's default list). */
  balances?: ReplayBalance[];
  /** `lenient` (default): cross-chain allowed, no token constraints, trades up to 100 % of the portfolio; `strict`: the defaults. */
  rules: 'lenient' | 'strict';
  /** Agents to register first, in this order, traded or not (default: the agents of the trades). */
  agents?: readonly string[];
  /** The competition's name (default `Replay`; a fork's replay keeps the source's name). */
  name?: string;
}

/** A replay made concrete: who trades what and when, inside which window, under which settings. */
export interface ReplayPlan {
  options: ReplayOptions;
  /** The trades in replay order. */
  trades: ReplayTrade[];
  /** Every agent, registered in this order (the given ones first, then in order of first trade). */
  agents: string[];
  tapes: Tapes;
  start: number;
  end: number;
  /** The competition's name. */
  name: string;
  /** The body of `POST /api/admin/competition/start` without `agentIds` (what the start call creates). */
  create: Record<string, Json>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Most portfolio snapshot rows a replay may make (agents x snapshot rounds): a week of 5-minute rounds for 100 agents is about 200,000. */
export const MAX_SNAPSHOT_ROWS = 2_000_000;

/** Actor name of the i-th distinct agent (scenario actor names are identifiers; the agent keeps its own name). */
export const actorOf = (i: number) => `agent${i + 1}`;

/** Distinct agent names in order of first trade. */
export function agentNames(trades: readonly ReplayTrade[]): string[] {
  return [...new Set(trades.map((t) => t.agent))];
}

/** The lenient rules: cross-chain trades, no token constraints, trades up to the whole portfolio. */
const LENIENT: Record<string, Json> = {
  tradingType: 'allow', paperTradingConfig: { maxTradePercentage: 100 },
  tradingConstraints: { minimumPairAgeHours: 0, minimum24hVolumeUsd: 0, minimumLiquidityUsd: 0, minimumFdvUsd: 0 },
};

/** The earliest point of any tape (Infinity without tapes); a loop, as a spread of a long tape would overflow the call stack. */
function firstTapePoint(tapes: Tapes): number {
  let first = Infinity;
  for (const points of Object.values(tapes)) for (const p of points) if (p[0] < first) first = p[0];
  return first;
}

/**
 * The plan: agents registered by name, a competition started at the start time with every agent,
 * each trade executed at its recorded time (accepted or refused, both recorded), the clock run to
 * the end (periodic snapshots), then the end. Throws a {@link ReplayInputError} for an empty list
 * or a window that does not hold the trades.
 */
export function replayPlan(trades: readonly ReplayTrade[], tapes: Tapes, o: ReplayOptions): ReplayPlan {
  if (trades.length === 0) throw new ReplayInputError('no trades to replay');
  const agents = [...new Set([...(o.agents ?? []), ...agentNames(trades)])];
  const firstTape = firstTapePoint(tapes);
  const start = o.startTime ?? Math.min(trades[0]!.timestamp, firstTape);
  const last = trades[trades.length - 1]!.timestamp;
  const end = o.endTime ?? last + o.intervalMs;
  if (start > trades[0]!.timestamp) throw new ReplayInputError(`the start (${iso(start)}) is after the first trade (${iso(trades[0]!.timestamp)})`);
  if (end <= last) throw new ReplayInputError(`the end (${iso(end)}) must be after the last trade (${iso(last)})`);
  for (const a of agents) if (a.length < 1 || a.length > 100) throw new ReplayInputError(`agent '${a.slice(0, 40)}': a name has 1 to 100 characters`);
  const rows = Math.floor((end - start) / o.intervalMs + 2) * agents.length;
  if (rows > MAX_SNAPSHOT_ROWS) {
    throw new ReplayInputError(`${agents.length} agents over ${iso(start)} to ${iso(end)} with a snapshot every ${o.intervalMs} ms make ${rows} snapshot rows, more than ${MAX_SNAPSHOT_ROWS}: use a longer --interval`);
  }
  const name = o.name ?? 'Replay';
  const create: Record<string, Json> = {
    name, ...(o.balances ? { paperTradingInitialBalances: o.balances as unknown as Json } : {}), ...(o.rules === 'lenient' ? LENIENT : {}),
  };
  return { options: o, trades: [...trades], agents, tapes, start, end, name, create };
}

/** The world options a replay runs under (as a scenario's `world`). */
export function replayWorld(plan: ReplayPlan): Record<string, Json> {
  return { prices: { kind: 'tape', tapes: plan.tapes } as unknown as Json, slippage: plan.options.slippage, snapshotIntervalMs: plan.options.intervalMs };
}

/** The replay as a scenario, with the step index of each agent's balance read and of each trade's call. */
export interface ReplayScenario {
  doc: ScenarioDoc;
  /** Step index of each agent's starting-balance read. */
  balanceSteps: number[];
  /** Step index of each trade's execute call (in plan order). */
  tradeSteps: number[];
}

/**
 * The plan as a scenario document (what a `--target` replay sends, and `replay.scenario.json`):
 * the start call, each agent's balance read, each trade at its time, the clock to the end, the end.
 */
export function replayScenario(plan: ReplayPlan): ReplayScenario {
  const { agents, options: o } = plan;
  const startBody: Record<string, Json> = { ...plan.create, agentIds: agents.map((_, i) => `\${${actorOf(i)}.id}`) };
  const steps: Step[] = [
    { call: 'POST /api/admin/competition/start', as: 'admin', body: startBody, expect: { status: 200 }, save: { comp: 'competition' } },
  ];
  // Each agent's starting rows (with addresses) in the log: the balance histories start from them.
  const balanceSteps: number[] = [];
  agents.forEach((_, i) => {
    balanceSteps.push(steps.length);
    steps.push({ call: 'GET /api/agent/balances', as: actorOf(i), query: { competitionId: '${comp.id}' }, expect: { status: 200 } });
  });
  const tradeSteps: number[] = [];
  const actorByAgent = new Map(agents.map((name, i) => [name, actorOf(i)]));
  let now = plan.start;
  for (const t of plan.trades) {
    const body: Record<string, Json> = { competitionId: '${comp.id}', fromToken: t.fromToken, toToken: t.toToken, amount: t.amount, reason: t.reason };
    for (const k of ['fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain'] as const) if (t[k] !== undefined) body[k] = t[k]!;
    tradeSteps.push(steps.length);
    // The clock moves to the trade's time as part of the call (one step and one log line, not two).
    const at = t.timestamp > now ? { at: iso((now = t.timestamp)) } : {};
    steps.push({ call: 'POST /api/trade/execute', as: actorByAgent.get(t.agent)!, ...at, body, expect: { status: [200, 400, 403, 404] } });
  }
  steps.push({ setTime: iso(plan.end) });
  steps.push({ call: 'POST /api/admin/competition/end', as: 'admin', body: { competitionId: '${comp.id}' }, expect: { status: 200 } });
  const doc: ScenarioDoc = {
    description: `Replay of ${plan.trades.length} trades by ${agents.length} agents (${o.rules} rules, slippage ${o.slippage}).`,
    seed: o.seed, startTime: iso(plan.start), world: replayWorld(plan) as ScenarioDoc['world'],
    actors: Object.fromEntries(agents.map((name, i) => [actorOf(i), { register: { agentName: name } }])),
    steps,
  };
  return { doc, balanceSteps, tradeSteps };
}
