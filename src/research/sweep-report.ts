// Self-contained HTML report of a sweep: the tau table and each variant's tau distribution (histograms), then per variant and competition rank and PnL box plots (inline SVG).
import { escapeHtml, niceTicks, valueLabel } from '../harness/report-html.js';
import { variants } from './sweep-input.js';
import { fixed, type AgentSummary, type SweepData, type TauSummary } from './sweep-stats.js';

const esc = escapeHtml;

const W = 760;
/** Row height per agent: one 11px label per row, so labels never touch. */
const ROW = 20;
const TOP = 24;
const BOTTOM = 34;
/** Agent names sit left of the plot, cut to what fits (full name in the row's tooltip). */
const LABEL_W = 170;
const CHAR_PX = 6.5;
const PLOT_L = LABEL_W + 12;
/** Right of the plot: the numeric columns (P(rank 1), P(top 3), or the median PnL). */
const PLOT_R = W - 150;

function cut(s: string, px: number): string {
  const max = Math.floor(px / CHAR_PX);
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** Ticks at least `minPx` apart on a scale of `px` pixels. */
function spaced(ticks: number[], toX: (v: number) => number, minPx: number): number[] {
  const out: number[] = [];
  for (const t of ticks) if (out.length === 0 || toX(t) - toX(out[out.length - 1]!) >= minPx) out.push(t);
  return out;
}

interface Box { min: number; q1: number; median: number; q3: number; max: number }

/**
 * Horizontal box plots, one row per agent in the given order: whiskers min..max, box q1..q3, a
 * line at the median, an optional diamond (the base run); `columns` are printed right of the plot.
 */
function boxChart(rows: readonly AgentSummary[], box: (a: AgentSummary) => Box, marker: (a: AgentSummary) => number | null,
  domain: [number, number], ticks: number[], tickLabel: (v: number) => string, axis: string, columns: { head: string; cell: (a: AgentSummary) => string }[]): string {
  const h = TOP + rows.length * ROW + BOTTOM;
  const [lo, hi] = domain;
  const x = (v: number) => PLOT_L + ((v - lo) / (hi - lo || 1)) * (PLOT_R - PLOT_L);
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" role="img" aria-label="${esc(axis)}">`];
  const bottom = TOP + rows.length * ROW;
  // Tick labels at least 56 px apart: wide enough for "-12,500" at 11px.
  for (const t of spaced(ticks.filter((v) => v >= lo && v <= hi), x, 56)) {
    out.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${TOP}" y2="${bottom}" class="grid"/>`);
    out.push(`<text x="${x(t).toFixed(1)}" y="${bottom + 14}" text-anchor="middle" class="tick">${esc(tickLabel(t))}</text>`);
  }
  out.push(`<text x="${((PLOT_L + PLOT_R) / 2).toFixed(1)}" y="${bottom + 29}" text-anchor="middle" class="axis">${esc(axis)}</text>`);
  columns.forEach((c, k) => out.push(`<text x="${PLOT_R + 40 + k * 62}" y="${TOP - 8}" text-anchor="end" class="head">${esc(c.head)}</text>`));
  rows.forEach((a, i) => {
    const y = TOP + i * ROW + ROW / 2;
    const b = box(a);
    out.push(`<g><title>${esc(`${a.agent}: median ${fixed(b.median, 2)}, IQR ${fixed(b.q1, 2)} to ${fixed(b.q3, 2)}, range ${fixed(b.min, 2)} to ${fixed(b.max, 2)}`)}</title>`);
    if (i % 2 === 0) out.push(`<rect x="0" y="${y - ROW / 2}" width="${W}" height="${ROW}" class="band"/>`);
    out.push(`<text x="${LABEL_W}" y="${y + 4}" text-anchor="end" class="name">${esc(cut(a.agent, LABEL_W))}</text>`);
    out.push(`<line x1="${x(b.min).toFixed(1)}" x2="${x(b.max).toFixed(1)}" y1="${y}" y2="${y}" class="whisker"/>`);
    out.push(`<rect x="${x(b.q1).toFixed(1)}" y="${y - 6}" width="${Math.max(1, x(b.q3) - x(b.q1)).toFixed(1)}" height="12" class="box"/>`);
    out.push(`<line x1="${x(b.median).toFixed(1)}" x2="${x(b.median).toFixed(1)}" y1="${y - 7}" y2="${y + 7}" class="median"/>`);
    const m = marker(a);
    if (m !== null) out.push(`<path d="M${x(m).toFixed(1)} ${y - 5}l4 5l-4 5l-4 -5z" class="base"/>`);
    columns.forEach((c, k) => out.push(`<text x="${PLOT_R + 40 + k * 62}" y="${y + 4}" text-anchor="end" class="num">${esc(c.cell(a))}</text>`));
    out.push('</g>');
  });
  out.push('</svg>');
  return out.join('');
}

function pct(p: number): string {
  return `${(p * 100).toFixed(1)} %`;
}

function rankChart(rows: readonly AgentSummary[]): string {
  const n = Math.max(...rows.map((a) => a.rank.max), rows.length, 2);
  const ticks = niceTicks(1, n, Math.min(n - 1, 10)).map((t) => Math.max(1, Math.round(t))).filter((t, i, all) => all.indexOf(t) === i);
  return boxChart(rows, (a) => a.rank, (a) => a.baseRank, [0.5, n + 0.5], ticks.includes(1) ? ticks : [1, ...ticks], (v) => String(v),
    'final rank (1 = best); ◆ the base run', [{ head: 'P(rank 1)', cell: (a) => pct(a.pRank1) }, { head: 'P(top 3)', cell: (a) => pct(a.pTop3) }]);
}

function pnlChart(rows: readonly AgentSummary[]): string {
  const lo = Math.min(0, ...rows.map((a) => a.pnl.min));
  const hi = Math.max(0, ...rows.map((a) => a.pnl.max));
  const ticks = niceTicks(lo, hi, 6);
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1;
  return boxChart(rows, (a) => a.pnl, () => null, [ticks[0]!, ticks[ticks.length - 1]!], ticks, (v) => valueLabel(v, step),
    'final PnL (USD)', [{ head: 'median', cell: (a) => valueLabel(a.pnl.median, 0.01) }]);
}

function tauTable(taus: readonly TauSummary[]): string {
  if (taus.length === 0) return '<p>No tau: fewer than two agents were ranked in both the base run and the runs.</p>';
  const rows = taus.map((t) => `<tr><td>${esc(t.variant.label)}</td><td>${esc(t.competition)}</td><td>${t.runs}</td><td>${fixed(t.median, 3)}</td><td>${fixed(t.q1, 3)} – ${fixed(t.q3, 3)}</td><td>${fixed(t.min, 3)}</td><td>${fixed(t.mean, 3)}</td></tr>`);
  return `<table><thead><tr><th>variant</th><th>competition</th><th>runs</th><th>median τ</th><th>IQR</th><th>min</th><th>mean</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Tau histogram: bins of 0.05 over [-1, 1] (the last bin holds 1), one row per variant and competition. */
const TAU_BINS = 40;
const TAU_ROW = 40;

/** Counts of `values` (each in [-1, 1]) per bin. */
export function tauHistogram(values: readonly number[]): number[] {
  const counts = new Array<number>(TAU_BINS).fill(0);
  // The small offset keeps a tau on a bin edge (0.1 read as 0.09999...) in the bin it starts.
  for (const t of values) counts[Math.max(0, Math.min(TAU_BINS - 1, Math.floor((t + 1) * (TAU_BINS / 2) + 1e-9)))]! += 1;
  return counts;
}

/**
 * The distribution of tau per variant and competition: a histogram row each on one shared axis
 * from -1 to 1, with the median marked, so a split distribution (some runs near the base order,
 * some near its reverse) shows as two humps where a median alone would hide it.
 */
function tauChart(taus: readonly TauSummary[]): string {
  const h = TOP + taus.length * TAU_ROW + BOTTOM;
  const x = (v: number) => PLOT_L + ((v + 1) / 2) * (PLOT_R - PLOT_L);
  const bottom = TOP + taus.length * TAU_ROW;
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" role="img" aria-label="distribution of Kendall's tau per variant">`];
  for (const t of [-1, -0.5, 0, 0.5, 1]) {
    out.push(`<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${TOP}" y2="${bottom}" class="grid"/>`);
    out.push(`<text x="${x(t).toFixed(1)}" y="${bottom + 14}" text-anchor="middle" class="tick">${t}</text>`);
  }
  out.push(`<text x="${((PLOT_L + PLOT_R) / 2).toFixed(1)}" y="${bottom + 29}" text-anchor="middle" class="axis">Kendall's τ against the base ranking (bins of 0.05); the dark line is the median</text>`);
  out.push(`<text x="${PLOT_R + 40}" y="${TOP - 8}" text-anchor="end" class="head">median</text><text x="${PLOT_R + 102}" y="${TOP - 8}" text-anchor="end" class="head">runs</text>`);
  taus.forEach((t, i) => {
    const top = TOP + i * TAU_ROW;
    const counts = tauHistogram(t.values);
    const most = Math.max(1, ...counts);
    const name = `${t.variant.label} · ${t.competition}`;
    out.push(`<g><title>${esc(`${name}: median ${fixed(t.median, 3)}, IQR ${fixed(t.q1, 3)} to ${fixed(t.q3, 3)}, range ${fixed(t.min, 3)} to ${fixed(t.max, 3)}, ${t.runs} runs`)}</title>`);
    if (i % 2 === 0) out.push(`<rect x="0" y="${top}" width="${W}" height="${TAU_ROW}" class="band"/>`);
    out.push(`<text x="${LABEL_W}" y="${top + TAU_ROW / 2 + 4}" text-anchor="end" class="name">${esc(cut(name, LABEL_W))}</text>`);
    counts.forEach((c, b) => {
      if (c === 0) return;
      const barH = (c / most) * (TAU_ROW - 8);
      const x0 = x(-1 + (b * 2) / TAU_BINS);
      const w = (PLOT_R - PLOT_L) / TAU_BINS;
      out.push(`<rect x="${(x0 + 0.5).toFixed(1)}" y="${(top + TAU_ROW - 4 - barH).toFixed(1)}" width="${(w - 1).toFixed(1)}" height="${barH.toFixed(1)}" class="hist"/>`);
    });
    out.push(`<line x1="${x(t.median).toFixed(1)}" x2="${x(t.median).toFixed(1)}" y1="${top + 3}" y2="${top + TAU_ROW - 3}" class="median"/>`);
    out.push(`<text x="${PLOT_R + 40}" y="${top + TAU_ROW / 2 + 4}" text-anchor="end" class="num">${fixed(t.median, 3)}</text>`);
    out.push(`<text x="${PLOT_R + 102}" y="${top + TAU_ROW / 2 + 4}" text-anchor="end" class="num">${t.runs}</text></g>`);
  });
  out.push('</svg>');
  return out.join('');
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:800px;color:#222}
h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-top:1px solid #ddd;padding-top:16px}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
svg{display:block;margin:8px 0}.grid{stroke:#e4e4e4}.tick,.num,.head,.axis,.name{font-size:11px;fill:#333}.head{font-weight:600}
.band{fill:#f6f6f6}.hist{fill:#6baed6}.whisker{stroke:#666}.box{fill:#9ecae1;stroke:#2b6a99}.median{stroke:#08306b;stroke-width:2}.base{fill:#d95f02}
code{background:#f3f3f3;padding:0 3px}`;

/** The report page: no scripts, no external files. */
export function renderSweepHtml(data: SweepData, agents: readonly AgentSummary[], taus: readonly TauSummary[]): string {
  const vs = variants(data.vary);
  const failed = data.runs.filter((r) => !r.ok).length;
  const out: string[] = [
    '<!doctype html>', '<html lang="en"><head><meta charset="utf-8"><title>compsim sweep</title>', `<style>${STYLE}</style></head><body>`,
    '<h1>compsim sweep</h1>',
    `<p>Source <code>${esc(data.source)}</code>; ${data.seeds.length} seed${data.seeds.length === 1 ? '' : 's'} (${esc(seedText(data.seeds))}) × ${vs.length} variant${vs.length === 1 ? '' : 's'} = ${data.runs.length} runs, ${failed} stopped early (left out of the statistics; see runs.csv). The base run is the scenario as written (seed <code>${esc(String(data.base.seed))}</code>).</p>`,
    '<h2>Ranking stability</h2>',
    "<p>Kendall's τ between each run's final ranking and the base run's: 1 the same order, 0 unrelated, −1 reversed.</p>",
    tauTable(taus),
    ...(taus.length > 0 ? ['<h3>Distribution of τ</h3>', '<p>How many runs reached each τ: a median hides a split, two humps do not.</p>', tauChart(taus)] : []),
  ];
  for (const v of vs) {
    const rowsOfVariant = agents.filter((a) => a.variant.index === v.index);
    const comps = [...new Set(rowsOfVariant.map((a) => a.competition))];
    out.push(`<h2>${esc(v.label)}</h2>`);
    if (comps.length === 0) out.push('<p>No run of this variant ranked any agent.</p>');
    for (const c of comps) {
      const rows = rowsOfVariant.filter((a) => a.competition === c);
      const runs = Math.max(...rows.map((a) => a.runs));
      out.push(`<h3>${esc(c)} — ${rows.length} agents, ${runs} runs</h3>`);
      out.push('<p>Agents sorted by median rank. Boxes span the middle half of the runs (interquartile range), whiskers the best and worst.</p>');
      out.push(rankChart(rows), pnlChart(rows));
    }
  }
  out.push('</body></html>', '');
  return out.join('\n');
}

/** `1..200` for a run of consecutive seeds, else the list. */
export function seedText(seeds: readonly number[]): string {
  if (seeds.length > 2 && seeds.every((s, i) => i === 0 || s === seeds[i - 1]! + 1)) return `${seeds[0]}..${seeds[seeds.length - 1]}`;
  return seeds.join(',');
}
