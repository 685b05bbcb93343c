// `compsim fork`: arguments, the progress bar and printing; the fork itself (reads, checks, derivation, files) is src/research/fork*.ts.
import { parseDuration } from '../harness/steps.js';
import { DEFAULT_DEADLINE_MS, DEFAULT_MAX_ANSWER_MB, forkCompetition, type ForkOptions } from '../research/fork.js';
import { ForkSourceError, type ForkIo } from '../research/fork-fetch.js';
import { bool, defined, failure, opt, parseFlags, str, urlValue, UsageError } from './args.js';
import type { OutputStream } from './run-output.js';

/** Help text of `compsim fork`. */
export const FORK_USAGE = `Usage: compsim fork --from <url> --competition <id> --out <dir> [options]

Reads a competition from a server speaking this API (the hosted service or another compsim),
through public and agent-readable endpoints only: the competition and its rules, the participants,
every trade (all pages), the timeline and the leaderboard. Writes into <dir> a world fixture
(world.json), the trades (trades.csv), a price tape derived from the trades' prices and the
timeline (prices.json), the starting balances, the source's leaderboard and timeline, and a
manifest (fork.json) naming everything the source does not expose. Then:
  compsim replay --fork <dir> --slippage none     replays the competition
  compsim serve --world <dir>/world.json          serves its starting state

Answers are kept in <dir>/.fork-cache: an interrupted fork run again fetches only what is missing.
The source is not trusted: every answer is checked against the API's schemas (an error names the
request and the field), answers and page counts are capped, and the whole fork has a deadline.

Options:
  --from <url>           base URL of the source (e.g. http://127.0.0.1:3000)
  --competition <id>     the competition's id
  --out <dir>            directory to write
  --api-key <key>        an agent (or admin) key: the source lists trades only to a key
  --concurrency <n>      requests in flight at once, 1-4 (default 2)
  --rate <n>             at most n requests started per second (default: no limit)
  --fresh                discard the answers kept from an earlier run
  --max-answer-mb <n>    refuse an answer larger than n MB (default 64)
  --deadline <duration>  give up when the whole fork takes longer, e.g. 30m, 2h (default 30m)
  --follow-redirects     follow redirects to another origin (recorded in fork.json; the key is
                         never sent there); by default only redirects within the source are followed
  -h, --help             show this help

A 429 or 503 answer is retried after its Retry-After (or 1 s, 2 s, 4 s ...), within the deadline;
a wait over a minute is reported. Exit codes: 0 done, 1 the source refused, could not be read or
answered beyond the caps, 2 bad options.`;

/** Parsed `fork` options. */
export type ForkArgs = ForkOptions;

const FORK_OPTIONS = {
  from: str, competition: str, out: str, 'api-key': str, concurrency: { type: 'string', default: '2' }, rate: str, fresh: { ...bool, default: false },
  'max-answer-mb': str, deadline: str, 'follow-redirects': { ...bool, default: false },
} as const;

function deadline(v: string): number {
  let ms: number;
  try {
    ms = parseDuration(/^\d+$/.test(v) ? Number(v) : v);
  } catch {
    throw new UsageError(`--deadline must be a duration such as 30m or 2h, got '${v}'`);
  }
  if (ms < 1000) throw new UsageError('--deadline must be at least 1s');
  return ms;
}

/** Parses the arguments after `fork`. */
export function parseForkArgs(argv: readonly string[]): ForkArgs {
  const { values: v } = parseFlags(argv, FORK_OPTIONS);
  if (v.from === undefined || v.competition === undefined || v.out === undefined) throw new UsageError('--from, --competition and --out are required');
  if (!/^[1-4]$/.test(v.concurrency)) throw new UsageError(`--concurrency must be 1, 2, 3 or 4, got '${v.concurrency}'`);
  const rate = opt(v.rate, (r) => {
    if (!/^\d+(\.\d+)?$/.test(r) || Number(r) <= 0) throw new UsageError(`--rate must be a positive number of requests per second, got '${r}'`);
    return Number(r);
  });
  const maxAnswerMb = opt(v['max-answer-mb'], (m) => {
    if (!/^\d+$/.test(m) || Number(m) < 1 || Number(m) > 4096) throw new UsageError(`--max-answer-mb must be a whole number of MB from 1 to 4096, got '${m}'`);
    return Number(m);
  });
  if (v.competition.trim() === '' || /[/?#\s]/.test(v.competition)) throw new UsageError(`--competition must be a competition id, got '${v.competition}'`);
  return defined({
    from: urlValue('--from', v.from), competition: v.competition, out: v.out, apiKey: v['api-key'], concurrency: Number(v.concurrency), rate, fresh: v.fresh,
    maxAnswerMb: maxAnswerMb ?? DEFAULT_MAX_ANSWER_MB, deadlineMs: opt(v.deadline, deadline) ?? DEFAULT_DEADLINE_MS, followRedirects: v['follow-redirects'],
  });
}

/** The real clock, timers and fetch. */
export function systemIo(): ForkIo {
  return {
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

/** Text from the source made safe for a terminal: control characters (escape sequences included) shown as U+FFFD. */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}

/** Progress on a terminal: one redrawn line; nothing elsewhere. */
class Progress {
  done = 0;
  total = 0;
  private shown = -1;
  constructor(private readonly out: OutputStream) {}
  tick(): void {
    this.done++;
    this.draw();
  }
  grow(n: number): void {
    this.total += n;
    this.draw();
  }
  private draw(): void {
    if (!this.out.isTTY || this.total === 0) return;
    const pct = Math.floor((this.done / this.total) * 100);
    if (pct === this.shown && this.done !== this.total) return;
    this.shown = pct;
    const width = 24;
    const filled = Math.round((Math.min(this.done, this.total) / this.total) * width);
    this.out.write(`\rfork [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total} answers`);
  }
  end(): void {
    if (this.out.isTTY && this.total > 0) this.out.write('\n');
  }
}

/** Runs `compsim fork`; resolves to the exit code. `io` replaces the clock, timers and fetch (tests). */
export async function forkMain(argv: readonly string[], out: { stdout: OutputStream; stderr: OutputStream } = { stdout: process.stdout, stderr: process.stderr }, io: ForkIo = systemIo()): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    out.stdout.write(`${FORK_USAGE}\n`);
    return 0;
  }
  let args: ForkArgs;
  try {
    args = parseForkArgs(argv);
  } catch (err) {
    return failure('compsim fork', FORK_USAGE, err, out.stderr);
  }
  const progress = new Progress(out.stderr);
  // A long wait is reported as it starts, so a quiet terminal says why it is quiet.
  const warn = (w: string) => out.stderr.write(printable(`${out.stderr.isTTY ? '\n' : ''}warning: ${w}\n`));
  try {
    const manifest = await forkCompetition(args, io, { expect: (n) => progress.grow(n), answer: () => progress.tick(), warn });
    progress.end();
    const c = manifest.counts;
    out.stdout.write(printable(`forked '${manifest.source.name}' (${manifest.source.status}) from ${args.from}: ${c.agents} agents, ${c.trades} trades, `
      + `${c.tokens} price tapes (${c.tapePoints} points), ${manifest.replay.start} -> ${manifest.replay.end}\n`
      + `${c.requests} requests, ${c.answersFromCache} answers from the cache; written to ${args.out} (fork.json lists what the source does not expose)\n`));
    for (const r of manifest.redirects) out.stdout.write(printable(`warning: followed a redirect to another origin: ${r.from} -> ${r.to}\n`));
    for (const w of manifest.warnings) out.stdout.write(printable(`warning: ${w}\n`));
    return 0;
  } catch (err) {
    progress.end();
    if (!(err instanceof ForkSourceError)) throw err;
    out.stderr.write(printable(`compsim fork: ${err.message}\n`));
    return 1;
  }
}
