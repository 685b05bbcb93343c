// Risk-adjusted rankings from equity snapshots: Calmar and Sortino for perps, simple return (ROI) for spot-live (reference features §3.6, §4).
import type { ReadTx } from '../../ports/store.js';
import type { Competition, PortfolioSnapshot } from '../model.js';
import type { Tables } from '../tables.js';

/** Floor of the drawdown and downside-deviation divisors (upstream's 0.0001). */
export const RATIO_FLOOR = 0.0001;

/** Risk metrics of one equity series (oldest first). `annualizedReturn` is upstream's raw period return. */
export interface RiskMetrics {
  simpleReturn: number; annualizedReturn: number; maxDrawdown: number; calmarRatio: number;
  sortinoRatio: number; downsideDeviation: number;
}

/**
 * Upstream's formulas: simpleReturn = (last - first) / first; maxDrawdown = min over the series of
 * (value - running peak) / running peak (<= 0); calmar = simpleReturn / max(|maxDrawdown|, 0.0001);
 * per-step returns r = v_t / v_(t-1) - 1, downside deviation = sqrt(mean(min(r, 0)^2)),
 * sortino = mean(r) / (downside deviation, or 0.0001 when 0). Null with fewer than two values or a
 * first value <= 0 (no metrics yet).
 */
export function riskMetrics(values: readonly number[]): RiskMetrics | null {
  return values.length < 2 ? null : riskMetricsSeries(values)[values.length - 1]!;
}

/**
 * The {@link riskMetrics} of every prefix of a series: element i holds the metrics of
 * `values[0..i]`, as upstream stores them after each sync (its risk-metrics time series). One pass:
 * the running sums add in the same order as a fresh computation, so element i equals
 * `riskMetrics(values.slice(0, i + 1))` exactly.
 */
export function riskMetricsSeries(values: readonly number[]): (RiskMetrics | null)[] {
  const out: (RiskMetrics | null)[] = [];
  const first = values[0];
  if (first === undefined || !(first > 0)) return values.map(() => null);
  let peak = first;
  let maxDrawdown = 0;
  let stepSum = 0;
  let downsideSum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    peak = Math.max(peak, v);
    if (peak > 0) maxDrawdown = Math.min(maxDrawdown, (v - peak) / peak);
    if (i === 0) {
      out.push(null);
      continue;
    }
    const prev = values[i - 1]!;
    const r = prev > 0 ? v / prev - 1 : 0;
    stepSum += r;
    downsideSum += Math.min(r, 0) ** 2;
    const simpleReturn = (v - first) / first;
    const downsideDeviation = Math.sqrt(downsideSum / i);
    out.push({
      simpleReturn, annualizedReturn: simpleReturn, maxDrawdown,
      calmarRatio: simpleReturn / Math.max(Math.abs(maxDrawdown), RATIO_FLOOR),
      sortinoRatio: stepSum / i / (downsideDeviation === 0 ? RATIO_FLOOR : downsideDeviation), downsideDeviation,
    });
  }
  return out;
}

/** True for competition types ranked by a metric rather than by value. */
export function isMetricRanked(comp: Competition): boolean {
  return comp.type === 'perpetual_futures' || comp.type === 'spot_live_trading';
}

/** Snapshots oldest first (timestamp, then storage order). */
function chronological(snaps: readonly PortfolioSnapshot[]): PortfolioSnapshot[] {
  return [...snaps].sort((a, b) => a.timestamp - b.timestamp);
}

/** One ranked agent: latest snapshot value, the ranking metric (null = none yet) and the risk metrics. */
export interface MetricRanked { agentId: string; value: number; metric: number | null; risk: RiskMetrics | null }

/** The series metrics of one agent in a competition (null without two snapshots). */
export function agentRiskMetrics(tx: ReadTx<Tables>, competitionId: string, agentId: string): RiskMetrics | null {
  return riskMetrics(chronological(tx.find('snapshots', 'agentCompetition', `${agentId}:${competitionId}`)).map((s) => s.totalValue));
}

/**
 * Live ranking of a metric-ranked competition over `agentIds` (agents without a snapshot are
 * absent): perps by Calmar ratio, spot-live by simple return (0 when the first value is <= 0),
 * descending with missing metrics last, ties by latest value descending, then registration order.
 */
export function metricRanking(tx: ReadTx<Tables>, comp: Competition, agentIds: readonly string[]): MetricRanked[] {
  const rows: MetricRanked[] = [];
  for (const agentId of agentIds) {
    const snaps = chronological(tx.find('snapshots', 'agentCompetition', `${agentId}:${comp.id}`));
    if (snaps.length === 0) continue;
    const values = snaps.map((s) => s.totalValue);
    const risk = riskMetrics(values);
    const first = values[0]!;
    const metric = comp.type === 'perpetual_futures' ? risk?.calmarRatio ?? null : first > 0 ? (values[values.length - 1]! - first) / first : 0;
    rows.push({ agentId, value: values[values.length - 1]!, metric, risk });
  }
  return rows.sort((a, b) => {
    if (a.metric !== b.metric) {
      if (a.metric === null) return 1;
      if (b.metric === null) return -1;
      return b.metric - a.metric;
    }
    return b.value - a.value;
  });
}

/**
 * Final order of a metric-ranked competition's leaderboard rows (built from snapshots by the end
 * transaction): the live ranking, each row's score becoming the metric (upstream stores Calmar for
 * perps, simple return for spot-live; equity when an agent has no metric yet).
 */
export function finalMetricRows<R extends { agentId: string; score: number }>(tx: ReadTx<Tables>, comp: Competition, rows: readonly R[]): R[] {
  const order = metricRanking(tx, comp, rows.map((r) => r.agentId));
  const byId = new Map(rows.map((r) => [r.agentId, r]));
  return order.map((o) => ({ ...byId.get(o.agentId)!, score: o.metric ?? o.value }));
}
