// `compsim fork`'s derivation: from what the source answered to the forked competition (agents and their names, trades in order, starting rows, snapshot values, the window, the price tape) and what the source does not expose.
import { key as tokenKey } from '../adapters/prices/catalogue.js';
import type { InitialBalance } from '../domain/model.js';
import { initialTokenAddress, labelChain } from '../domain/trading/balances.js';
import { isSpecificChain } from '../domain/trading/prices.js';
import type { SpecificChain } from '../ports/prices.js';
import { createWorld } from '../world/world.js';
import { ForkSourceError } from './fork-fetch.js';
import { derivePrices, type DerivedPrices, type SourceTrade } from './fork-prices.js';
import type { Fetched } from './fork-read.js';

/** One agent of the fork: its id at the source, its name and handle there. */
export interface ForkAgent { id: string; name: string; handle?: string }

/** The forked competition, ready to be written. */
export interface ForkModel {
  agents: ForkAgent[];
  /** Unique display name of each agent id (a shared name gets the handle appended). */
  label: Map<string, string>;
  /** Trades in execution order, with each one's reason. */
  trades: SourceTrade[];
  reasons: string[];
  /** Starting balances as the source gave them (null when it does not expose them). */
  balances: InitialBalance[] | null;
  derived: DerivedPrices;
  start: number;
  end: number;
  /** The competition's end date at the source, when it has one. */
  endDate: number | undefined;
  intervalMs: number;
  /** Snapshot instants and timeline points read. */
  instants: number;
  points: number;
  status: string;
  notExposed: { field: string; instead: string }[];
  warnings: string[];
}

/** Longest agent name the API takes. */
const MAX_NAME = 100;
/** Most names a warning lists. */
const LISTED = 10;

const iso = (ms: number) => new Date(ms).toISOString();

/** An instant from an ISO text (or epoch ms), inside the Date range; undefined otherwise. */
function time(v: unknown): number | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const ms = typeof v === 'number' ? v : Date.parse(v);
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
}

/** `names`, at most {@link LISTED} of them, then how many more. */
function listed(names: readonly string[]): string {
  return names.length <= LISTED ? names.join(', ') : `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more`;
}

/** Unique display names of at most 100 characters: a name two agents share gets the handle (or id) appended, then a number if still shared. */
export function labels(agents: readonly ForkAgent[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const a of agents) count.set(a.name, (count.get(a.name) ?? 0) + 1);
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const a of agents) {
    const base = count.get(a.name)! > 1 ? `${a.name.slice(0, 70)} (@${(a.handle ?? a.id.slice(0, 8)).slice(0, 20)})` : a.name;
    let label = base;
    for (let n = 2; used.has(label); n++) label = `${base} #${n}`;
    used.add(label);
    out.set(a.id, label);
  }
  return out;
}

/** The participants, then anyone who traded but is not listed (names cut to the API's 100 characters). */
function agentsOf(f: Fetched, warnings: string[]): ForkAgent[] {
  const agents: ForkAgent[] = f.participants.map((p) => ({ id: p.id, name: p.name, ...(typeof p.handle === 'string' ? { handle: p.handle } : {}) }));
  const known = new Set(agents.map((a) => a.id));
  const added: string[] = [];
  for (const t of f.trades) {
    const id = String(t.agentId);
    if (known.has(id)) continue;
    known.add(id);
    const name = (t.agent as { name?: unknown } | null | undefined)?.name;
    agents.push({ id, name: typeof name === 'string' && name !== '' ? name.slice(0, MAX_NAME) : `agent ${id.slice(0, 8)}` });
    added.push(id);
  }
  if (added.length > 0) warnings.push(`${added.length} agents traded but are not in the participants list; added (${listed(added)})`);
  return agents;
}

/** Trades oldest first (the source lists the newer write first within one instant), with their reasons; trades without a time are left out. */
function tradesOf(f: Fetched, warnings: string[]): { trades: SourceTrade[]; reasons: string[] } {
  let raw = [...f.trades].reverse().map((t) => ({ t, ms: time(t.timestamp) ?? NaN }));
  // Each time parsed once; the reversed pages are usually in time order already, else a stable sort.
  if (raw.some((x, i) => i > 0 && raw[i - 1]!.ms > x.ms)) raw = raw.map((x, i) => ({ ...x, i })).sort((a, b) => a.ms - b.ms || a.i - b.i);
  const trades: SourceTrade[] = [];
  const reasons: string[] = [];
  const skipped: string[] = [];
  for (const { t, ms } of raw) {
    const st: SourceTrade = {
      id: String(t.id), agentId: String(t.agentId), timestamp: ms, fromToken: String(t.fromToken), toToken: String(t.toToken),
      fromAmount: Number(t.fromAmount), toAmount: Number(t.toAmount), tradeAmountUsd: Number(t.tradeAmountUsd),
      fromSpecificChain: typeof t.fromSpecificChain === 'string' ? t.fromSpecificChain : '', toSpecificChain: typeof t.toSpecificChain === 'string' ? t.toSpecificChain : '',
    };
    if (![st.timestamp, st.fromAmount, st.toAmount, st.tradeAmountUsd].every(Number.isFinite)) {
      skipped.push(st.id);
      continue;
    }
    trades.push(st);
    reasons.push(typeof t.reason === 'string' ? t.reason : '');
  }
  if (skipped.length > 0) warnings.push(`${skipped.length} trades lack a usable time or amount; left out (${listed(skipped)})`);
  return { trades, reasons };
}

/** Portfolio values by instant and agent: the timeline, and the participants' values at the end when the timeline stops short. */
function snapshotsOf(f: Fetched, ended: boolean, endDate: number | undefined, warnings: string[]): { snapshots: Map<number, Map<string, number>>; points: number } {
  const snapshots = new Map<number, Map<string, number>>();
  let points = 0;
  for (const a of f.timeline) {
    for (const p of a.timeline) {
      const t = time(p.timestamp ?? p.date);
      if (t === undefined || typeof p.totalValue !== 'number') continue;
      let m = snapshots.get(t);
      if (!m) snapshots.set(t, (m = new Map<string, number>()));
      m.set(a.agentId, p.totalValue);
      points++;
    }
  }
  if (ended && endDate !== undefined && !snapshots.has(endDate)) {
    const m = new Map<string, number>();
    for (const p of f.participants) if (p.active !== false && typeof p.portfolioValue === 'number') m.set(p.id, p.portfolioValue);
    if (m.size > 0) snapshots.set(endDate, m);
    warnings.push('the timeline has no point at the end date: the participants list gave the final values');
  }
  if (snapshots.size === 0) warnings.push('the source exposes no portfolio values (empty timeline): prices come from trades only');
  return { snapshots, points };
}

/** The snapshot interval: the smallest spacing of at least a second between snapshot instants (5 minutes without two). */
function intervalOf(instants: readonly number[]): number {
  let intervalMs = Infinity;
  for (let i = 1; i < instants.length; i++) {
    const d = instants[i]! - instants[i - 1]!;
    if (d >= 1000 && d < intervalMs) intervalMs = d;
  }
  return Number.isFinite(intervalMs) ? intervalMs : 300_000;
}

/** Every agent's starting rows, resolved as the server keeps them (address, pricing chain, amount to the cent). */
async function startRowsOf(balances: InitialBalance[] | null, warnings: string[]) {
  const world = await createWorld({});
  const deps = world.deps;
  const rows: { address: string; chain: string; amount: number }[] = [];
  for (const b of balances ?? deps.config.defaultInitialBalances) {
    const chain = b.specificChain as SpecificChain;
    const address = isSpecificChain(chain) ? initialTokenAddress(deps, chain, b.tokenSymbol) : undefined;
    if (address === undefined) {
      warnings.push(`starting balance ${JSON.stringify(b.tokenSymbol).slice(0, 40)} on ${JSON.stringify(b.specificChain).slice(0, 40)} is not in compsim's token catalogue; left out of the rebuilt holdings`);
      continue;
    }
    rows.push({ address, chain: labelChain(deps, address, chain), amount: Math.round(b.amount * 100) / 100 });
  }
  return { rows, deps };
}

/** Derives the forked competition from what was read. */
export async function deriveFork(f: Fetched): Promise<ForkModel> {
  const warnings = [...f.warnings];
  const notExposed = [...f.missing];
  const comp = f.competition;
  const status = typeof comp.status === 'string' ? comp.status : 'unknown';
  const agents = agentsOf(f, warnings);
  const label = labels(agents);
  const inactive = f.participants.filter((p) => p.active === false);
  if (inactive.length > 0) {
    warnings.push(`${inactive.length} participants are no longer active at the source (withdrawn or disqualified: ${listed(inactive.map((p) => label.get(p.id)!))}); the source ranks them last, a replay ranks them with the others`);
  }
  const { trades, reasons } = tradesOf(f, warnings);
  const balances = Array.isArray(comp.paperTradingInitialBalances) ? comp.paperTradingInitialBalances as InitialBalance[] : null;
  balances?.forEach((b, i) => {
    if (!(b.amount >= 0)) throw new ForkSourceError(`the competition's paperTradingInitialBalances[${i}].amount must be a number >= 0, got ${b.amount}`);
  });
  if (!balances) {
    notExposed.push({ field: 'competition.paperTradingInitialBalances', instead: "not written; replay and serve use compsim's default starting balances" });
    warnings.push('starting balances not exposed: the rebuilt holdings, and so the solved prices, assume the default list');
  }
  const { rows: startRows, deps } = await startRowsOf(balances, warnings);
  const startDate = time(comp.startDate);
  const endDate = time(comp.endDate);
  const ended = status === 'ended';
  const { snapshots, points } = snapshotsOf(f, ended, endDate, warnings);
  const instants = [...snapshots.keys()].sort((a, b) => a - b);
  const intervalMs = intervalOf(instants);
  notExposed.push({ field: 'the snapshot interval', instead: `derived from the timeline's spacing: ${intervalMs} ms` });
  const catalogue = deps.prices.catalogue();
  const derived = derivePrices({
    trades, startRows, agents: agents.map((a) => a.id), snapshots, ...(ended && endDate !== undefined ? { closingInstant: endDate } : {}),
    token: (address, chain) => {
      if (!isSpecificChain(chain)) return undefined;
      const tok = catalogue.find(address, chain);
      return tok ? { key: tokenKey(tok.address, chain), defaultPrice: deps.prices.price(tok.address, chain, deps.clock.now()), kind: tok.kind } : undefined;
    },
  });
  priceWarnings(derived, warnings);
  const { start, end } = windowOf({ startDate, endDate, ended, instants, intervalMs, firstTrade: trades[0]?.timestamp, lastTrade: derived.times[derived.times.length - 1] });
  if (!ended) warnings.push(`the competition is ${status.slice(0, 40)}: the fork holds it as of ${iso(end)}`);
  notExposed.push(...NOT_EXPOSED);
  return { agents, label, trades, reasons, balances, derived, start, end, endDate, intervalMs, instants: instants.length, points, status, notExposed, warnings };
}

function priceWarnings(derived: DerivedPrices, warnings: string[]): void {
  if (derived.unknownTokens.length > 0) warnings.push(`tokens unknown to compsim's catalogue (a replay refuses their trades): ${listed(derived.unknownTokens)}`);
  if (derived.stats.maxRelativeResidual > 1e-9) warnings.push(`the solved prices reproduce the recorded portfolio values only to ${derived.stats.maxRelativeResidual.toExponential(2)} (relative)`);
  if (derived.stats.skippedInstants > 0) warnings.push(`${derived.stats.skippedInstants} snapshot instants were not solved (too many agents and tokens to solve them all): their prices are interpolated from the trades`);
  if (derived.stats.movedTrades > 0) {
    warnings.push(`${derived.stats.movedTrades} trades run a few milliseconds after their recorded time in trades.csv: a trade of the same instant priced one of their tokens differently (slippage at the source), and a tape holds one price per instant`);
  }
}

/** The replay window: the start date (else the first trade or snapshot), the end date of an ended competition (else the last snapshot), after the last trade. */
function windowOf(w: { startDate?: number; endDate?: number; ended: boolean; instants: readonly number[]; intervalMs: number; firstTrade?: number; lastTrade?: number }): { start: number; end: number } {
  const start = w.startDate ?? Math.min(w.firstTrade ?? Infinity, w.instants[0] ?? Infinity);
  if (!Number.isFinite(start)) throw new ForkSourceError('the competition has no start date, no trades and no timeline: nothing to fork');
  let end = w.ended && w.endDate !== undefined ? w.endDate : w.instants[w.instants.length - 1] ?? (w.lastTrade ?? start) + w.intervalMs;
  if (w.lastTrade !== undefined && end <= w.lastTrade) end = w.lastTrade + w.intervalMs;
  if (end <= start) end = start + w.intervalMs;
  if (Math.abs(end) > 8.64e15) throw new ForkSourceError(`the competition's window ends past the dates compsim can hold (${w.endDate ?? w.lastTrade})`);
  return { start, end };
}

/** What no source exposes, and what the fork does instead. */
const NOT_EXPOSED = [
  { field: "the source's slippage model", instead: 'to-token prices at trades are the prices the trades got (market prices when the source ran without slippage); replay with --slippage none reproduces the recorded fills' },
  { field: 'per-token prices between trades', instead: 'solved at each snapshot instant from the recorded portfolio values and the rebuilt holdings; linear in between' },
  { field: 'refused trades', instead: 'not listed by the source; only executed trades are forked' },
  { field: 'agent wallet addresses and owners', instead: 'world.json gives each agent its own user with a wallet derived from the agent id' },
  { field: 'API keys and the seed', instead: 'world.json uses seed 1; serve prints the new keys' },
];
