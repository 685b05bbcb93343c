// Benchmark results: the row type every benchmark returns, statistics helpers and the table renderers (stdout and Markdown).
import { cpus, loadavg, totalmem } from 'node:os';

/** One line of the results table. */
export interface BenchRow {
  /** Issue row number ("1".."7", "scaling"). */
  id: string;
  /** What was measured. */
  name: string;
  /** The figure, formatted with its unit (e.g. "8,120 trades/s"). */
  value: string;
  /** The target as the issue states it (empty when there is none). */
  target: string;
  /** True when the target is met; null when there is no target. */
  pass: boolean | null;
  /** Baseline of the same run, ratios, settings. */
  notes: string;
}

/** The value at quantile `q` (0..1) of `xs` (nearest rank). */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** Median of `xs`. */
export const median = (xs: readonly number[]) => quantile(xs, 0.5);

/** `n` with thousands separators and `digits` decimals. */
export function num(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Milliseconds with a sensible precision. */
export function ms(n: number): string {
  return n >= 100 ? `${num(n)} ms` : n >= 10 ? `${num(n, 1)} ms` : `${num(n, 2)} ms`;
}

/** The machine line of a report: cores, CPU model, memory, Node version, load when the run started. */
export function machine(): string {
  const c = cpus();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  return `${c.length} cores (${c[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}/${process.arch}, load average ${load} at start`;
}

const mark = (p: boolean | null) => (p === null ? '' : p ? 'met' : 'MISSED');

/** The table as aligned plain text. */
export function textTable(rows: readonly BenchRow[]): string {
  const head = ['#', 'benchmark', 'result', 'target', '', 'notes'];
  const cells = rows.map((r) => [r.id, r.name, r.value, r.target, mark(r.pass), r.notes]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (i === 5 ? 0 : c[i]!.length))));
  const line = (c: string[]) => c.map((x, i) => (i === 5 ? x : x.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** The table as Markdown. */
export function markdownTable(rows: readonly BenchRow[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    '| # | benchmark | result | target | | notes |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.id} | ${esc(r.name)} | ${esc(r.value)} | ${esc(r.target)} | ${mark(r.pass)} | ${esc(r.notes)} |`),
  ].join('\n');
}
