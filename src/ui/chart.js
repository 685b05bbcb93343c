// Portfolio-value chart: one uPlot line per agent over virtual time, from the competition timeline endpoint.
import uPlot from '/ui/vendor/uPlot.esm.js';

const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#db2777', '#0891b2', '#65a30d', '#4b5563', '#b45309'];
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Timeline series (`[{agentId, agentName, timeline: [{timestamp, totalValue}]}]`) -> uPlot's aligned columns (x in seconds). */
export function toColumns(series) {
  const xs = [...new Set(series.flatMap((s) => s.timeline.map((p) => Date.parse(p.timestamp) / 1000)))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const columns = series.map((s) => {
    const col = new Array(xs.length).fill(null);
    for (const p of s.timeline) col[index.get(Date.parse(p.timestamp) / 1000)] = p.totalValue;
    return col;
  });
  return [xs, ...columns];
}

/** Shortest x window (seconds): a lone snapshot sits in the middle of an hour, not of uPlot's default years. */
const MIN_WINDOW_S = 3600;

/** The x range shown for `min` to `max` (seconds), widened to at least an hour around them. */
export function xRange(min, max) {
  if (min == null || max == null) return [min, max];
  const pad = Math.max(0, MIN_WINDOW_S - (max - min)) / 2;
  return [min - pad, max + pad];
}

/** A chart bound to a container element; `update(series)` redraws it, keeping its size in step with the container. */
export class PortfolioChart {
  constructor(container, empty) {
    this.container = container;
    this.empty = empty;
    this.plot = null;
    this.key = '';
    new ResizeObserver(() => this.plot?.setSize(this.size())).observe(container);
  }

  size() {
    return { width: Math.max(240, this.container.clientWidth), height: 300 };
  }

  /** Draws `series`; recreated when the set of agents changes, otherwise only the data moves. */
  update(series) {
    const withData = series.filter((s) => s.timeline.length > 0);
    this.empty.hidden = withData.length > 0;
    this.container.dataset.points = String(withData.reduce((n, s) => n + s.timeline.length, 0));
    this.describe(withData);
    const key = withData.map((s) => s.agentId).join(',');
    const data = toColumns(withData);
    if (this.plot && key === this.key) {
      this.plot.setData(data);
      return;
    }
    this.plot?.destroy();
    this.plot = null;
    this.key = key;
    if (withData.length === 0) return;
    const opts = {
      ...this.size(),
      series: [
        { label: 'Virtual time', value: (_u, v) => (v == null ? '' : new Date(v * 1000).toISOString().replace('T', ' ').slice(0, 16)) },
        ...withData.map((s, i) => ({ label: s.agentName, stroke: COLORS[i % COLORS.length], width: 2, spanGaps: true, value: (_u, v) => (v == null ? '' : usd.format(v)) })),
      ],
      axes: [{}, { values: (_u, vals) => vals.map((v) => usd.format(v)), size: 80 }],
      // A lone time point: uPlot has already widened min/max to 1000 days, so centre an hour on the point itself.
      scales: { x: { time: true, range: (u, min, max) => (u.data[0].length === 1 ? xRange(u.data[0][0], u.data[0][0]) : xRange(min, max)) } },
      legend: { live: true },
      // The drawn window, for tests and curious readers (the canvas itself has no text to query).
      hooks: { setScale: [(u, key) => { if (key === 'x') Object.assign(this.container.dataset, { xMin: String(u.scales.x.min), xMax: String(u.scales.x.max) }); }] },
    };
    this.plot = new uPlot(opts, data, this.container);
  }

  /** A text alternative for screen readers: the latest value of each agent. */
  describe(series) {
    if (series.length === 0) {
      this.container.setAttribute('aria-label', 'No portfolio snapshots yet');
      return;
    }
    const latest = series.map((s) => `${s.agentName} ${usd.format(s.timeline[s.timeline.length - 1].totalValue)}`);
    this.container.setAttribute('aria-label', `Portfolio value of ${series.length} agents over virtual time; latest: ${latest.join(', ')}`);
  }
}
