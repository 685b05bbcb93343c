// A sweep's statistics: final standings per run, type-7 quantiles, Kendall's tau-b against the base ranking, and the per-agent and per-variant summaries.
import { variantAt, variantCount, type Variant, type Vary } from './sweep-input.js';

/** One agent's final place in one competition. */
export interface AgentStanding { agent: string; rank: number; value: number; pnl: number; pnlPercent: number | null }

/** A competition's final leaderboard, named as in the scenario (a repeated name gets ` (2)`, ...). */
export interface Standing { competition: string; agents: AgentStanding[] }

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

/** Tau statistics of one variant and competition, with every run's tau (sorted) for the distribution plot. */
export interface TauSummary { variant: Variant; competition: string; runs: number; median: number; q1: number; q3: number; min: number; max: number; mean: number; values: number[] }

const five = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), q1: quantile(s, 0.25), q3: quantile(s, 0.75), min: s[0] ?? NaN, max: s[s.length - 1] ?? NaN };
};

/** The competitions of a sweep, in order of first appearance (base first, then runs in order). */
function competitions(data: SweepData): string[] {
  const seen = new Set<string>();
  for (const r of [data.base, ...data.runs]) for (const s of r.standings) seen.add(s.competition);
  return [...seen];
}

/** The runs that ran to the end, grouped by variant (run order kept). */
function okRunsByVariant(data: SweepData): SweepRun[][] {
  const by: SweepRun[][] = Array.from({ length: variantCount(data.vary) }, () => []);
  for (const r of data.runs) if (r.ok && r.variant >= 0 && r.variant < by.length) by[r.variant]!.push(r);
  return by;
}

/** One agent's summary from its standings over the runs. */
function agentSummary(variant: Variant, competition: string, agent: string, list: readonly AgentStanding[], size: number, base: Standing | undefined): AgentSummary {
  const rankCounts = new Array<number>(size).fill(0);
  for (const a of list) if (a.rank >= 1 && a.rank <= size) rankCounts[a.rank - 1]! += 1;
  const pct = list.map((a) => a.pnlPercent).filter((x): x is number => x !== null);
  return {
    variant, competition, agent, runs: list.length, baseRank: base?.agents.find((a) => a.agent === agent)?.rank ?? null,
    rank: five(list.map((a) => a.rank)), pRank1: list.filter((a) => a.rank === 1).length / list.length,
    pTop3: list.filter((a) => a.rank <= 3).length / list.length, pnl: five(list.map((a) => a.pnl)),
    pnlPercentMedian: pct.length > 0 ? five(pct).median : null, rankCounts,
  };
}

/**
 * Per variant, competition and agent: the distribution of final rank and PnL over the runs that
 * ran to the end. Agents come sorted by median rank, then P(rank 1) (higher first), then name.
 */
export function summarise(data: SweepData): { agents: AgentSummary[]; taus: TauSummary[] } {
  const agents: AgentSummary[] = [];
  const taus: TauSummary[] = [];
  const comps = competitions(data);
  okRunsByVariant(data).forEach((runs, index) => {
    const variant = variantAt(data.vary, index);
    for (const competition of comps) {
      const base = data.base.standings.find((s) => s.competition === competition);
      const per = new Map<string, AgentStanding[]>();
      const tauList: number[] = [];
      let size = 0;
      for (const r of runs) {
        const st = r.standings.find((s) => s.competition === competition);
        if (!st) continue;
        size = Math.max(size, st.agents.length);
        for (const a of st.agents) {
          const list = per.get(a.agent);
          if (list) list.push(a);
          else per.set(a.agent, [a]);
        }
        const t = tauVsBase(st, base);
        if (t !== null) tauList.push(t);
      }
      const rows = [...per].map(([agent, list]) => agentSummary(variant, competition, agent, list, size, base));
      rows.sort((x, y) => x.rank.median - y.rank.median || y.pRank1 - x.pRank1 || x.rank.q3 - y.rank.q3 || (x.agent < y.agent ? -1 : x.agent > y.agent ? 1 : 0));
      for (const row of rows) agents.push(row);
      if (tauList.length > 0) {
        const f = five(tauList);
        taus.push({
          variant, competition, runs: tauList.length, median: f.median, q1: f.q1, q3: f.q3, min: f.min, max: f.max,
          mean: tauList.reduce((s, x) => s + x, 0) / tauList.length, values: [...tauList].sort((a, b) => a - b),
        });
      }
    }
  });
  return { agents, taus };
}

/** A fixed-decimals number for the tables ('' for null or NaN; never "-0"). */
export function fixed(x: number | null, digits: number): string {
  if (x === null || !Number.isFinite(x)) return '';
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

