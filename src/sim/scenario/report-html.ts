// Self-contained HTML report: per scenario its outcome, an inline SVG chart of portfolio values over virtual time, and the leaderboard.
import { usd, type CompetitionReport, type RunResult, type ValueSeries } from './report.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Colour of series `i` (golden-angle hues, so neighbours differ). */
export function seriesColour(i: number): string {
  return `hsl(${Math.round((i * 137.508) % 360)}, 65%, 42%)`;
}

const W = 760;
const H = 320;
const M = { left: 72, right: 16, top: 16, bottom: 40 };

function timeLabel(ms: number, spanMs: number): string {
  const iso = new Date(ms).toISOString();
  return spanMs > 3 * 86_400_000 ? iso.slice(0, 10) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** An SVG line chart of every agent's portfolio value over virtual time (empty string without data). */
export function valueChart(series: readonly ValueSeries[]): string {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return '';
  let [t0, t1] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
  let [v0, v1] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
  if (t1 === t0) t1 = t0 + 1;
  const pad = (v1 - v0) * 0.05 || Math.abs(v0) * 0.05 || 1;
  v0 -= pad;
  v1 += pad;
  const x = (t: number) => M.left + ((t - t0) / (t1 - t0)) * (W - M.left - M.right);
  const y = (v: number) => H - M.bottom - ((v - v0) / (v1 - v0)) * (H - M.top - M.bottom);
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="portfolio value over virtual time">`];
  parts.push(`<rect x="${M.left}" y="${M.top}" width="${W - M.left - M.right}" height="${H - M.top - M.bottom}" fill="#fafafa" stroke="#ccc"/>`);
  for (let i = 0; i <= 4; i++) {
    const v = v0 + ((v1 - v0) * i) / 4;
    const yy = y(v).toFixed(1);
    parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${yy}" y2="${yy}" stroke="#e4e4e4"/>`);
    parts.push(`<text x="${M.left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle" font-size="11">${esc(usd(v))}</text>`);
    const t = t0 + ((t1 - t0) * i) / 4;
    parts.push(`<text x="${x(t).toFixed(1)}" y="${H - M.bottom + 16}" text-anchor="middle" font-size="11">${esc(timeLabel(t, t1 - t0))}</text>`);
  }
  series.forEach((s, i) => {
    const pts = s.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    const colour = seriesColour(i);
    if (s.points.length === 1) parts.push(`<circle cx="${x(s.points[0]![0]).toFixed(1)}" cy="${y(s.points[0]![1]).toFixed(1)}" r="3" fill="${colour}"><title>${esc(s.agentName)}</title></circle>`);
    else parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${pts}"><title>${esc(s.agentName)}</title></polyline>`);
  });
  parts.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 6}" text-anchor="middle" font-size="11" fill="#555">virtual time (UTC)</text>`, '</svg>');
  return parts.join('');
}

function competitionSection(c: CompetitionReport): string {
  const legend = c.series.map((s, i) => `<li><span class="sw" style="background:${seriesColour(i)}"></span>${esc(s.agentName)}</li>`).join('');
  const rows = c.leaderboard.map((r) => `<tr><td>${r.rank}</td><td>${esc(r.agentName)}${r.active ? '' : ' <em>(inactive)</em>'}</td><td class="n">${usd(r.portfolioValue)}</td><td class="n">${r.pnlPercent === null ? '' : r.pnlPercent.toFixed(2)}</td></tr>`).join('');
  const chart = valueChart(c.series);
  return `<section class="comp"><h3>${esc(c.name)} <small>${esc(c.status)}</small></h3>
${chart ? `${chart}<ul class="legend">${legend}</ul>` : '<p>No portfolio snapshots.</p>'}
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
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:960px;color:#222;padding:0 1rem}
h2{margin-top:2rem;border-bottom:1px solid #ddd} .ok h2{color:#1a7f37} .bad h2{color:#c62828}
.meta{color:#666;font-size:12px} code{font-size:12px}
pre{background:#f6f8fa;padding:.6rem;overflow:auto;font-size:12px} .diff .del{color:#c62828} .diff .ins{color:#1a7f37}
table{border-collapse:collapse;margin:.5rem 0} td,th{border:1px solid #ddd;padding:2px 8px} td.n{text-align:right;font-variant-numeric:tabular-nums}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:12px} .sw{display:inline-block;width:10px;height:10px;margin-right:4px}
.fail{border-left:4px solid #c62828;padding-left:.8rem} small{color:#777;font-weight:normal}
</style></head><body>
<h1>compsim run</h1>
<p>Target <code>${esc(run.target)}</code>: ${run.summary.passed} of ${run.summary.scenarios} scenarios passed.</p>
${sections}
</body></html>
`;
}
