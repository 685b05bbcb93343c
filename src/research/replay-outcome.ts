// A replay's outcome: every trade's result, each agent's balance history and the ranking at every snapshot, read from the answers a run gave, and its hash.
import { createHash, type Hash } from 'node:crypto';
import { addressFamily } from '../adapters/prices/catalogue.js';
import type { TargetResponse } from '../harness/targets.js';
import { actorOf, type ReplayPlan, type ReplayScenario } from './replay-plan.js';
import type { ReplayTrade } from './replay-input.js';

/** One replayed trade with its outcome. */
export interface TradeOutcome {
  trade: ReplayTrade; status: number; accepted: boolean;
  toAmount: number | null; tradeAmountUsd: number | null; fromSymbol: string | null; toSymbol: string | null; error: string | null;
}
/** One balance change of an agent (a trade's debit or credit; `balance` after it). */
export interface BalanceChange { timestamp: number; agent: string; token: string; symbol: string; change: number; balance: number }
/** One ranking row at one snapshot instant. */
export interface RankRow { timestamp: number; rank: number; agent: string; value: number }
/** A portfolio snapshot: its row id (later rows win at one instant), agent, instant (epoch ms) and value. */
export interface SnapshotRow { id: number; agentId: string; timestamp: number; totalValue: number }

/** What a replay produced. */
export interface ReplayOutcome {
  trades: TradeOutcome[];
  balances: BalanceChange[];
  /** The ranking at every snapshot instant (start, each interval, end). */
  leaderboards: RankRow[];
  /** The ranking at the end, with the change against each agent's first snapshot. */
  final: (RankRow & { startValue: number; pnl: number })[];
}

/** What the analysis keeps of one answer: its status and body (a trade's only with the fields read back). */
export interface ReplayAnswer { status: number; body?: Record<string, unknown> }

/** The answers a replay's analysis reads, by position in the plan. */
export interface ReplayAnswers {
  /** The id the world gave the plan's i-th agent. */
  agentId(i: number): string | undefined;
  /** The answer to the i-th agent's balance read (`{balances: [{tokenAddress, symbol, amount}]}`). */
  balances(i: number): ReplayAnswer | undefined;
  /** The answer to the plan's i-th trade (`{transaction}` or `{error}`). */
  trade(i: number): ReplayAnswer | undefined;
}

/** The fields of an executed trade the outcome reads. */
const TRADE_FIELDS_READ = ['fromAmount', 'toAmount', 'tradeAmountUsd', 'fromTokenSymbol', 'toTokenSymbol'] as const;

/** The part of a trade answer the outcome reads: the error, and the transaction's amounts and symbols. */
function tradeAnswer(status: number, body: unknown): ReplayAnswer {
  if (body === undefined || body === null || typeof body !== 'object') return { status };
  const b = body as Record<string, unknown>;
  const tx = b.transaction as Record<string, unknown> | undefined;
  const kept: Record<string, unknown> = {};
  if ('error' in b) kept.error = b.error;
  if (tx !== undefined && tx !== null && typeof tx === 'object') {
    const picked: Record<string, unknown> = {};
    for (const k of TRADE_FIELDS_READ) picked[k] = tx[k];
    kept.transaction = picked;
  }
  return { status, body: kept };
}

function plainAnswer(res: TargetResponse): ReplayAnswer {
  const body = res.body;
  return { status: res.status, ...(body !== null && typeof body === 'object' && !Array.isArray(body) ? { body } : {}) };
}

const TRADE = 1;
const READ = 2;

/**
 * Collects, as a replay's scenario runs on a target ({@link RunOptions.onExchange}), the answers its
 * analysis reads: the actors' registrations, the start call, the starting balances and every trade.
 * The rest of the run's answers are not kept, and nothing is parsed back from the response log.
 */
export class ReplayRecorder implements ReplayAnswers {
  /** What each step's answer is to the analysis: {@link TRADE}, {@link READ} or 0 (not kept). */
  private readonly kinds: Uint8Array;
  private readonly steps: (ReplayAnswer | undefined)[];
  private readonly actors = new Map<string, ReplayAnswer>();

  constructor(private readonly scenario: ReplayScenario) {
    this.kinds = new Uint8Array(scenario.doc.steps.length);
    this.steps = new Array<ReplayAnswer | undefined>(scenario.doc.steps.length);
    this.kinds[0] = READ;
    for (const i of scenario.tradeSteps) this.kinds[i] = TRADE;
    for (const i of scenario.balanceSteps) this.kinds[i] = READ;
  }

  /** The id of the competition the start call made, once it answered. */
  competitionId(): string | undefined {
    const c = (this.steps[0]?.body as { competition?: { id?: unknown } } | undefined)?.competition;
    return typeof c?.id === 'string' ? c.id : undefined;
  }

  agentId(i: number): string | undefined {
    const agent = (this.actors.get(actorOf(i))?.body as { agent?: { id?: unknown } } | undefined)?.agent;
    return typeof agent?.id === 'string' ? agent.id : undefined;
  }

  balances(i: number): ReplayAnswer | undefined {
    const step = this.scenario.balanceSteps[i];
    return step === undefined ? undefined : this.steps[step];
  }

  trade(i: number): ReplayAnswer | undefined {
    const step = this.scenario.tradeSteps[i];
    return step === undefined ? undefined : this.steps[step];
  }

  /** The runner's exchange hook (`at` is `steps[<i>]`, `actors.<name>` or `reset`). */
  readonly observe = (at: string, res: TargetResponse): void => {
    if (at.startsWith('actors.')) {
      this.actors.set(at.slice('actors.'.length), plainAnswer(res));
      return;
    }
    if (!at.startsWith('steps[')) return;
    const i = Number(at.slice('steps['.length, -1));
    const kind = this.kinds[i];
    if (kind === TRADE) this.steps[i] = tradeAnswer(res.status, res.body);
    else if (kind === READ) this.steps[i] = plainAnswer(res);
  };
}

/** Per-trade outcomes and balance histories from the answers. */
function tradesAndBalances(plan: ReplayPlan, answers: ReplayAnswers): { trades: TradeOutcome[]; balances: BalanceChange[] } {
  const holdings = new Map<string, Map<string, { symbol: string; amount: number }>>();
  plan.agents.forEach((name, i) => {
    const rows = (answers.balances(i)?.body?.balances ?? []) as { tokenAddress: string; symbol: string; amount: number }[];
    holdings.set(name, new Map(rows.map((r) => [addressFamily(r.tokenAddress), { symbol: r.symbol, amount: r.amount }])));
  });
  const trades = new Array<TradeOutcome>(plan.trades.length);
  const balances: BalanceChange[] = [];
  const move = (trade: ReplayTrade, token: string, symbol: string, change: number) => {
    const held = holdings.get(trade.agent)!;
    const key = addressFamily(token);
    let row = held.get(key);
    if (!row) held.set(key, (row = { symbol, amount: 0 }));
    row.amount += change;
    row.symbol = symbol;
    balances.push({ timestamp: trade.timestamp, agent: trade.agent, token, symbol, change, balance: row.amount });
  };
  for (let i = 0; i < plan.trades.length; i++) {
    const trade = plan.trades[i]!;
    const e = answers.trade(i);
    const body = e?.body;
    const tx = body?.transaction as Record<string, unknown> | undefined;
    const accepted = e?.status === 200 && tx !== undefined;
    trades[i] = {
      trade, status: e?.status ?? 0, accepted,
      toAmount: accepted ? Number(tx.toAmount) : null, tradeAmountUsd: accepted && typeof tx.tradeAmountUsd === 'number' ? tx.tradeAmountUsd : null,
      fromSymbol: accepted ? String(tx.fromTokenSymbol) : null, toSymbol: accepted ? String(tx.toTokenSymbol) : null,
      error: accepted ? null : String(body?.error ?? `status ${e?.status ?? 'missing'}`),
    };
    if (!accepted) continue;
    move(trade, trade.fromToken, String(tx.fromTokenSymbol), -Number(tx.fromAmount));
    if (Number(tx.toAmount) > 0) move(trade, trade.toToken, String(tx.toTokenSymbol), Number(tx.toAmount));
  }
  return { trades, balances };
}

/** The ranking at every snapshot instant: one value per agent and instant, the later-written snapshot (higher id) winning. */
function rankings(plan: ReplayPlan, answers: ReplayAnswers, snapshots: readonly SnapshotRow[]): RankRow[] {
  const idToAgent = new Map<string, string>();
  plan.agents.forEach((name, i) => {
    const id = answers.agentId(i);
    if (id !== undefined) idToAgent.set(id, name);
  });
  // When two snapshots share an instant (a periodic one and the final one at the end), the later-written one counts.
  const latest = new Map<string, SnapshotRow>();
  for (const s of snapshots) {
    const k = `${s.agentId}@${s.timestamp}`;
    const prev = latest.get(k);
    if (!prev || s.id > prev.id) latest.set(k, s);
  }
  const byTime = new Map<number, { agent: string; value: number }[]>();
  for (const s of latest.values()) {
    const list = byTime.get(s.timestamp) ?? [];
    list.push({ agent: idToAgent.get(s.agentId) ?? s.agentId, value: s.totalValue });
    byTime.set(s.timestamp, list);
  }
  const leaderboards: RankRow[] = [];
  // Ties rank in order of first trade (an unknown agent id first).
  const order = new Map(plan.agents.map((name, i) => [name, i]));
  for (const t of [...byTime.keys()].sort((a, b) => a - b)) {
    const ranked = byTime.get(t)!.sort((a, b) => b.value - a.value || (order.get(a.agent) ?? -1) - (order.get(b.agent) ?? -1));
    ranked.forEach((r, i) => leaderboards.push({ timestamp: t, rank: i + 1, agent: r.agent, value: r.value }));
  }
  return leaderboards;
}

/** Reads a run's answers and snapshots back into per-trade outcomes, balance histories and rankings. */
export function analyzeReplay(plan: ReplayPlan, answers: ReplayAnswers, snapshots: readonly SnapshotRow[]): ReplayOutcome {
  const { trades, balances } = tradesAndBalances(plan, answers);
  const leaderboards = rankings(plan, answers, snapshots);
  const lastT = leaderboards.length > 0 ? leaderboards[leaderboards.length - 1]!.timestamp : null;
  const firstValue = new Map<string, number>();
  for (const r of leaderboards) if (!firstValue.has(r.agent)) firstValue.set(r.agent, r.value);
  const final = leaderboards.filter((r) => r.timestamp === lastT).map((r) => {
    const startValue = firstValue.get(r.agent)!;
    return { ...r, startValue, pnl: r.value - startValue };
  });
  return { trades, balances, leaderboards, final };
}

/** Numbers hashed as little-endian doubles, a few thousand at a time: text formatting per number costs more than the hashing. */
class NumberHash {
  private readonly view = new DataView(new ArrayBuffer(8 * 8192));
  private n = 0;
  constructor(private readonly h: Hash) {}
  num(x: number): void {
    this.view.setFloat64(this.n, x, true);
    this.n += 8;
    if (this.n === this.view.byteLength) this.flush();
  }
  text(s: string): void {
    this.flush();
    this.h.update(`${JSON.stringify(s)}\n`);
  }
  flush(): void {
    if (this.n > 0) this.h.update(new Uint8Array(this.view.buffer, 0, this.n));
    this.n = 0;
  }
}

/**
 * SHA-256 of an outcome: every trade's result (by position: the trades are the plan's) and the
 * ranking at every snapshot. It names agents (by their first place in the rankings), never ids, so
 * an in-process replay and a replay against a served world of the same inputs hash alike.
 */
export function outcomeHash(o: ReplayOutcome): string {
  const h = createHash('sha256');
  const out = new NumberHash(h);
  for (const t of o.trades) {
    out.num(t.status);
    out.num(t.accepted ? 1 : 0);
    out.num(t.toAmount ?? NaN);
    out.num(t.tradeAmountUsd ?? NaN);
    if (t.error !== null) out.text(t.error);
  }
  out.num(-1);
  const names = new Map<string, number>();
  for (const r of o.leaderboards) {
    let k = names.get(r.agent);
    if (k === undefined) names.set(r.agent, (k = names.size));
    out.num(r.timestamp);
    out.num(r.rank);
    out.num(k);
    out.num(r.value);
  }
  for (const name of names.keys()) out.text(name);
  out.flush();
  return h.digest('hex');
}
