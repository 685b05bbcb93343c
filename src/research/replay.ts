// Replay: recorded trades + a price tape -> a scenario on the virtual clock, and the run's answers -> leaderboards and balance histories.
import { setOwn } from '../harness/interpolate.js';
import type { TargetResponse } from '../harness/targets.js';
import type { Json, ScenarioDoc, Step } from '../harness/types.js';

/** One recorded trade (times in epoch ms; amounts as given). */
export interface ReplayTrade {
  timestamp: number; agent: string; fromToken: string; toToken: string; amount: string; reason: string;
  fromChain?: string; toChain?: string; fromSpecificChain?: string; toSpecificChain?: string;
}

/** Price tapes: `chain:address` -> [[epochMs, price], ...]. */
export type Tapes = Record<string, [number, number][]>;

/** A starting balance of every agent. */
export interface ReplayBalance { specificChain: string; tokenSymbol: string; amount: number }

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
}

/** Thrown for unreadable input files (message names the file and the line or field). */
export class ReplayInputError extends Error {}

const TRADE_FIELDS = ['timestamp', 'agent', 'fromToken', 'toToken', 'amount', 'reason', 'fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain'] as const;
const REQUIRED = ['timestamp', 'agent', 'fromToken', 'toToken', 'amount'] as const;

function toMs(v: unknown, where: string): number {
  const ms = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : Date.parse(String(v));
  if (!Number.isFinite(ms)) throw new ReplayInputError(`${where}: not a time (ISO 8601 or epoch ms): ${JSON.stringify(v)}`);
  return ms;
}

function toTrade(raw: Record<string, unknown>, where: string): ReplayTrade {
  for (const k of REQUIRED) if (raw[k] === undefined || raw[k] === '') throw new ReplayInputError(`${where}: missing ${k}`);
  for (const k of Object.keys(raw)) if (!(TRADE_FIELDS as readonly string[]).includes(k)) throw new ReplayInputError(`${where}: unknown field '${k}' (known: ${TRADE_FIELDS.join(', ')})`);
  const t: ReplayTrade = {
    timestamp: toMs(raw.timestamp, `${where}.timestamp`), agent: String(raw.agent), fromToken: String(raw.fromToken),
    toToken: String(raw.toToken), amount: String(raw.amount), reason: raw.reason === undefined || raw.reason === '' ? 'replay' : String(raw.reason),
  };
  for (const k of ['fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain'] as const) if (raw[k] !== undefined && raw[k] !== '') t[k] = String(raw[k]);
  return t;
}

/** Splits one CSV line (double quotes may enclose commas; `""` is a quote). */
function csvCells(line: string): string[] {
  if (!line.includes('"')) return line.split(',').map((c) => c.trim());
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cur += '"', i++);
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (out.push(cur.trim()), (cur = ''));
    else cur += c;
  }
  out.push(cur.trim());
  return out;
}

/** Trades from CSV (header row with the field names) or JSON (an array, or `{trades: [...]}`), sorted by time (stable). */
export function parseTrades(text: string, file: string): ReplayTrade[] {
  let trades: ReplayTrade[];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new ReplayInputError(`${file}: not valid JSON: ${(err as Error).message}`);
    }
    const list = Array.isArray(doc) ? doc : (doc as { trades?: unknown }).trades;
    if (!Array.isArray(list)) throw new ReplayInputError(`${file}: expected an array of trades or {"trades": [...]}`);
    trades = list.map((r, i) => {
      if (r === null || typeof r !== 'object' || Array.isArray(r)) throw new ReplayInputError(`${file}: trades[${i}] is not an object`);
      return toTrade(r as Record<string, unknown>, `${file}: trades[${i}]`);
    });
  } else {
    const lines = text.split(/\r?\n/).map((l, i) => ({ l, n: i + 1 })).filter(({ l }) => l.trim() !== '' && !l.trimStart().startsWith('#'));
    if (lines.length === 0) throw new ReplayInputError(`${file}: no header row`);
    const header = csvCells(lines[0]!.l);
    trades = lines.slice(1).map(({ l, n }) => {
      const cells = csvCells(l);
      if (cells.length !== header.length) throw new ReplayInputError(`${file}:${n}: ${cells.length} cells, the header has ${header.length}`);
      // Every name an own member (a `__proto__` too, for toTrade to refuse), the last of a repeated one winning.
      const raw: Record<string, unknown> = {};
      for (let i = 0; i < header.length; i++) setOwn(raw, header[i]!, cells[i]);
      return toTrade(raw, `${file}:${n}`);
    });
  }
  // Recorded trades are usually in time order already: then the stable sort would keep them as they are.
  let ordered = true;
  for (let i = 1; i < trades.length && ordered; i++) ordered = trades[i - 1]!.timestamp <= trades[i]!.timestamp;
  if (ordered) return trades;
  return trades.map((t, i) => ({ t, i })).sort((a, b) => a.t.timestamp - b.t.timestamp || a.i - b.i).map((x) => x.t);
}

/** A tape file: `{"tapes": {...}}` or the map itself; points `[ISO or ms, price]`. */
export function parseTapes(text: string, file: string): Tapes {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ReplayInputError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  const map = (doc as { tapes?: unknown })?.tapes ?? doc;
  if (map === null || typeof map !== 'object' || Array.isArray(map)) throw new ReplayInputError(`${file}: expected {"<chain>:<address>": [[time, price], ...]}`);
  const out: Tapes = {};
  for (const [key, points] of Object.entries(map as Record<string, unknown>)) {
    if (!/^[a-z]+:.+$/.test(key)) throw new ReplayInputError(`${file}: key '${key}' is not <chain>:<address>`);
    if (!Array.isArray(points) || points.length === 0) throw new ReplayInputError(`${file}: ${key}: expected a non-empty list of [time, price]`);
    out[key] = points.map((p, i) => {
      const where = `${file}: ${key}[${i}]`;
      if (!Array.isArray(p) || p.length !== 2 || typeof p[1] !== 'number' || !Number.isFinite(p[1]) || p[1] < 0) throw new ReplayInputError(`${where}: expected [time, price >= 0]`);
      return [toMs(p[0], where), p[1]] as [number, number];
    });
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Actor name of the i-th distinct agent (scenario actor names are identifiers; the agent keeps its own name). */
export const actorOf = (i: number) => `agent${i + 1}`;

/** Distinct agent names in order of first trade. */
export function agentNames(trades: readonly ReplayTrade[]): string[] {
  return [...new Set(trades.map((t) => t.agent))];
}

/** Index of the step of each trade's execute call, for reading the log back. */
export interface ReplayPlan {
  doc: ScenarioDoc;
  /** The trades in replay order, and the step index of each one's execute call. */
  trades: ReplayTrade[]; tradeSteps: number[];
  /** Step index of each agent's starting-balance read. */
  balanceSteps: number[];
  agents: string[]; start: number; end: number;
}

/**
 * The scenario that rebuilds the competition: agents registered by name, a competition started at
 * the start time with every agent, each trade executed at its recorded time (accepted or refused,
 * both recorded), the clock run to the end (periodic snapshots), then the end.
 */
export function replayPlan(trades: readonly ReplayTrade[], tapes: Tapes, o: ReplayOptions): ReplayPlan {
  if (trades.length === 0) throw new ReplayInputError('no trades to replay');
  const agents = [...new Set([...(o.agents ?? []), ...agentNames(trades)])];
  const firstTape = Math.min(...Object.values(tapes).map((pts) => Math.min(...pts.map((p) => p[0]))));
  const start = o.startTime ?? Math.min(trades[0]!.timestamp, Number.isFinite(firstTape) ? firstTape : Infinity);
  const last = trades[trades.length - 1]!.timestamp;
  const end = o.endTime ?? last + o.intervalMs;
  if (start > trades[0]!.timestamp) throw new ReplayInputError(`the start (${iso(start)}) is after the first trade (${iso(trades[0]!.timestamp)})`);
  if (end <= last) throw new ReplayInputError(`the end (${iso(end)}) must be after the last trade (${iso(last)})`);
  const lenient = o.rules === 'lenient';
  const startBody: Record<string, Json> = {
    name: 'Replay', agentIds: agents.map((_, i) => `\${${actorOf(i)}.id}`),
    ...(o.balances ? { paperTradingInitialBalances: o.balances as unknown as Json } : {}),
    ...(lenient ? {
      tradingType: 'allow', paperTradingConfig: { maxTradePercentage: 100 },
      tradingConstraints: { minimumPairAgeHours: 0, minimum24hVolumeUsd: 0, minimumLiquidityUsd: 0, minimumFdvUsd: 0 },
    } : {}),
  };
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
  let now = start;
  for (const t of trades) {
    const body: Record<string, Json> = { competitionId: '${comp.id}', fromToken: t.fromToken, toToken: t.toToken, amount: t.amount, reason: t.reason };
    for (const k of ['fromChain', 'toChain', 'fromSpecificChain', 'toSpecificChain'] as const) if (t[k] !== undefined) body[k] = t[k]!;
    tradeSteps.push(steps.length);
    // The clock moves to the trade's time as part of the call (one step and one log line, not two).
    const at = t.timestamp > now ? { at: iso((now = t.timestamp)) } : {};
    steps.push({ call: 'POST /api/trade/execute', as: actorByAgent.get(t.agent)!, ...at, body, expect: { status: [200, 400, 403, 404] } });
  }
  steps.push({ setTime: iso(end) });
  steps.push({ call: 'POST /api/admin/competition/end', as: 'admin', body: { competitionId: '${comp.id}' }, expect: { status: 200 } });
  const doc: ScenarioDoc = {
    description: `Replay of ${trades.length} trades by ${agents.length} agents (${o.rules} rules, slippage ${o.slippage}).`,
    seed: o.seed, startTime: iso(start),
    world: { prices: { kind: 'tape', tapes } as unknown as Json, slippage: o.slippage, snapshotIntervalMs: o.intervalMs },
    actors: Object.fromEntries(agents.map((name, i) => [actorOf(i), { register: { agentName: name } }])),
    steps,
  };
  return { doc, trades: [...trades], tradeSteps, balanceSteps, agents, start, end };
}

/** One replayed trade with its outcome. */
export interface TradeOutcome {
  trade: ReplayTrade; status: number; accepted: boolean;
  toAmount: number | null; tradeAmountUsd: number | null; fromSymbol: string | null; toSymbol: string | null; error: string | null;
}
/** One balance change of an agent (a trade's debit or credit; `balance` after it). */
export interface BalanceChange { timestamp: number; agent: string; token: string; symbol: string; change: number; balance: number }
/** One ranking row at one snapshot instant. */
export interface RankRow { timestamp: number; rank: number; agent: string; value: number }
/** A snapshot as the admin endpoint lists it. */
export interface SnapshotRow { id: number; agentId: string; timestamp: string; totalValue: number }

/** What a replay produced, read back from its response log and snapshots. */
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

/** The fields of an executed trade the outcome reads. */
const TRADE_FIELDS_READ = ['fromAmount', 'toAmount', 'tradeAmountUsd', 'fromTokenSymbol', 'toTokenSymbol'] as const;

/** The part of a trade answer the outcome reads: the error, and the transaction's amounts and symbols. */
function tradeAnswer(res: TargetResponse): ReplayAnswer {
  const body = res.body as Record<string, unknown> | undefined;
  if (body === undefined || body === null || typeof body !== 'object') return { status: res.status };
  const tx = body.transaction as Record<string, unknown> | undefined;
  const kept: Record<string, unknown> = {};
  if ('error' in body) kept.error = body.error;
  if (tx !== undefined && tx !== null && typeof tx === 'object') {
    const picked: Record<string, unknown> = {};
    for (const k of TRADE_FIELDS_READ) picked[k] = tx[k];
    kept.transaction = picked;
  }
  return { status: res.status, body: kept };
}

/** The answers a replay's analysis reads, by step index or actor name. */
export interface ReplayAnswers {
  step(index: number): ReplayAnswer | undefined;
  actor(name: string): ReplayAnswer | undefined;
}

const TRADE = 1;
const READ = 2;

/**
 * Collects, as a replay runs ({@link RunOptions.onExchange}), the answers its analysis reads: the
 * actors' registrations, the starting balances and every trade. The rest of the run's answers are
 * not kept, and nothing is parsed back from the response log.
 */
export class ReplayRecorder implements ReplayAnswers {
  /** What each step's answer is to the analysis: {@link TRADE}, {@link READ} or 0 (not kept). */
  private readonly kinds: Uint8Array;
  private readonly steps: (ReplayAnswer | undefined)[];
  private readonly actors = new Map<string, ReplayAnswer>();

  constructor(plan: ReplayPlan) {
    this.kinds = new Uint8Array(plan.doc.steps.length);
    this.steps = new Array<ReplayAnswer | undefined>(plan.doc.steps.length);
    for (const i of plan.tradeSteps) this.kinds[i] = TRADE;
    for (const i of plan.balanceSteps) this.kinds[i] = READ;
  }

  step(index: number): ReplayAnswer | undefined {
    return this.steps[index];
  }

  actor(name: string): ReplayAnswer | undefined {
    return this.actors.get(name);
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
    if (kind === TRADE) this.steps[i] = tradeAnswer(res);
    else if (kind === READ) this.steps[i] = plainAnswer(res);
  };
}

function plainAnswer(res: TargetResponse): ReplayAnswer {
  const body = res.body;
  return { status: res.status, ...(body !== null && typeof body === 'object' && !Array.isArray(body) ? { body } : {}) };
}

/** Reads the run's recorded answers and snapshots back into per-trade outcomes, balance histories and rankings. */
export function analyzeReplay(plan: ReplayPlan, answers: ReplayAnswers, snapshots: readonly SnapshotRow[]): ReplayOutcome {
  const idToAgent = new Map<string, string>();
  plan.agents.forEach((name, i) => {
    const body = answers.actor(actorOf(i))?.body as { agent?: { id?: string } } | undefined;
    if (body?.agent?.id) idToAgent.set(body.agent.id, name);
  });
  const holdings = new Map<string, Map<string, { symbol: string; amount: number }>>();
  const keyOf = (token: string) => (token.startsWith('0x') ? token.toLowerCase() : token);
  plan.balanceSteps.forEach((step, i) => {
    const rows = (answers.step(step)?.body?.balances ?? []) as { tokenAddress: string; symbol: string; amount: number }[];
    holdings.set(plan.agents[i]!, new Map(rows.map((r) => [keyOf(r.tokenAddress), { symbol: r.symbol, amount: r.amount }])));
  });
  const trades: TradeOutcome[] = [];
  const balances: BalanceChange[] = [];
  plan.tradeSteps.forEach((step, i) => {
    const e = answers.step(step);
    const trade = plan.trades[i]!;
    const agent = trade.agent;
    const body = e?.body;
    const tx = body?.transaction as Record<string, unknown> | undefined;
    const accepted = e?.status === 200 && tx !== undefined;
    trades.push({
      trade, status: e?.status ?? 0, accepted,
      toAmount: accepted ? Number(tx.toAmount) : null, tradeAmountUsd: accepted && typeof tx.tradeAmountUsd === 'number' ? tx.tradeAmountUsd : null,
      fromSymbol: accepted ? String(tx.fromTokenSymbol) : null, toSymbol: accepted ? String(tx.toTokenSymbol) : null,
      error: accepted ? null : String(body?.error ?? `status ${e?.status ?? 'missing'}`),
    });
    if (!accepted) return;
    const held = holdings.get(agent)!;
    const move = (token: string, symbol: string, change: number) => {
      const row = held.get(keyOf(token)) ?? { symbol, amount: 0 };
      row.amount += change;
      row.symbol = symbol;
      held.set(keyOf(token), row);
      balances.push({ timestamp: trade.timestamp, agent, token, symbol, change, balance: row.amount });
    };
    move(trade.fromToken, String(tx.fromTokenSymbol), -Number(tx.fromAmount));
    if (Number(tx.toAmount) > 0) move(trade.toToken, String(tx.toTokenSymbol), Number(tx.toAmount));
  });
  // One value per agent and instant: when two snapshots share an instant (a periodic one and the
  // final one at the end), the later-written one (higher id) counts.
  const latest = new Map<string, SnapshotRow>();
  for (const s of snapshots) {
    const k = `${s.agentId}@${s.timestamp}`;
    const prev = latest.get(k);
    if (!prev || s.id > prev.id) latest.set(k, s);
  }
  const byTime = new Map<number, { agent: string; value: number }[]>();
  for (const s of latest.values()) {
    const t = Date.parse(s.timestamp);
    const list = byTime.get(t) ?? [];
    list.push({ agent: idToAgent.get(s.agentId) ?? s.agentId, value: s.totalValue });
    byTime.set(t, list);
  }
  const leaderboards: RankRow[] = [];
  // Ties rank in order of first trade (an unknown agent id first, as indexOf's -1 did).
  const order = new Map(plan.agents.map((name, i) => [name, i]));
  for (const t of [...byTime.keys()].sort((a, b) => a - b)) {
    const ranked = byTime.get(t)!.sort((a, b) => b.value - a.value || (order.get(a.agent) ?? -1) - (order.get(b.agent) ?? -1));
    ranked.forEach((r, i) => leaderboards.push({ timestamp: t, rank: i + 1, agent: r.agent, value: r.value }));
  }
  const lastT = leaderboards.length > 0 ? leaderboards[leaderboards.length - 1]!.timestamp : null;
  const final = leaderboards.filter((r) => r.timestamp === lastT).map((r) => {
    const startValue = leaderboards.find((x) => x.agent === r.agent)!.value;
    return { ...r, startValue, pnl: r.value - startValue };
  });
  return { trades, balances, leaderboards, final };
}

/** Rows as CSV text (header first; values quoted when they hold a comma or quote). */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | boolean | null)[])[]): string {
  const cell = (v: string | number | boolean | null) => {
    const s = v === null ? '' : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header.join(','), ...rows.map((r) => r.map(cell).join(','))].join('\n') + '\n';
}
