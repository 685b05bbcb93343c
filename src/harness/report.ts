// Run reports: competition data read over HTTP after each scenario, the JSON result and the Markdown summary.
import type { ScenarioResult } from './runner.js';
import type { Target, TargetResponse } from './targets.js';

/** One agent's portfolio value over virtual time. */
export interface ValueSeries { agentId: string; agentName: string; points: [number, number][] }

/** One final leaderboard row. */
export interface LeaderboardRow { rank: number; agentId: string; agentName: string; portfolioValue: number; pnlPercent: number | null; active: boolean }

/** What a report shows of one competition. */
export interface CompetitionReport {
  id: string;
  name: string;
  status: string;
  series: ValueSeries[];
  leaderboard: LeaderboardRow[];
}

/** Report data of one scenario (read after its steps, not part of the response log). */
export interface ScenarioReport {
  competitions: CompetitionReport[];
  /** Reads that failed (the report leaves those parts out). */
  problems: string[];
}

/** The JSON result of a run (`--json`, `result.json`). */
export interface RunResult {
  format: 'compsim-run';
  version: 1;
  target: string;
  ok: boolean;
  summary: { scenarios: number; passed: number; failed: number };
  scenarios: (Omit<ScenarioResult, 'log'> & { report?: ScenarioReport })[];
}

type Body = Record<string, unknown>;

const PAGE = 100;

async function get(target: Target, adminKey: string, path: string, query: Record<string, string>): Promise<TargetResponse> {
  return target.send({ method: 'GET', path, query, headers: { authorization: `Bearer ${adminKey}` } });
}

/** All pages of a paginated list (`pagination.hasMore` or a short page ends it), read with the admin key. */
export async function pages(target: Target, adminKey: string, path: string, field: string, query: Record<string, string>): Promise<Body[]> {
  const out: Body[] = [];
  for (let offset = 0; offset < 100_000; offset += PAGE) {
    const res = await get(target, adminKey, path, { ...query, limit: String(PAGE), offset: String(offset) });
    const body = res.body as Body | undefined;
    const rows = body?.[field];
    if (res.status !== 200 || !Array.isArray(rows)) throw new Error(`GET ${path} answered ${res.status}`);
    out.push(...(rows as Body[]));
    const more = (body?.pagination as { hasMore?: unknown } | undefined)?.hasMore;
    if (rows.length < PAGE || more === false) break;
  }
  return out;
}

/** Thins a series to at most `max` points (always keeping the last one) so charts stay small. */
export function thin(points: [number, number][], max = 600): [number, number][] {
  if (points.length <= max) return points;
  const step = points.length / max;
  const out: [number, number][] = [];
  for (let i = 0; i < max; i++) out.push(points[Math.floor(i * step)]!);
  out[out.length - 1] = points[points.length - 1]!;
  return out;
}

/** Options of {@link collectReport}. */
export interface CollectOptions {
  /** Receives each competition's snapshot list as read (before it is thinned for the chart). */
  onSnapshots?: (competition: { id: string; name: string }, snapshots: readonly Body[]) => void;
}

async function competitionReport(target: Target, adminKey: string, c: Body, problems: string[], options: CollectOptions): Promise<CompetitionReport> {
  const id = String(c.id);
  const rep: CompetitionReport = { id, name: String(c.name), status: String(c.status), series: [], leaderboard: [] };
  const names = new Map<string, string>();
  try {
    const agents = await pages(target, adminKey, `/api/competitions/${id}/agents`, 'agents', { includeInactive: 'true' });
    for (const a of agents) names.set(String(a.id), String(a.name));
    rep.leaderboard = agents.map((a) => ({
      rank: Number(a.rank), agentId: String(a.id), agentName: String(a.name), portfolioValue: Number(a.portfolioValue),
      pnlPercent: typeof a.pnlPercent === 'number' ? a.pnlPercent : null, active: a.active !== false,
    })).sort((x, y) => x.rank - y.rank);
  } catch (err) {
    problems.push(`leaderboard of ${rep.name}: ${(err as Error).message}`);
  }
  const res = await get(target, adminKey, `/api/admin/competition/${id}/snapshots`, {});
  const snaps = (res.body as Body | undefined)?.snapshots;
  if (res.status !== 200 || !Array.isArray(snaps)) {
    problems.push(`snapshots of ${rep.name}: GET answered ${res.status}`);
    return rep;
  }
  options.onSnapshots?.({ id, name: rep.name }, snaps as Body[]);
  const byAgent = new Map<string, [number, number][]>();
  for (const s of snaps as Body[]) {
    const agentId = String(s.agentId);
    const pts = byAgent.get(agentId) ?? [];
    pts.push([Date.parse(String(s.timestamp)), Number(s.totalValue)]);
    byAgent.set(agentId, pts);
  }
  rep.series = [...byAgent].map(([agentId, pts]) => ({ agentId, agentName: names.get(agentId) ?? agentId, points: thin(pts.sort((a, b) => a[0] - b[0])) }));
  return rep;
}

/** Reads every active or ended competition with its snapshots and final leaderboard through the admin key. */
export async function collectReport(target: Target, adminKey: string, options: CollectOptions = {}): Promise<ScenarioReport> {
  const problems: string[] = [];
  const competitions: CompetitionReport[] = [];
  for (const status of ['active', 'ended']) {
    let list: Body[] = [];
    try {
      list = await pages(target, adminKey, '/api/competitions', 'competitions', { status });
    } catch (err) {
      problems.push(`${status} competitions: ${(err as Error).message}`);
    }
    for (const c of list) {
      try {
        competitions.push(await competitionReport(target, adminKey, c, problems, options));
      } catch (err) {
        problems.push(`competition ${String(c.name)}: ${(err as Error).message}`);
      }
    }
  }
  return { competitions, problems };
}

/** The JSON result of a run (logs left out: they go to their own files). */
export function runResult(target: string, results: readonly ScenarioResult[], reports?: ReadonlyMap<string, ScenarioReport>): RunResult {
  const passed = results.filter((r) => r.ok).length;
  return {
    format: 'compsim-run', version: 1, target, ok: passed === results.length,
    summary: { scenarios: results.length, passed, failed: results.length - passed },
    scenarios: results.map((result) => {
      // Copied key by key: reading `log` would build the log's text only to drop it.
      const r = Object.fromEntries(Object.keys(result).filter((k) => k !== 'log').map((k) => [k, result[k as keyof ScenarioResult]])) as Omit<ScenarioResult, 'log'>;
      const report = reports?.get(r.file);
      return report ? { ...r, report } : r;
    }),
  };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Formats a number of USD for tables. */
export function usd(v: number): string {
  return Number.isFinite(v) ? v.toFixed(2) : String(v);
}

/** The Markdown summary of a run. */
export function renderMarkdown(run: RunResult): string {
  const out: string[] = ['# compsim run', '', `Target: \`${run.target}\` — ${run.summary.passed} of ${run.summary.scenarios} scenarios passed.`, ''];
  out.push('| scenario | result | steps | requests | log hash |', '|---|---|---|---|---|');
  for (const s of run.scenarios) {
    out.push(`| ${cell(s.file)} | ${s.ok ? 'pass' : '**FAIL**'} | ${s.stepsPassed}/${s.steps} | ${s.requests} | \`${s.hash.slice(0, 16)}\` |`);
  }
  for (const s of run.scenarios) {
    out.push('', `## ${s.name}`, '');
    if (s.description) out.push(s.description, '');
    out.push(`File \`${s.file}\`, seed \`${String(s.seed)}\`, log hash \`${s.hash}\`.`, '');
    if (s.failure) {
      const f = s.failure;
      out.push(`**Failed at ${f.at}** (${f.verb}): ${f.message}`, '');
      if (f.request) out.push('```', `${f.request.method} ${f.request.path}${f.request.as ? ` as ${f.request.as}` : ''}`, ...(f.request.body !== undefined ? [JSON.stringify(f.request.body, null, 2)] : []), '```', '');
      if (f.diff) out.push('```diff', ...f.diff, '```', '');
    }
    for (const c of s.report?.competitions ?? []) {
      out.push(`### ${c.name} (${c.status})`, '', '| rank | agent | portfolio value | pnl % |', '|---|---|---|---|');
      for (const r of c.leaderboard) out.push(`| ${r.rank} | ${cell(r.agentName)}${r.active ? '' : ' (inactive)'} | ${usd(r.portfolioValue)} | ${r.pnlPercent === null ? '' : r.pnlPercent.toFixed(2)} |`);
      out.push('');
    }
    for (const p of s.report?.problems ?? []) out.push(`- report: ${p}`);
  }
  return `${out.join('\n')}\n`;
}
