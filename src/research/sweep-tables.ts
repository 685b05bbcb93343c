// A sweep's CSV tables: summary.csv, tau.csv, runs.csv and ranks.csv, pure functions of the run records.
import type { Json } from '../harness/types.js';
import { toCsv, type CsvCell } from './csv.js';
import { variantAt } from './sweep-input.js';
import { fixed, tauVsBase, type AgentSummary, type SweepData, type SweepRun, type TauSummary } from './sweep-stats.js';

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
  const header = ['variant', ...data.vary.map((v) => v.key), 'competition', 'runs', 'tau_median', 'tau_q1', 'tau_q3', 'tau_min', 'tau_max', 'tau_mean'];
  return toCsv(header, taus.map((t) => [t.variant.label, ...t.variant.values.map((v) => String(v)), t.competition, t.runs, fixed(t.median, 4), fixed(t.q1, 4), fixed(t.q3, 4), fixed(t.min, 4), fixed(t.max, 4), fixed(t.mean, 4)]));
}

/** `runs.csv`: one row per run (and competition), with its seed, outcome, log hash, winner and tau against the base ranking. */
export function runsCsv(data: SweepData): string {
  const header = ['run', 'variant', ...data.vary.map((v) => v.key), 'seed', 'ok', 'failure', 'steps_passed', 'steps', 'requests', 'log_sha256', 'competition', 'agents', 'winner', 'tau_vs_base'];
  const rows: CsvCell[][] = [];
  const line = (r: SweepRun, label: string, values: readonly Json[]) => {
    const head = [r.run, label, ...values.map((v) => String(v)), r.seed, r.ok, r.failure, r.stepsPassed, r.steps, r.requests, r.hash];
    if (r.standings.length === 0) rows.push([...head, '', 0, '', '']);
    for (const s of r.standings) {
      const base = data.base.standings.find((b) => b.competition === s.competition);
      rows.push([...head, s.competition, s.agents.length, s.agents[0]?.agent ?? '', fixed(tauVsBase(s, base), 4)]);
    }
  };
  line(data.base, 'base (as written)', data.vary.map(() => ''));
  for (const r of data.runs) {
    const v = variantAt(data.vary, r.variant);
    line(r, v.label, v.values);
  }
  return toCsv(header, rows);
}

/** `ranks.csv`: one row per run, competition and agent (the data behind every statistic). */
export function ranksCsv(data: SweepData): string {
  const header = ['run', 'variant', 'seed', 'competition', 'agent', 'rank', 'portfolio_value', 'pnl', 'pnl_percent'];
  const rows: CsvCell[][] = [];
  for (const r of [data.base, ...data.runs]) {
    const label = r === data.base ? 'base (as written)' : variantAt(data.vary, r.variant).label;
    for (const s of r.standings) {
      for (const a of s.agents) rows.push([r.run, label, r.seed, s.competition, a.agent, a.rank, a.value, a.pnl, a.pnlPercent]);
    }
  }
  return toCsv(header, rows);
}
