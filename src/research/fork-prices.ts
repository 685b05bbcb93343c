// `compsim fork`'s price tape: exact prices from each recorded trade, and at every snapshot instant the prices that make each agent's rebuilt holdings worth its recorded portfolio value.
import { interpolate } from '../adapters/prices/feeds.js';
import { addressFamily } from '../adapters/prices/catalogue.js';
import type { Tapes } from './replay-input.js';

/** One recorded trade as the source lists it (times in epoch ms). */
export interface SourceTrade {
  id: string; agentId: string; timestamp: number;
  fromToken: string; toToken: string; fromAmount: number; toAmount: number; tradeAmountUsd: number;
  fromSpecificChain: string; toSpecificChain: string;
}

/** A token as the local catalogue knows it (undefined: unknown there). */
export interface TokenFacts { key: string; defaultPrice: number | null; kind: string }

/** What the derivation reads. */
export interface PriceInputs {
  /** Trades in execution order (time ascending). */
  trades: readonly SourceTrade[];
  /** Every agent's starting rows (the competition's starting balances, resolved to addresses and chains). */
  startRows: readonly { address: string; chain: string; amount: number }[];
  /** Agent ids of every participant. */
  agents: readonly string[];
  /** Portfolio values by instant (ascending) and agent id. */
  snapshots: ReadonlyMap<number, ReadonlyMap<string, number>>;
  /** The instant whose snapshot was taken after that instant's trades (the end of an ended competition). */
  closingInstant?: number;
  /** The catalogue's view of `address` on `chain`. */
  token(address: string, chain: string): TokenFacts | undefined;
}

/** The derived tape and what it rests on. */
export interface DerivedPrices {
  tapes: Tapes;
  /** Each trade's replay time: its recorded time, or a few milliseconds later (see `movedTrades`). */
  times: number[];
  stats: {
    /** Tape points taken from trades (a from-token price and, when it received anything, a to-token price per trade). */
    tradePoints: number;
    /** Tape points solved from portfolio values at snapshot instants. */
    solvedPoints: number;
    /** Snapshot instants solved. */
    instants: number;
    /** (instant, token) pairs the values did not determine: they kept the previous price. */
    undetermined: number;
    /** Trades moved later (by a millisecond or a few) because a trade of their instant priced one of their tokens differently. */
    movedTrades: number;
    /** Solved prices below zero, set to 0. */
    negative: number;
    /** Largest |rebuilt value - recorded value| / recorded value over all agents and instants. */
    maxRelativeResidual: number;
    /** Instants not solved because the solve budget ran out (their prices kept their guesses). */
    skippedInstants: number;
  };
  /** Tokens (`chain:address`) whose price the values did not determine, with how many instants that happened. */
  undeterminedTokens: Record<string, number>;
  /** Tokens traded or held that the local catalogue does not know. */
  unknownTokens: string[];
}

/**
 * The from-token's price at a trade: `tradeAmountUsd / fromAmount`. The server computed
 * `tradeAmountUsd` as `fromAmount × price`, and that product of the quotient gives it back exactly.
 */
export function fromPrice(t: SourceTrade): number {
  return t.tradeAmountUsd / t.fromAmount;
}

/**
 * The to-token's price at a trade: `tradeAmountUsd / toAmount`, for which the server's
 * `tradeAmountUsd / price` gives back `toAmount`. Without slippage at the source this is the market
 * price; with slippage it is the effective price the trade got.
 */
export function toPrice(t: SourceTrade): number {
  return t.tradeAmountUsd / t.toAmount;
}

/** One balance row of an agent, as the server keeps it: the address, the chain it is priced on, the amount. */
interface Row { address: string; chain: string; amount: number }

/**
 * Least squares `A x = b` by Householder QR with column pivoting (columns with a higher `priority`
 * are taken first; within a priority the largest remaining norm). Columns the others already
 * determine (relative tolerance 1e-10) get x = 0. Returns x and which columns were determined.
 */
export function pivotedSolve(a: readonly (readonly number[])[], b: readonly number[], priority: readonly number[]): { x: number[]; determined: boolean[] } {
  const m = a.length;
  const n = priority.length;
  const cols = Array.from({ length: n }, (_, j) => Float64Array.from(a, (row) => row[j]!));
  const rhs = Float64Array.from(b);
  const perm = Array.from({ length: n }, (_, j) => j);
  const diag: number[] = [];
  let first = 0;
  let rank = 0;
  for (let k = 0; k < Math.min(m, n); k++) {
    // Among the columns with something left, the highest priority; if none has enough left, stop.
    let pick = -1;
    let pickNorm = 0;
    for (let j = k; j < n; j++) {
      let s = 0;
      const c = cols[j]!;
      for (let i = k; i < m; i++) s += c[i]! * c[i]!;
      if (Math.sqrt(s) <= (first === 0 ? 0 : first * 1e-10)) continue;
      if (pick < 0 || priority[perm[j]!]! > priority[perm[pick]!]! || (priority[perm[j]!]! === priority[perm[pick]!]! && s > pickNorm)) {
        pick = j;
        pickNorm = s;
      }
    }
    if (pick < 0) break;
    [cols[k], cols[pick]] = [cols[pick]!, cols[k]!];
    [perm[k], perm[pick]] = [perm[pick]!, perm[k]!];
    const alpha = Math.sqrt(pickNorm);
    if (k === 0) first = alpha;
    const c = cols[k]!;
    const r = c[k]! >= 0 ? -alpha : alpha;
    const v = Float64Array.from(c.subarray(k));
    v[0]! -= r;
    let vv = 0;
    for (let i = 0; i < v.length; i++) vv += v[i]! * v[i]!;
    const reflect = (y: Float64Array) => {
      if (vv === 0) return;
      let d = 0;
      for (let i = 0; i < v.length; i++) d += v[i]! * y[k + i]!;
      const w = (2 * d) / vv;
      for (let i = 0; i < v.length; i++) y[k + i]! -= w * v[i]!;
    };
    for (let j = k + 1; j < n; j++) reflect(cols[j]!);
    reflect(rhs);
    c[k] = vv === 0 ? c[k]! : r;
    for (let i = k + 1; i < m; i++) c[i] = 0;
    diag.push(c[k]!);
    rank++;
  }
  const xb = new Array<number>(rank).fill(0);
  for (let i = rank - 1; i >= 0; i--) {
    let s = rhs[i]!;
    for (let j = i + 1; j < rank; j++) s -= cols[j]![i]! * xb[j]!;
    xb[i] = s / diag[i]!;
  }
  const x = new Array<number>(n).fill(0);
  const determined = new Array<boolean>(n).fill(false);
  for (let i = 0; i < rank; i++) {
    x[perm[i]!] = xb[i]!;
    determined[perm[i]!] = true;
  }
  return { x, determined };
}

/** The catalogue's view of every token a derivation meets, and the ones it does not know. */
class Tokens {
  readonly unknown = new Set<string>();
  constructor(private readonly lookup: PriceInputs['token']) {}
  facts(address: string, chain: string): TokenFacts {
    const f = this.lookup(address, chain);
    if (f) return f;
    const k = `${chain}:${addressFamily(address)}`;
    this.unknown.add(k);
    return { key: k, defaultPrice: null, kind: 'unknown' };
  }
}

/** A trade's tokens and prices (undefined: no price, a burn or nothing received). */
interface Leg { from: TokenFacts; to: TokenFacts; fp: number | undefined; tp: number | undefined }

/** token -> instant -> price. */
type PriceMap = Map<string, Map<number, number>>;

/** Puts a price at an instant unless the instant has one (the first of an instant is kept). */
function put(m: PriceMap, k: string, t: number, p: number): void {
  let pts = m.get(k);
  if (!pts) m.set(k, (pts = new Map<number, number>()));
  if (!pts.has(t)) pts.set(t, p);
}

/** Market prices (from-tokens) and fill prices (to-tokens) at the recorded instants, as maps and as sorted points. */
function tradePrices(trades: readonly SourceTrade[], legs: readonly Leg[]) {
  const market: PriceMap = new Map();
  const fills: PriceMap = new Map();
  trades.forEach((t, i) => {
    const l = legs[i]!;
    if (l.fp !== undefined) put(market, l.from.key, t.timestamp, l.fp);
    if (l.tp !== undefined) put(fills, l.to.key, t.timestamp, l.tp);
  });
  const sorted = (m: PriceMap) => new Map([...m].map(([k, pts]) => [k, [...pts.entries()].sort((x, y) => x[0] - y[0])]));
  return { market, fills, marketSorted: sorted(market), fillsSorted: sorted(fills) };
}

/** Every agent's balance rows, rebuilt trade by trade as the server keeps them (by address, priced on the chain of the last credit). */
class Holdings {
  readonly rows = new Map<string, Map<string, Row>>();
  constructor(private readonly start: PriceInputs['startRows'], agents: readonly string[]) {
    for (const id of agents) this.rows.set(id, this.fresh());
  }
  private fresh(): Map<string, Row> {
    return new Map(this.start.map((r) => [addressFamily(r.address), { ...r }]));
  }
  apply(t: SourceTrade): void {
    let rows = this.rows.get(t.agentId);
    if (!rows) this.rows.set(t.agentId, (rows = this.fresh()));
    const from = rows.get(addressFamily(t.fromToken));
    if (from) from.amount = from.amount - t.fromAmount;
    else rows.set(addressFamily(t.fromToken), { address: t.fromToken, chain: t.fromSpecificChain, amount: -t.fromAmount });
    if (t.toAmount > 0) {
      const to = rows.get(addressFamily(t.toToken));
      if (to) {
        to.amount = to.amount + t.toAmount;
        to.chain = t.toSpecificChain;
      } else rows.set(addressFamily(t.toToken), { address: t.toToken, chain: t.toSpecificChain, amount: t.toAmount });
    }
  }
}

/**
 * Floating-point work (agents x tokens x min of both per instant) a derivation spends on solving;
 * past it the remaining instants keep their guesses (a source with thousands of agents and tokens
 * cannot stall a fork).
 */
export const SOLVE_BUDGET = 5e9;

/** The running state of the solve over the snapshot instants. */
interface Solving {
  tokens: Tokens; prices: ReturnType<typeof tradePrices>; tape: PriceMap; last: Map<string, number>;
  undeterminedTokens: Map<string, number>;
  stats: { solvedPoints: number; undetermined: number; negative: number; maxRel: number; work: number; skipped: number };
}

/** The held tokens of `agents` (first-seen order) and each agent's amount of each. */
function heldTokens(s: Solving, holdings: Holdings, agents: readonly string[]): { tokens: TokenFacts[]; amounts: Map<number, number>[] } {
  const index = new Map<string, number>();
  const tokens: TokenFacts[] = [];
  const amounts: Map<number, number>[] = agents.map(() => new Map<number, number>());
  agents.forEach((id, a) => {
    for (const r of holdings.rows.get(id)!.values()) {
      if (r.amount === 0) continue;
      const f = s.tokens.facts(r.address, r.chain);
      if (f.kind === 'burn' || f.defaultPrice === 0) continue;
      let j = index.get(f.key);
      if (j === undefined) {
        index.set(f.key, (j = tokens.length));
        tokens.push(f);
      }
      amounts[a]!.set(j, (amounts[a]!.get(j) ?? 0) + r.amount);
    }
  });
  return { tokens, amounts };
}

/** Solves the prices at instant `T` so that the holdings are worth `values`, and puts the solved ones on the tape. */
function solveInstant(s: Solving, holdings: Holdings, T: number, values: ReadonlyMap<string, number>, closing: boolean): void {
  const agents = [...values.keys()].filter((id) => holdings.rows.has(id));
  const { tokens, amounts } = heldTokens(s, holdings, agents);
  const { market, fills, marketSorted, fillsSorted } = s.prices;
  // Known prices at T (market prices of trades at T; at the closing instant, whose trades came
  // before the snapshot, their fill prices too), and the starting guess of the others.
  const fixed = tokens.map((f) => market.get(f.key)?.get(T) ?? (closing ? fills.get(f.key)?.get(T) : undefined));
  const guess = tokens.map((f, j) => fixed[j] ?? s.last.get(f.key) ?? interpolate(marketSorted.get(f.key) ?? [], T) ?? interpolate(fillsSorted.get(f.key) ?? [], T) ?? f.defaultPrice ?? 1);
  const free = tokens.map((_, j) => j).filter((j) => fixed[j] === undefined);
  const work = agents.length * free.length * Math.min(agents.length, free.length);
  const solve = free.length > 0 && s.stats.work + work <= SOLVE_BUDGET;
  if (free.length > 0 && !solve) s.stats.skipped++;
  s.stats.work += solve ? work : 0;
  const scale = free.map((j) => (guess[j]! > 0 ? guess[j]! : 1));
  const rows = agents.map((_, a) => free.map((j, c) => (amounts[a]!.get(j) ?? 0) * scale[c]!));
  const residual = agents.map((id, a) => {
    let v = values.get(id)!;
    for (const [j, amt] of amounts[a]!) v -= amt * guess[j]!;
    return v;
  });
  const { x, determined } = solve ? pivotedSolve(rows, residual, free.map((j) => (tokens[j]!.kind === 'stable' ? 0 : 1))) : { x: free.map(() => 0), determined: free.map(() => false) };
  const price = [...guess];
  free.forEach((j, c) => {
    let p = guess[j]! + scale[c]! * x[c]!;
    if (p < 0) {
      s.stats.negative++;
      p = 0;
    }
    price[j] = p;
    if (!determined[c]) {
      s.stats.undetermined++;
      s.undeterminedTokens.set(tokens[j]!.key, (s.undeterminedTokens.get(tokens[j]!.key) ?? 0) + 1);
    }
  });
  agents.forEach((id, a) => {
    let v = 0;
    for (const [j, amt] of amounts[a]!) v += amt * price[j]!;
    const want = values.get(id)!;
    const rel = Math.abs(v - want) / Math.max(Math.abs(want), 1e-300);
    if (rel > s.stats.maxRel) s.stats.maxRel = rel;
  });
  tokens.forEach((f, j) => {
    s.last.set(f.key, price[j]!);
    if (fixed[j] !== undefined) return;
    put(s.tape, f.key, T, price[j]!);
    s.stats.solvedPoints++;
  });
}

/** The trades onto the tape, each at the first instant (from its recorded one, after the previous trade's) where its prices fit. */
function placeTrades(trades: readonly SourceTrade[], legs: readonly Leg[], tape: PriceMap): { times: number[]; moved: number; tradePoints: number } {
  const same = (x: number, y: number) => Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y));
  const clash = (k: string, p: number | undefined, t: number) => {
    const prev = p === undefined ? undefined : tape.get(k)?.get(t);
    return prev !== undefined && !same(prev, p!);
  };
  const times: number[] = [];
  let moved = 0;
  let tradePoints = 0;
  let previous = -Infinity;
  trades.forEach((t, i) => {
    const { from, to, fp, tp } = legs[i]!;
    let when = Math.max(t.timestamp, previous);
    while (clash(from.key, fp, when) || clash(to.key, tp, when)) when++;
    if (when !== t.timestamp) moved++;
    for (const [k, p] of [[from.key, fp], [to.key, tp]] as const) {
      if (p === undefined || tape.get(k)?.has(when)) continue;
      put(tape, k, when, p);
      tradePoints++;
    }
    times.push(when);
    previous = when;
  });
  return { times, moved, tradePoints };
}

/**
 * Derives the price tape.
 *
 * - A trade's from-token price (see {@link fromPrice}) is the market price at its instant, whatever
 *   the source's slippage; its to-token price ({@link toPrice}) is the price the fill got.
 * - At every snapshot instant the agents' holdings are rebuilt from the starting rows and the trades
 *   before it (as the server keeps them: rows by address, priced on the chain of the last credit),
 *   and the prices of the held tokens are solved so that the holdings are worth the recorded
 *   portfolio values; from-token prices of trades at that instant are taken as known. Prices the
 *   values cannot tell apart (every agent holding the same amounts of two tokens, say) keep their
 *   previous value; stablecoins are the last to be solved, so a shared drift lands on the volatile
 *   token. Past {@link SOLVE_BUDGET} the remaining instants keep their guesses (`skippedInstants`).
 * - The tape holds one price per token and instant. A trade whose price differs from one already
 *   on the tape at its instant (a snapshot's, or another trade's: slippage gives two buys of one
 *   token in one millisecond two prices) runs a millisecond later, and every later trade keeps its
 *   place after it.
 */
export function derivePrices(input: PriceInputs): DerivedPrices {
  const tokens = new Tokens(input.token);
  const legs: Leg[] = input.trades.map((t) => {
    const from = tokens.facts(t.fromToken, t.fromSpecificChain);
    const to = tokens.facts(t.toToken, t.toSpecificChain);
    return { from, to, fp: t.fromAmount > 0 && from.kind !== 'burn' ? fromPrice(t) : undefined, tp: t.toAmount > 0 && to.kind !== 'burn' ? toPrice(t) : undefined };
  });
  const s: Solving = {
    tokens, prices: tradePrices(input.trades, legs), tape: new Map(), last: new Map(), undeterminedTokens: new Map(),
    stats: { solvedPoints: 0, undetermined: 0, negative: 0, maxRel: 0, work: 0, skipped: 0 },
  };
  const holdings = new Holdings(input.startRows, input.agents);
  let next = 0;
  const instants = [...input.snapshots.keys()].sort((x, y) => x - y);
  for (const T of instants) {
    const closing = T === input.closingInstant;
    while (next < input.trades.length && (input.trades[next]!.timestamp < T || (closing && input.trades[next]!.timestamp <= T))) holdings.apply(input.trades[next++]!);
    solveInstant(s, holdings, T, input.snapshots.get(T)!, closing);
  }
  const { times, moved, tradePoints } = placeTrades(input.trades, legs, s.tape);
  const tapes: Tapes = {};
  for (const k of [...s.tape.keys()].sort()) {
    if (tokens.unknown.has(k)) continue;
    tapes[k] = [...s.tape.get(k)!.entries()].sort((x, y) => x[0] - y[0]);
  }
  const st = s.stats;
  return {
    tapes,
    times,
    stats: {
      tradePoints, solvedPoints: st.solvedPoints, instants: instants.length, undetermined: st.undetermined, movedTrades: moved, negative: st.negative,
      maxRelativeResidual: st.maxRel, skippedInstants: st.skipped,
    },
    undeterminedTokens: Object.fromEntries([...s.undeterminedTokens].sort((x, y) => (x[0] < y[0] ? -1 : 1))),
    unknownTokens: [...tokens.unknown].sort(),
  };
}
