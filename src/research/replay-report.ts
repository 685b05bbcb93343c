// A replay's report, titled as a replay of its source under the source competition's name: the HTML page (portfolio values over time, final ranking) and the Markdown summary.
import { escapeHtml, legendTable, REPORT_CSS, valueChart } from '../harness/report-html.js';
import { thin, usd, type ValueSeries } from '../harness/report.js';
import type { ReplayOutcome, SnapshotRow } from './replay-outcome.js';
import type { ReplayPlan } from './replay-plan.js';

/** What a replay report shows. */
export interface ReplayReportData {
  /** Where the trades came from: a fork's source URL, or the trades file. */
  source: string;
  /** `replay`, or the counterfactual's label. */
  label: string;
  plan: ReplayPlan;
  outcome: ReplayOutcome;
  /** The outcome's hash. */
  hash: string;
  /** Every snapshot row, and the agent id of each of the plan's agents (by position). */
  snapshots: readonly SnapshotRow[];
  agentIds: readonly (string | undefined)[];
}

const esc = escapeHtml;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
const iso = (ms: number) => new Date(ms).toISOString();

/** The title: a replay of its source. */
export function replayTitle(d: ReplayReportData): string {
  return `compsim replay of ${d.source}`;
}

/** Each agent's portfolio values over time, thinned for the chart. */
function series(d: ReplayReportData): ValueSeries[] {
  const byId = new Map<string, [number, number][]>();
  for (const s of d.snapshots) {
    let pts = byId.get(s.agentId);
    if (!pts) byId.set(s.agentId, (pts = []));
    pts.push([s.timestamp, s.totalValue]);
  }
  return d.plan.agents.flatMap((name, i) => {
    const id = d.agentIds[i];
    const pts = id === undefined ? undefined : byId.get(id);
    return pts ? [{ agentId: id!, agentName: name, points: thin(pts.sort((a, b) => a[0] - b[0])) }] : [];
  });
}

function counts(d: ReplayReportData): string {
  const refused = d.outcome.trades.filter((t) => !t.accepted).length;
  const o = d.plan.options;
  return `${d.outcome.trades.length} trades (${d.outcome.trades.length - refused} accepted, ${refused} refused) by ${d.plan.agents.length} agents, `
    + `${iso(d.plan.start)} to ${iso(d.plan.end)}; ${o.rules} rules, slippage ${o.slippage}, seed ${String(o.seed)}`;
}

/** The report page (no scripts, no external files). */
export function renderReplayHtml(d: ReplayReportData): string {
  const s = series(d);
  const chart = valueChart(s);
  const rows = d.outcome.final.map((r) => `<tr><td>${r.rank}</td><td>${esc(r.agent)}</td><td class="n">${usd(r.value)}</td><td class="n">${usd(r.startValue)}</td><td class="n">${usd(r.pnl)}</td></tr>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(replayTitle(d))}</title>
<style>
${REPORT_CSS}
</style></head><body>
<h1>${esc(replayTitle(d))}</h1>
<h2>${esc(d.plan.name)} <small>(${esc(d.label)})</small></h2>
<p>${esc(counts(d))}.</p>
<p class="meta">outcome hash <code>${esc(d.hash)}</code></p>
${chart ? `${chart}${legendTable(s)}` : '<p>No portfolio snapshots.</p>'}
<table><thead><tr><th>rank</th><th>agent</th><th>final value</th><th>start</th><th>pnl</th></tr></thead><tbody>${rows}</tbody></table>
</body></html>
`;
}

/** The Markdown summary. */
export function renderReplayMarkdown(d: ReplayReportData): string {
  const out = [`# ${replayTitle(d)}`, '', `## ${d.plan.name} (${d.label})`, '', `${counts(d)}.`, '', `Outcome hash \`${d.hash}\`.`, ''];
  out.push('| rank | agent | final value | start | pnl |', '|---|---|---|---|---|');
  for (const r of d.outcome.final) out.push(`| ${r.rank} | ${cell(r.agent)} | ${usd(r.value)} | ${usd(r.startValue)} | ${usd(r.pnl)} |`);
  const refused = d.outcome.trades.filter((t) => !t.accepted);
  if (refused.length > 0) {
    out.push('', '### Refused trades', '');
    for (const t of refused.slice(0, 50)) out.push(`- ${iso(t.trade.timestamp)} ${cell(t.trade.agent)}: ${cell(t.error ?? '')}`);
    if (refused.length > 50) out.push(`- ... and ${refused.length - 50} more (trades.csv lists them)`);
  }
  return `${out.join('\n')}\n`;
}
