// Self-contained HTML report: per scenario its outcome, an inline SVG chart of portfolio values over virtual time, and the leaderboard.
import { usd, type CompetitionReport, type RunResult, type ValueSeries } from './report.js';

/** Text escaped for HTML element content and attribute values (every report page uses it). */
export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const esc = escapeHtml;

/** The style the run and replay report pages share: page, headings, tables, the chart's legend. */
export const REPORT_CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:960px;color:#222;padding:0 1rem}
h2{margin-top:2rem;border-bottom:1px solid #ddd} .meta{color:#666;font-size:12px} code{font-size:12px}
table{border-collapse:collapse;margin:.5rem 0} td,th{border:1px solid #ddd;padding:2px 8px} td.n{text-align:right;font-variant-numeric:tabular-nums}
.legend{font-size:12px} .sw{display:inline-block;width:10px;height:10px;margin-right:4px}`;

/** Colour of series `i` (golden-angle hues, so neighbours differ). */
export function seriesColour(i: number): string {
  return `hsl(${Math.round((i * 137.508) % 360)}, 65%, 42%)`;
}

const W = 760;
const H = 320;
const M = { left: 72, right: 16, top: 16, bottom: 40 };
/** How many series keep a colour; the rest are drawn grey underneath, so 20 agents do not merge into one band. */
export const HIGHLIGHTED = 5;
const GREY = '#bdbdbd';
const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;
/** Time-axis steps: whole minutes, hours and days, so labels read 10:15, 10:30, not 10:17. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1_440, 2_880, 10_080, 20_160, 43_200].map((m) => m * MINUTE);
/** Rough width of one 11px label character, to keep labels inside the drawing. */
const CHAR_PX = 6.5;

/** Tick values at a 1-2-5 step covering [lo, hi] with at most about `count` intervals; the first and last enclose the range. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (hi <= lo) [lo, hi] = [lo - (Math.abs(lo) * 0.05 || 1), hi + (Math.abs(hi) * 0.05 || 1)];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((f) => f * mag >= raw)! * mag;
  const first = Math.floor(lo / step);
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  // Integer multiples of the step, rounded, so 0.1 + 0.2 never shows as 0.30000000000000004.
  return Array.from({ length: Math.ceil(hi / step) - first + 1 }, (_, i) => Number(((first + i) * step).toFixed(digits)));
}

/** A tick's label: thousands separators, the step's decimals, compact (1.15T) from a million up. */
export function valueLabel(v: number, step: number): string {
  if (Math.max(Math.abs(v), step) >= 1e6) return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 }).format(v);
  const d = Math.max(0, -Math.floor(Math.log10(step)));
  return v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

/** Time ticks (epoch ms) at a whole-unit step inside [t0, t1], at most 6 of them. */
export function timeTicks(t0: number, t1: number): number[] {
  const span = t1 - t0;
  const last = TIME_STEPS[TIME_STEPS.length - 1]!;
  const step = TIME_STEPS.find((st) => span / st <= 6) ?? last * Math.ceil(span / (6 * last));
  const out: number[] = [];
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) out.push(t);
  return out;
}

function timeLabel(ms: number, stepMs: number): string {
  const iso = new Date(ms).toISOString();
  return stepMs >= DAY ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** A label at `x`, anchored so its estimated width stays inside the drawing. */
function label(x: number, y: number, text: string, cls: string, anchor: 'start' | 'middle' | 'end'): string {
  const w = text.length * CHAR_PX;
  let a = anchor;
  if (a === 'middle' && x - w / 2 < 0) a = 'start';
  if (a === 'middle' && x + w / 2 > W) a = 'end';
  const at = a === 'start' ? Math.max(0, x) : a === 'end' ? Math.min(W, x) : x;
  return `<text class="${cls}" x="${at.toFixed(1)}" y="${y}" text-anchor="${a}" dominant-baseline="middle" font-size="11">${esc(text)}</text>`;
}

/** Series indices by final value, highest first (ties by name): the order of the colours and the legend. */
function byFinalValue(series: readonly ValueSeries[]): number[] {
  const last = (s: ValueSeries) => s.points[s.points.length - 1]?.[1] ?? -Infinity;
  return series.map((_, i) => i).sort((a, b) => last(series[b]!) - last(series[a]!) || series[a]!.agentName.localeCompare(series[b]!.agentName));
}

/** Colour of the series at final-value position `place`: the top {@link HIGHLIGHTED} get hues, the rest grey. */
function placeColour(place: number): string {
  return place < HIGHLIGHTED ? seriesColour(place) : GREY;
}

/**
 * An SVG line chart of every agent's portfolio value over virtual time (empty string without
 * data): y ticks at 1-2-5 steps, time ticks at whole minutes, hours or days, every label inside the
 * drawing; the five highest final values in colour on top, the others grey. A lone time point gets
 * an hour around it.
 */
export function valueChart(series: readonly ValueSeries[]): string {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return '';
  let [t0, t1] = all.reduce(([lo, hi], p) => [Math.min(lo, p[0]), Math.max(hi, p[0])], [Infinity, -Infinity]);
  if (t1 - t0 < 60 * MINUTE) [t0, t1] = [(t0 + t1) / 2 - 30 * MINUTE, (t0 + t1) / 2 + 30 * MINUTE];
  const [lo, hi] = all.reduce(([a, b], p) => [Math.min(a, p[1]), Math.max(b, p[1])], [Infinity, -Infinity]);
  const yTicks = niceTicks(lo, hi);
  const [v0, v1] = [yTicks[0]!, yTicks[yTicks.length - 1]!];
  const yStep = yTicks.length > 1 ? yTicks[1]! - yTicks[0]! : 1;
  const x = (t: number) => M.left + ((t - t0) / (t1 - t0)) * (W - M.left - M.right);
  const y = (v: number) => H - M.bottom - ((v - v0) / (v1 - v0)) * (H - M.top - M.bottom);
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="portfolio value over virtual time">`];
  parts.push(`<rect x="${M.left}" y="${M.top}" width="${W - M.left - M.right}" height="${H - M.top - M.bottom}" fill="#fafafa" stroke="#ccc"/>`);
  for (const v of yTicks) {
    const yy = y(v).toFixed(1);
    parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${yy}" y2="${yy}" stroke="#e4e4e4"/>`, label(M.left - 6, Number(yy), valueLabel(v, yStep), 'tick-y', 'end'));
  }
  const tTicks = timeTicks(t0, t1);
  const tStep = tTicks.length > 1 ? tTicks[1]! - tTicks[0]! : t1 - t0;
  for (const t of tTicks) parts.push(label(x(t), H - M.bottom + 16, timeLabel(t, tStep), 'tick-x', 'middle'));
  // Grey series first, so the highlighted ones stay on top.
  const order = byFinalValue(series);
  for (let place = order.length - 1; place >= 0; place--) {
    const s = series[order[place]!]!;
    const colour = placeColour(place);
    const title = `<title>${esc(s.agentName)}</title>`;
    const cls = place < HIGHLIGHTED ? 'top' : 'rest';
    if (s.points.length === 1) parts.push(`<circle class="${cls}" cx="${x(s.points[0]![0]).toFixed(1)}" cy="${y(s.points[0]![1]).toFixed(1)}" r="3" fill="${colour}">${title}</circle>`);
    else {
      const pts = s.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      parts.push(`<polyline class="${cls}" fill="none" stroke="${colour}" stroke-width="${place < HIGHLIGHTED ? 2 : 1}" points="${pts}">${title}</polyline>`);
    }
  }
  parts.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 6}" text-anchor="middle" font-size="11" fill="#555">virtual time (UTC)</text>`, '</svg>');
  return parts.join('');
}

/** The chart's legend: one row per agent, highest final value first, with its colour. */
export function legendTable(series: readonly ValueSeries[]): string {
  const rows = byFinalValue(series).map((i, place) => {
    const s = series[i]!;
    const last = s.points[s.points.length - 1];
    return `<tr><td><span class="sw" style="background:${placeColour(place)}"></span>${esc(s.agentName)}</td><td class="n">${last ? usd(last[1]) : ''}</td></tr>`;
  }).join('');
  return `<table class="legend"><thead><tr><th>agent (by final value)</th><th>final value</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function competitionSection(c: CompetitionReport): string {
  const rows = c.leaderboard.map((r) => `<tr><td>${r.rank}</td><td>${esc(r.agentName)}${r.active ? '' : ' <em>(inactive)</em>'}</td><td class="n">${usd(r.portfolioValue)}</td><td class="n">${r.pnlPercent === null ? '' : r.pnlPercent.toFixed(2)}</td></tr>`).join('');
  const chart = valueChart(c.series);
  return `<section class="comp"><h3>${esc(c.name)} <small>${esc(c.status)}</small></h3>
${chart ? `${chart}${legendTable(c.series)}` : '<p>No portfolio snapshots.</p>'}
${rows ? `<table><thead><tr><th>rank</th><th>agent</th><th>portfolio value</th><th>pnl %</th></tr></thead><tbody>${rows}</tbody></table>` : ''}
</section>`;
}

/** The whole report page (no external resources). */
export function renderHtml(run: RunResult): string {
  const sections = run.scenarios.map((s) => {
    const f = s.failure;
    const failure = f ? `<div class="fail"><p><strong>Failed at ${esc(f.at)}</strong> (${esc(f.verb)}): ${esc(f.message)}</p>
${f.request ? `<pre>${esc(`${f.request.method} ${f.request.path}${f.request.as ? ` as ${f.request.as}` : ''}${f.request.body !== undefined ? `\n${JSON.stringify(f.request.body, null, 2)}` : ''}`)}</pre>` : ''}
${f.diff ? `<pre class="diff">${f.diff.map((l) => `<span class="${l.startsWith('-') ? 'del' : l.startsWith('+') ? 'ins' : ''}">${esc(l)}</span>`).join('\n')}</pre>` : ''}</div>` : '';
    const comps = (s.report?.competitions ?? []).map(competitionSection).join('\n');
    const problems = (s.report?.problems ?? []).map((p) => `<li>${esc(p)}</li>`).join('');
    return `<section class="scenario ${s.ok ? 'ok' : 'bad'}"><h2>${s.ok ? '✓' : '✗'} ${esc(s.name)}</h2>
${s.description ? `<p>${esc(s.description)}</p>` : ''}
<p class="meta">${esc(s.file)} · seed ${esc(String(s.seed))} · ${s.stepsPassed}/${s.steps} steps · ${s.requests} requests · log hash <code>${esc(s.hash)}</code></p>
${failure}${comps}${problems ? `<ul class="problems">${problems}</ul>` : ''}</section>`;
  }).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>compsim run</title>
<style>
${REPORT_CSS}
.ok h2{color:#1a7f37} .bad h2{color:#c62828}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;font-size:12px} .diff .del{color:#c62828} .diff .ins{color:#1a7f37}
.fail{border-left:4px solid #c62828;padding-left:.8rem} small{color:#777;font-weight:normal}
</style></head><body>
<h1>compsim run</h1>
<p>Target <code>${esc(run.target)}</code>: ${run.summary.passed} of ${run.summary.scenarios} scenarios passed.</p>
${sections}
</body></html>
`;
}
