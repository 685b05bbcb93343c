// The command model's state: agents, competitions, expected balances, snapshots and trades, and its predictions (deliberately simpler than the system).

/** Tokens the model trades, with catalogue prices (fixtures/tokens.json) and what the model knows about them. */
export const TOKENS = {
  SOL: { address: 'So11111111111111111111111111111111111111112', chain: 'svm', price: 150 },
  USDC: { address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', chain: 'svm', price: 1 },
  USDT: { address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', chain: 'svm', price: 1 },
  JUP: { address: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', chain: 'svm', price: 0.8 },
  /** FDV 500,000: the default constraints refuse it as a to-token. */
  BONK: { address: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', chain: 'svm', price: 0.00002 },
  /** The Solana burn address: nothing received, value destroyed by design. */
  BURN: { address: '1nc1nerator11111111111111111111111111111111', chain: 'svm', price: 0 },
  WETH: { address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', chain: 'eth', price: 3000 },
  EUSDC: { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', chain: 'eth', price: 1 },
} as const;

/** A token name of {@link TOKENS}. */
export type TokenName = keyof typeof TOKENS;
export const TOKEN_NAMES = Object.keys(TOKENS) as TokenName[];
/** Tokens that can be held (priced, tradable as to-tokens under the default constraints). */
export const HOLDABLE: TokenName[] = ['SOL', 'USDC', 'USDT', 'JUP', 'WETH', 'EUSDC'];

/** Starting-balance lists a competition may get (symbols as the admin API takes them). */
export const INITIAL_SETS: { specificChain: 'svm' | 'eth'; tokenSymbol: string; token: TokenName; amount: number }[][] = [
  [{ specificChain: 'svm', tokenSymbol: 'usdc', token: 'USDC', amount: 5000 }, { specificChain: 'svm', tokenSymbol: 'sol', token: 'SOL', amount: 10 }],
  [{ specificChain: 'svm', tokenSymbol: 'usdc', token: 'USDC', amount: 1000 }, { specificChain: 'eth', tokenSymbol: 'usdc', token: 'EUSDC', amount: 2000 },
    { specificChain: 'eth', tokenSymbol: 'eth', token: 'WETH', amount: 1 }],
  [{ specificChain: 'svm', tokenSymbol: 'sol', token: 'SOL', amount: 3 }, { specificChain: 'svm', tokenSymbol: 'jup', token: 'JUP', amount: 500 }],
];

/** Upstream's slippage curve (docs/trading-and-rankings.md): the bounds of the seeded draw for a trade worth `usd`. */
export function slippageBounds(usd: number): [number, number] {
  const clamp = (x: number) => Math.min(0.15, Math.max(0.0005, x));
  const base = clamp(0.035 * Math.log10(1 + usd / 5000));
  return [clamp(base * 0.95), clamp(base * 1.2)];
}

export type RegStatus = 'active' | 'withdrawn' | 'disqualified';
export type CompStatus = 'pending' | 'active' | 'ended';

/** A registered agent (its own user). */
export interface MAgent { name: string; id: string; key: string; userId: string }

/** A competition as the model sees it. */
export interface MComp {
  /** Scenario variable name (`c1`, ...). */
  name: string;
  id: string;
  status: CompStatus;
  tradingType: 'allow' | 'disallowAll';
  maxPct: number;
  initial: (typeof INITIAL_SETS)[number];
  /** Scheduled or actual end (epoch ms), null when none. */
  endDate: number | null;
  startDate: number | null;
  lastSnapshotAt: number | null;
  /** Registrations in registration order. */
  regs: { agentId: string; status: RegStatus }[];
  /** Balances per agent: token address -> amount, in row order (only agents that got starting balances). */
  balances: Map<string, Map<string, number>>;
  /** Value of each agent's newest snapshot, and of its first. */
  latest: Map<string, number>;
  first: Map<string, number>;
  /** Frozen final leaderboard (agent ids, best first) once ended. */
  frozen: string[] | null;
  /** Accepted trades in execution order. */
  trades: { id: string; agentId: string; usd: number }[];
}

/** Deliberately injected model errors, to test the regression writer (never product behaviour). */
export type FakeBug = 'none' | 'maxTradeOff' | 'slippageFee';

/** The whole model. */
export interface Model {
  now: number;
  interval: number;
  slippage: 'none' | 'upstream';
  /** Current price per token address (catalogue prices plus `setPrice` overrides). */
  prices: Map<string, number>;
  agents: MAgent[];
  comps: MComp[];
  fakeBug: FakeBug;
  /** Every registration and every accepted trade, in the order they happened (across competitions). */
  regLog: { agentId: string; compId: string }[];
  tradeLog: { id: string; agentId: string }[];
  /** Command counter (checks rotate over list endpoints with it). */
  step: number;
}

/** A fresh model at `now`. */
export function newModel(now: number, slippage: Model['slippage'], interval: number, fakeBug: FakeBug = 'none'): Model {
  return {
    now, interval, slippage, prices: new Map(TOKEN_NAMES.map((t) => [TOKENS[t].address, TOKENS[t].price])),
    agents: [], comps: [], fakeBug, regLog: [], tradeLog: [], step: 0,
  };
}

export const tokenName = (address: string): TokenName => TOKEN_NAMES.find((t) => TOKENS[t].address === address)!;
export const priceOf = (m: Model, address: string): number => m.prices.get(address) ?? 0;

/** Live value of one agent's balances (row order, as the system sums them). */
export function valueOf(m: Model, rows: Map<string, number> | undefined): number {
  let total = 0;
  for (const [address, amount] of rows ?? []) {
    if (amount === 0) continue;
    total += amount * priceOf(m, address);
  }
  return total;
}

export const regOf = (c: MComp, agentId: string) => c.regs.find((r) => r.agentId === agentId);
export const activeIds = (c: MComp) => c.regs.filter((r) => r.status === 'active').map((r) => r.agentId);

/** Two values the system may order either way (equal up to rounding, but not exactly). */
export const nearlyEqual = (a: number, b: number) => a !== b && Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1);

/** What a trade should do. `either` when it sits on a rule's boundary (rounding may go both ways). */
export type TradeOutcome =
  | { kind: 'accept'; comp: MComp; usd: number; toAmount: number | null }
  | { kind: 'reject'; status: number; rule: string | null }
  | { kind: 'either'; comp: MComp };

/** A trade as generated: names and an amount that is either a fraction of the balance or a literal. */
export interface TradeSpec {
  agent: MAgent; comp: MComp | null; from: TokenName; to: TokenName; amount: number | string; reason: boolean;
  /** Leave competitionId out (the implicit competition). */
  implicit: boolean;
}

/** The competition an implicit trade means, or the rejection. */
export function implicitComp(m: Model, agentId: string): MComp | { status: number } {
  const active = m.comps.filter((c) => c.status === 'active');
  const mine = active.filter((c) => regOf(c, agentId)?.status === 'active');
  const candidates = mine.length > 0 ? mine : active;
  if (candidates.length === 0) return { status: 403 };
  if (candidates.length > 1) return { status: 400 };
  return candidates[0]!;
}

/** The model's prediction for `POST /api/trade/execute` (only the rules the model knows, in upstream's order). */
export function predictTrade(m: Model, t: TradeSpec): TradeOutcome {
  // An omitted competitionId is resolved before the body is checked (the older eras had no such field).
  let comp = t.comp;
  if (t.implicit) {
    const c = implicitComp(m, t.agent.id);
    if (!('id' in c)) return { kind: 'reject', status: c.status, rule: null };
    comp = c;
  }
  if (!t.reason) return { kind: 'reject', status: 400, rule: 'required' };
  const amount = typeof t.amount === 'number' ? t.amount : Number.parseFloat(t.amount);
  if (Number.isNaN(amount) || amount <= 0) return { kind: 'reject', status: 400, rule: 'positiveAmount' };
  if (!comp) return { kind: 'reject', status: 404, rule: 'competitionExists' };
  if (comp.status === 'ended' || (comp.endDate !== null && m.now > comp.endDate)) return { kind: 'reject', status: 400, rule: 'competitionEnded' };
  if (regOf(comp, t.agent.id)?.status !== 'active') return { kind: 'reject', status: 403, rule: 'registration' };
  if (amount < 0.000001) return { kind: 'reject', status: 400, rule: 'minimumAmount' };
  if (t.from === t.to) return { kind: 'reject', status: 400, rule: 'identicalTokens' };
  const parent = (n: TokenName) => (TOKENS[n].chain === 'svm' ? 'svm' : 'evm');
  if (comp.tradingType === 'disallowAll' && parent(t.from) !== parent(t.to)) return { kind: 'reject', status: 400, rule: 'crossChain' };
  if (t.to === 'BONK') return { kind: 'reject', status: 400, rule: 'tradingConstraint' };
  const rows = comp.balances.get(t.agent.id);
  const available = rows?.get(TOKENS[t.from].address) ?? 0;
  if (available < amount) return { kind: 'reject', status: 400, rule: 'balance' };
  const usd = amount * priceOf(m, TOKENS[t.from].address);
  const pct = comp.maxPct + (m.fakeBug === 'maxTradeOff' ? 10 : 0);
  const max = (valueOf(m, rows) * pct) / 100;
  if (Math.abs(usd - max) <= 1e-9 * Math.max(max, 1)) return { kind: 'either', comp };
  if (usd > max) return { kind: 'reject', status: 400, rule: 'maxTradeSize' };
  const toPrice = priceOf(m, TOKENS[t.to].address);
  if (toPrice === 0) return { kind: 'accept', comp, usd, toAmount: 0 };
  if (m.slippage === 'upstream') return { kind: 'accept', comp, usd, toAmount: null };
  const fee = m.fakeBug === 'slippageFee' ? 0.01 : 0;
  return { kind: 'accept', comp, usd, toAmount: (usd * (1 - fee)) / toPrice };
}

/** Applies an accepted trade to the model (amounts as the system reported them where the model cannot know them). */
export function applyTrade(m: Model, comp: MComp, agentId: string, from: TokenName, to: TokenName, amount: number, toAmount: number, tradeId: string, usd: number): void {
  const rows = comp.balances.get(agentId)!;
  const fa = TOKENS[from].address;
  rows.set(fa, rows.get(fa)! - amount);
  if (toAmount > 0) {
    const ta = TOKENS[to].address;
    rows.set(ta, (rows.get(ta) ?? 0) + toAmount);
  }
  comp.trades.push({ id: tradeId, agentId, usd });
  m.tradeLog.push({ id: tradeId, agentId });
}

/** A new active registration (registration order is what rankings break ties by). */
export function register(m: Model, comp: MComp, agentId: string): void {
  comp.regs.push({ agentId, status: 'active' });
  m.regLog.push({ agentId, compId: comp.id });
}

/** Starting balances of an agent in `comp` (row order of the starting list). */
export function startingRows(comp: MComp): Map<string, number> {
  return new Map(comp.initial.map((b) => [TOKENS[b.token].address, b.amount]));
}

/** Snapshot of every active agent at the current prices. */
export function snapshotAll(m: Model, comp: MComp): void {
  for (const id of activeIds(comp)) {
    const rows = comp.balances.get(id);
    if (!rows) continue;
    const v = valueOf(m, rows);
    comp.latest.set(id, v);
    if (!comp.first.has(id)) comp.first.set(id, v);
  }
  comp.lastSnapshotAt = m.now;
}

/** Ends an active competition now: final snapshot, frozen leaderboard of active agents with a snapshot. */
export function endNow(m: Model, comp: MComp): void {
  snapshotAll(m, comp);
  comp.status = 'ended';
  comp.endDate = m.now;
  comp.frozen = rankedIds(m, comp, activeIds(comp).filter((id) => comp.latest.has(id)));
}

/** Agent ids best first by newest snapshot value; equal values keep registration order. */
export function rankedIds(m: Model, comp: MComp, ids: string[]): string[] {
  return ids.map((id, i) => ({ id, i, v: comp.latest.get(id) ?? 0 })).sort((a, b) => b.v - a.v || a.i - b.i).map((x) => x.id);
}

/**
 * Moves the model clock forward: per active competition, the periodic snapshots aligned to its
 * start (values do not move during an advance, so the newest snapshot is the current value) and
 * the end at its end date (or at once when the end date already passed).
 */
export function advanceModel(m: Model, ms: number): void {
  const target = m.now + ms;
  for (const comp of m.comps) {
    if (comp.status !== 'active' || comp.startDate === null) continue;
    const last = comp.lastSnapshotAt ?? comp.startDate;
    const next = comp.startDate + (Math.floor((last - comp.startDate) / m.interval) + 1) * m.interval;
    if (comp.endDate !== null && comp.endDate <= target) {
      const at = Math.max(comp.endDate, m.now);
      const saved = m.now;
      m.now = at;
      endNow(m, comp);
      m.now = saved;
      continue;
    }
    if (next <= target) {
      snapshotAll(m, comp);
      comp.lastSnapshotAt = comp.startDate + Math.floor((target - comp.startDate) / m.interval) * m.interval;
    }
  }
  m.now = target;
}

/**
 * The expected ranking of a competition (agent ids, best first): pending -> active registrations
 * in order; ended -> the frozen board; active -> active agents with a snapshot by value.
 */
export function expectedBoard(m: Model, comp: MComp): string[] {
  if (comp.status === 'pending') return activeIds(comp);
  if (comp.status === 'ended') return comp.frozen ?? [];
  return rankedIds(m, comp, activeIds(comp).filter((id) => comp.latest.has(id)));
}

/** Score of an agent on the board (0 while pending). */
export function boardValue(comp: MComp, agentId: string): number {
  return comp.status === 'pending' ? 0 : comp.latest.get(agentId) ?? 0;
}
