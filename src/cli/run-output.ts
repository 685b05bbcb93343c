// Human output of `compsim run`: a progress bar on a terminal (plain lines otherwise) and readable failure reports.
import type { RunEvent, ScenarioResult, StepFailure } from '../harness/runner.js';

/** Where and how to print. */
export interface OutputStream {
  write(s: string): unknown;
  isTTY?: boolean;
}

const BAR = 24;
/** Minimum wall time between redraws of the bar (display only; results never depend on it). */
const REDRAW_MS = 50;

const colour = (on: boolean) => ({
  red: (s: string) => (on ? `\x1b[31m${s}\x1b[39m` : s),
  green: (s: string) => (on ? `\x1b[32m${s}\x1b[39m` : s),
  dim: (s: string) => (on ? `\x1b[2m${s}\x1b[22m` : s),
});

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** Indented, readable account of one failure: where, the request, the response and the body diff. */
export function formatFailure(f: StepFailure, useColour = false): string[] {
  const c = colour(useColour);
  // An invalid file: its problems, each already naming the file and where.
  if (f.verb === 'file') return f.message.split('\n').map((l) => `  ${c.red(l)}`);
  const out = [`  at ${f.at} (${f.verb}): ${f.message}`];
  if (f.request) {
    const q = f.request.query ? `?${new URLSearchParams(f.request.query).toString()}` : '';
    out.push(`  request: ${f.request.method} ${f.request.path}${q}${f.request.as ? ` as ${f.request.as}` : ''}`);
    if (f.request.body !== undefined) out.push(...JSON.stringify(f.request.body, null, 2).split('\n').map((l) => `    ${l}`));
  }
  if (f.response) {
    out.push(`  response: ${f.response.status}`);
    if (f.diff) {
      out.push(`  ${c.red('- expected')}  ${c.green('+ actual')}`);
      for (const l of f.diff) out.push(`  ${l.startsWith('- ') ? c.red(l) : l.startsWith('+ ') ? c.green(l) : l}`);
    } else if (f.response.body !== undefined) {
      out.push(`    ${clip(JSON.stringify(f.response.body), 2000)}`);
    }
  }
  return out;
}

/** One line per finished scenario. */
export function formatResult(r: Omit<ScenarioResult, 'log'>, ms: number | null, useColour = false): string {
  const c = colour(useColour);
  const time = ms === null ? '' : ` · ${Math.round(ms)} ms`;
  const mark = r.ok ? c.green('✓') : c.red('✗');
  const hash = r.hash ? ` · sha256 ${r.hash}` : '';
  return `${mark} ${r.file}  ${c.dim(`${r.stepsPassed}/${r.steps} steps · ${r.requests} requests${time}${hash}`)}`;
}

/**
 * Progress of a run: on a terminal a redrawn bar (scenario count and current step) with a line
 * per finished scenario above it; elsewhere only the lines.
 */
export class Progress {
  private readonly tty: boolean;
  /** Scenarios finished so far (the bar's fill; with several workers they start out of order). */
  private ended = 0;
  private name = '';
  private lastDraw = -Infinity;
  private started = 0;

  constructor(private readonly out: OutputStream, private readonly total: number) {
    this.tty = out.isTTY === true;
  }

  /** A scenario starts. */
  begin(_index: number, name: string): void {
    this.name = name;
    this.started = performance.now();
    this.draw('', true);
  }

  /** Runner events of the current scenario. */
  onEvent = (e: RunEvent): void => {
    if (e.kind === 'step') this.draw(`step ${e.index + 1}/${e.total}`, false);
  };

  /** A scenario finished (in `ms`, else timed from its begin): its line (and failure details) go above the bar. */
  end(r: Omit<ScenarioResult, 'log'>, ms?: number): void {
    this.clear();
    this.ended += 1;
    const lines = [formatResult(r, ms ?? performance.now() - this.started, this.tty)];
    if (r.failure) lines.push(...formatFailure(r.failure, this.tty));
    this.out.write(`${lines.join('\n')}\n`);
  }

  /** Removes the bar at the end of the run. */
  finish(): void {
    this.clear();
  }

  private clear(): void {
    if (this.tty) this.out.write('\r\x1b[2K');
  }

  private draw(detail: string, force: boolean): void {
    if (!this.tty) return;
    const now = performance.now();
    if (!force && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const filled = Math.round((this.ended / Math.max(1, this.total)) * BAR);
    const bar = `[${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}]`;
    this.out.write(`\r\x1b[2K${bar} ${Math.min(this.ended + 1, this.total)}/${this.total} ${clip(this.name, 40)}${detail ? `  ${detail}` : ''}`);
  }
}
