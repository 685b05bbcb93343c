// Sweeps: a scenario run over many seeds and varied world settings; variants, final standings read over HTTP, rank statistics, Kendall's tau, CSV tables.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../harness/log.js';
import { pages } from '../harness/report.js';
import { toCsv } from './replay.js';
import type { Target } from '../harness/targets.js';
import type { Json, ScenarioDoc } from '../harness/types.js';

/** A bad seed list or `--vary` setting (the CLI turns it into a usage error). */
export class SweepInputError extends Error {}

/** World settings a sweep can vary, with how each value is read and checked. */
export const VARY_KEYS: Record<string, { describe: string; parse: (v: string) => Json; needsRandomWalk?: boolean }> = {
  slippage: {
    describe: 'upstream, expected or none',
    parse: (v) => {
      if (!['upstream', 'expected', 'none'].includes(v)) throw new SweepInputError(`slippage must be upstream, expected or none, got '${v}'`);
      return v;
    },
  },
  'prices.volatility': {
    describe: 'the random walk\'s log-return standard deviation per step, > 0 and <= 1', needsRandomWalk: true,
    parse: (v) => number('prices.volatility', v, (x) => x > 0 && x <= 1, 'a number > 0 and <= 1'),
  },
  'prices.stepMs': {
    describe: 'the random walk\'s step length in ms, an integer >= 1', needsRandomWalk: true,
    parse: (v) => number('prices.stepMs', v, (x) => Number.isInteger(x) && x >= 1, 'an integer >= 1'),
  },
  maxTradePercentage: {
    describe: 'the largest trade as a percentage of the portfolio, 1-100',
    parse: (v) => number('maxTradePercentage', v, (x) => x >= 1 && x <= 100, 'a number from 1 to 100'),
  },
  snapshotIntervalMs: {
    describe: 'virtual ms between portfolio snapshots, an integer >= 1000',
    parse: (v) => number('snapshotIntervalMs', v, (x) => Number.isInteger(x) && x >= 1000, 'an integer >= 1000'),
  },
};

function number(key: string, v: string, ok: (x: number) => boolean, what: string): number {
  const x = /^-?(\d+(\.\d*)?|\.\d+)(e-?\d+)?$/i.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(x) || !ok(x)) throw new SweepInputError(`${key} must be ${what}, got '${v}'`);
  return x;
}

/** One varied setting: a key and the values it takes. */
export interface Vary { key: string; values: Json[] }

/** Parses `key=v1,v2,...`; an unknown key, a repeated value or a bad value is refused. */
export function parseVary(spec: string): Vary {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new SweepInputError(`--vary must be key=value1,value2,... , got '${spec}'`);
  const key = spec.slice(0, eq);
  const def = VARY_KEYS[key];
  if (!def) throw new SweepInputError(`--vary: unknown key '${key}' (known: ${Object.keys(VARY_KEYS).join(', ')})`);
  const raw = spec.slice(eq + 1).split(',');
  if (raw.some((r) => r === '')) throw new SweepInputError(`--vary ${key}: empty value in '${spec.slice(eq + 1)}'`);
  const values = raw.map((r) => def.parse(r));
  const seen = new Set(values.map((v) => String(v)));
  if (seen.size !== values.length) throw new SweepInputError(`--vary ${key}: a value is repeated in '${spec.slice(eq + 1)}'`);
  return { key, values };
}

/** Parses a seed list: `1..200`, `3,7,11`, or both (`1..10,50`); integers, each once, at most 100000. */
export function parseSeeds(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(',')) {
    const range = /^(-?\d+)\.\.(-?\d+)$/.exec(part);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      if (b < a) throw new SweepInputError(`--seeds: the range ${part} runs backwards`);
      if (b - a >= 100_000) throw new SweepInputError('--seeds: at most 100000 seeds');
      for (let s = a; s <= b; s++) out.push(s);
    } else if (/^-?\d+$/.test(part)) {
      out.push(Number(part));
    } else {
      throw new SweepInputError(`--seeds must be integers and ranges such as 1..200 or 1,5,9, got '${spec}'`);
    }
    if (out.length > 100_000) throw new SweepInputError('--seeds: at most 100000 seeds');
  }
  if (new Set(out).size !== out.length) throw new SweepInputError(`--seeds: a seed is listed twice in '${spec}'`);
  if (out.some((s) => !Number.isSafeInteger(s))) throw new SweepInputError(`--seeds: seeds must be safe integers, got '${spec}'`);
  return out;
}

/** One combination of varied values (in `--vary` order). */
export interface Variant { index: number; label: string; values: Json[] }

/** Every combination of the varied values, the first key varying slowest; one variant `base` without `--vary`. */
export function variants(vary: readonly Vary[]): Variant[] {
  let combos: Json[][] = [[]];
  for (const v of vary) combos = combos.flatMap((c) => v.values.map((x) => [...c, x]));
  return combos.map((values, index) => ({
    index, values, label: vary.length === 0 ? 'base' : vary.map((v, k) => `${v.key}=${String(values[k])}`).join(' '),
  }));
}

/** Refuses settings the scenario cannot take (a random-walk key on another price feed). */
export function checkVary(doc: ScenarioDoc, vary: readonly Vary[]): void {
  const kind = (doc.world?.prices as { kind?: unknown } | undefined)?.kind;
  for (const v of vary) {
    if (VARY_KEYS[v.key]!.needsRandomWalk && kind !== 'randomWalk') {
      throw new SweepInputError(`--vary ${v.key} needs a randomWalk price feed, and the scenario's world has ${kind === undefined ? 'none (constant prices)' : `a ${String(kind)} feed`}`);
    }
  }
}

/** The scenario document of one run: the seed replaced and each varied world setting set. */
export function variantDoc(doc: ScenarioDoc, seed: number | string, vary: readonly Vary[], values: readonly Json[]): ScenarioDoc {
  const world = { ...doc.world } as Record<string, Json>;
  vary.forEach((v, k) => {
    const path = v.key.split('.');
    if (path.length === 1) world[path[0]!] = values[k]!;
    else world[path[0]!] = { ...(world[path[0]!] as Record<string, Json>), [path[1]!]: values[k]! };
  });
  return { ...doc, seed, world: world as ScenarioDoc['world'] };
}

/** SHA-256 of a scenario document's canonical JSON (what a sweep's shards must agree on). */
export function docHash(doc: ScenarioDoc): string {
  return createHash('sha256').update(canonicalJson(doc)).digest('hex');
}

/** One agent's final place in one competition. */
export interface AgentStanding { agent: string; rank: number; value: number; pnl: number; pnlPercent: number | null }

/** A competition's final leaderboard, named as in the scenario (a repeated name gets ` (2)`, ...). */
export interface Standing { competition: string; agents: AgentStanding[] }

type Body = Record<string, unknown>;

/** Reads the final leaderboard of every active or ended competition (`GET /api/competitions/{id}/agents`, inactive agents included). */
export async function readStandings(target: Target, adminKey: string): Promise<Standing[]> {
  const out: Standing[] = [];
  const used = new Map<string, number>();
  for (const status of ['active', 'ended']) {
    const list = await pages(target, adminKey, '/api/competitions', 'competitions', { status });
    for (const c of list) {
      const rows = await pages(target, adminKey, `/api/competitions/${String(c.id)}/agents`, 'agents', { includeInactive: 'true' });
      const name = String(c.name);
      const n = (used.get(name) ?? 0) + 1;
      used.set(name, n);
      const names = new Map<string, number>();
      const agents = rows.map((a: Body) => {
        const base = String(a.name);
        const k = (names.get(base) ?? 0) + 1;
        names.set(base, k);
        return {
          agent: k === 1 ? base : `${base} (${k})`, rank: Number(a.rank), value: Number(a.portfolioValue),
          pnl: Number(a.pnl), pnlPercent: typeof a.pnlPercent === 'number' ? a.pnlPercent : null,
        };
      }).sort((x, y) => x.rank - y.rank || (x.agent < y.agent ? -1 : 1));
      out.push({ competition: n === 1 ? name : `${name} (${n})`, agents });
    }
  }
  return out;
}

/** One run of a sweep. */
export interface SweepRun {
  /** Position in the sweep: 0 the base run, then variants in order, seeds in order within each. */
  run: number;
  /** Index of the variant; -1 for the base run. */
  variant: number;
  seed: number | string;
  ok: boolean;
  /** Why the run stopped early ('' when it ran to the end). */
  failure: string;
  steps: number;
  stepsPassed: number;
  requests: number;
  hash: string;
  standings: Standing[];
}

/** Quantile `q` (0..1) of sorted `xs`, linear between the closest ranks (the usual "type 7"). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Kendall's tau-b between two rankings of the same items (`a[i]` and `b[i]` are item i's ranks;
 * ties allowed): 1 the same order, -1 reversed, 0 unrelated; null with fewer than two items or
 * when one side ranks every item alike.
 */
export function kendallTau(a: readonly number[], b: readonly number[]): number | null {
  const n = a.length;
  if (n !== b.length) throw new Error('kendallTau: rankings of different lengths');
  let concordant = 0;
  let discordant = 0;
  let tiesA = 0;
  let tiesB = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const da = Math.sign(a[i]! - a[j]!);
      const db = Math.sign(b[i]! - b[j]!);
      if (da === 0 && db === 0) continue;
      if (da === 0) tiesA++;
      else if (db === 0) tiesB++;
      else if (da === db) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + tiesA) * (concordant + discordant + tiesB));
  return denom === 0 ? null : (concordant - discordant) / denom;
}

/** Tau between a run's ranking of a competition and the base run's, over the agents both ranked. */
export function tauVsBase(run: Standing | undefined, base: Standing | undefined): number | null {
  if (!run || !base) return null;
  const baseRank = new Map(base.agents.map((a) => [a.agent, a.rank]));
  const common = run.agents.filter((a) => baseRank.has(a.agent));
  return kendallTau(common.map((a) => baseRank.get(a.agent)!), common.map((a) => a.rank));
}

/** Everything a sweep's outputs are made from. */
export interface SweepData {
  /** The scenario file or directory, as given. */
  source: string;
  docHash: string;
  seeds: number[];
  vary: Vary[];
  /** The scenario as written (its own seed and world): the base ranking. */
  base: SweepRun;
  runs: SweepRun[];
}

/** One agent's statistics under one variant in one competition. */
export interface AgentSummary {
  variant: Variant;
  competition: string;
  agent: string;
  runs: number;
  baseRank: number | null;
  rank: { median: number; q1: number; q3: number; min: number; max: number };
  pRank1: number;
  pTop3: number;
  pnl: { median: number; q1: number; q3: number; min: number; max: number };
  pnlPercentMedian: number | null;
  /** How often the agent finished at each rank (index 0: rank 1). */
  rankCounts: number[];
}

/** Tau statistics of one variant and competition. */
export interface TauSummary { variant: Variant; competition: string; runs: number; median: number; q1: number; q3: number; min: number; mean: number }

const five = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), q1: quantile(s, 0.25), q3: quantile(s, 0.75), min: s[0] ?? NaN, max: s[s.length - 1] ?? NaN };
};

/** The competitions of a sweep, in order of first appearance (base first, then runs in order). */
function competitions(data: SweepData): string[] {
  const out: string[] = [];
  for (const r of [data.base, ...data.runs]) for (const s of r.standings) if (!out.includes(s.competition)) out.push(s.competition);
  return out;
}

/**
 * Per variant, competition and agent: the distribution of final rank and PnL over the runs that
 * ran to the end. Agents come sorted by median rank, then P(rank 1) (higher first), then name.
 */
export function summarise(data: SweepData): { agents: AgentSummary[]; taus: TauSummary[] } {
  const agents: AgentSummary[] = [];
  const taus: TauSummary[] = [];
  for (const variant of variants(data.vary)) {
    const runs = data.runs.filter((r) => r.variant === variant.index && r.ok);
    for (const competition of competitions(data)) {
      const base = data.base.standings.find((s) => s.competition === competition);
      const per = new Map<string, AgentStanding[]>();
      const tauList: number[] = [];
      let size = 0;
      for (const r of runs) {
        const st = r.standings.find((s) => s.competition === competition);
        if (!st) continue;
        size = Math.max(size, st.agents.length);
        for (const a of st.agents) per.set(a.agent, [...(per.get(a.agent) ?? []), a]);
        const t = tauVsBase(st, base);
        if (t !== null) tauList.push(t);
      }
      const rows: AgentSummary[] = [...per].map(([agent, list]) => {
        const rankCounts = new Array<number>(size).fill(0);
        for (const a of list) if (a.rank >= 1 && a.rank <= size) rankCounts[a.rank - 1]! += 1;
        const pct = list.map((a) => a.pnlPercent).filter((x): x is number => x !== null);
        return {
          variant, competition, agent, runs: list.length, baseRank: base?.agents.find((a) => a.agent === agent)?.rank ?? null,
          rank: five(list.map((a) => a.rank)), pRank1: list.filter((a) => a.rank === 1).length / list.length,
          pTop3: list.filter((a) => a.rank <= 3).length / list.length, pnl: five(list.map((a) => a.pnl)),
          pnlPercentMedian: pct.length > 0 ? five(pct).median : null, rankCounts,
        };
      });
      rows.sort((x, y) => x.rank.median - y.rank.median || y.pRank1 - x.pRank1 || x.rank.q3 - y.rank.q3 || (x.agent < y.agent ? -1 : x.agent > y.agent ? 1 : 0));
      agents.push(...rows);
      if (tauList.length > 0) {
        const f = five(tauList);
        taus.push({ variant, competition, runs: tauList.length, median: f.median, q1: f.q1, q3: f.q3, min: f.min, mean: tauList.reduce((s, x) => s + x, 0) / tauList.length });
      }
    }
  }
  return { agents, taus };
}

/** A fixed-decimals number for the tables ('' for null or NaN; never "-0"). */
export function fixed(x: number | null, digits: number): string {
  if (x === null || !Number.isFinite(x)) return '';
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** `summary.csv`: one row per variant, competition and agent. */
export function summaryCsv(data: SweepData, agents: readonly AgentSummary[]): string {
  const header = ['variant', ...data.vary.map((v) => v.key), 'competition', 'agent', 'runs', 'base_rank', 'rank_median', 'rank_q1', 'rank_q3', 'rank_iqr', 'rank_min', 'rank_max', 'p_rank1', 'p_top3', 'pnl_median', 'pnl_q1', 'pnl_q3', 'pnl_iqr', 'pnl_percent_median'];
  return toCsv(header, agents.map((a) => [
    a.variant.label, ...a.variant.values.map((v) => String(v)), a.competition, a.agent, a.runs, a.baseRank,
    fixed(a.rank.median, 2), fixed(a.rank.q1, 2), fixed(a.rank.q3, 2), fixed(a.rank.q3 - a.rank.q1, 2), a.rank.min, a.rank.max,
    fixed(a.pRank1, 4), fixed(a.pTop3, 4), fixed(a.pnl.median, 2), fixed(a.pnl.q1, 2), fixed(a.pnl.q3, 2), fixed(a.pnl.q3 - a.pnl.q1, 2),
    fixed(a.pnlPercentMedian, 4),
  ]));
}

/** `tau.csv`: Kendall's tau against the base ranking, per variant and competition. */
export function tauCsv(data: SweepData, taus: readonly TauSummary[]): string {
  const header = ['variant', ...data.vary.map((v) => v.key), 'competition', 'runs', 'tau_median', 'tau_q1', 'tau_q3', 'tau_min', 'tau_mean'];
  return toCsv(header, taus.map((t) => [t.variant.label, ...t.variant.values.map((v) => String(v)), t.competition, t.runs, fixed(t.median, 4), fixed(t.q1, 4), fixed(t.q3, 4), fixed(t.min, 4), fixed(t.mean, 4)]));
}

/** `runs.csv`: one row per run (and competition), with its seed, outcome, log hash, winner and tau against the base ranking. */
export function runsCsv(data: SweepData): string {
  const vs = variants(data.vary);
  const header = ['run', 'variant', ...data.vary.map((v) => v.key), 'seed', 'ok', 'failure', 'steps_passed', 'steps', 'requests', 'log_sha256', 'competition', 'agents', 'winner', 'tau_vs_base'];
  const rows: (string | number | boolean | null)[][] = [];
  const line = (r: SweepRun, label: string, values: readonly Json[]) => {
    const head = [r.run, label, ...values.map((v) => String(v)), r.seed, r.ok, r.failure, r.stepsPassed, r.steps, r.requests, r.hash];
    if (r.standings.length === 0) rows.push([...head, '', 0, '', '']);
    for (const s of r.standings) {
      const base = data.base.standings.find((b) => b.competition === s.competition);
      rows.push([...head, s.competition, s.agents.length, s.agents[0]?.agent ?? '', fixed(tauVsBase(s, base), 4)]);
    }
  };
  line(data.base, 'base (as written)', data.vary.map(() => ''));
  for (const r of data.runs) line(r, vs[r.variant]!.label, vs[r.variant]!.values);
  return toCsv(header, rows);
}

/** `ranks.csv`: one row per run, competition and agent (the data behind every statistic). */
export function ranksCsv(data: SweepData): string {
  const vs = variants(data.vary);
  const header = ['run', 'variant', 'seed', 'competition', 'agent', 'rank', 'portfolio_value', 'pnl', 'pnl_percent'];
  const rows: (string | number | boolean | null)[][] = [];
  for (const r of [data.base, ...data.runs]) {
    for (const s of r.standings) {
      for (const a of s.agents) rows.push([r.run, r === data.base ? 'base (as written)' : vs[r.variant]!.label, r.seed, s.competition, a.agent, a.rank, a.value, a.pnl, a.pnlPercent]);
    }
  }
  return toCsv(header, rows);
}
