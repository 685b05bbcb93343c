// `compsim fork` as a library: read a competition from a server speaking the API (public and agent-readable endpoints only, the source never trusted), derive the forked competition and write a directory that replay, serve and sweep run from.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deriveFork } from './fork-derive.js';
import { ForkSourceError, SourceReader, type FollowedRedirect, type ForkIo } from './fork-fetch.js';
import { readSource } from './fork-read.js';
import { FORK_FILES, writeFork } from './fork-write.js';

/** Manifest format tag. */
export const FORK_FORMAT = 'compsim-fork/1';

/** Default cap on one answer's size. */
export const DEFAULT_MAX_ANSWER_MB = 64;
/** Default time a whole fork may take. */
export const DEFAULT_DEADLINE_MS = 30 * 60_000;

/** What to fork, from where, into where, and how politely. */
export interface ForkOptions {
  /** Base URL of the source, without a trailing slash. */
  from: string;
  competition: string;
  out: string;
  apiKey?: string;
  /** Requests in flight at once (1-4). */
  concurrency: number;
  /** Requests started per second (default: no limit). */
  rate?: number;
  /** Discard the answers kept from an earlier run. */
  fresh: boolean;
  /** Largest answer read, in MB (default {@link DEFAULT_MAX_ANSWER_MB}). */
  maxAnswerMb?: number;
  /** Time the whole fork may take, in ms (default {@link DEFAULT_DEADLINE_MS}). */
  deadlineMs?: number;
  /** Follow redirects to another origin (recorded in the manifest; the key is never sent there). */
  followRedirects?: boolean;
}

/** Progress and warnings while forking (display only). */
export interface ForkHooks {
  /** `n` more answers to wait for. */
  expect?(n: number): void;
  /** One answer read (fetched or from the cache). */
  answer?(): void;
  /** A warning while reading (a long wait). */
  warn?(text: string): void;
}

/** The manifest (`fork.json`). */
export interface ForkManifest {
  format: typeof FORK_FORMAT;
  source: { url: string; competitionId: string; name: string; status: string; type: string; fetchedAt: string; apiKey: boolean };
  files: typeof FORK_FILES;
  /** How `compsim replay --fork` rebuilds the competition. */
  replay: { start: string; end: string; intervalMs: number; agents: string[]; rules: 'lenient' };
  counts: Record<string, number>;
  hashes: Record<string, string>;
  prices: Record<string, unknown>;
  /** Redirects to another origin that were followed (`--follow-redirects`). */
  redirects: FollowedRedirect[];
  /** Fields the source does not expose, and what the fork did instead. */
  notExposed: { field: string; instead: string }[];
  warnings: string[];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The answer cache of `out`, emptied with `fresh`; a cache holding another fork's answers is refused. */
function openCache(o: ForkOptions): string {
  const cacheDir = join(o.out, '.fork-cache');
  const sourceFile = join(cacheDir, 'source.json');
  const source = JSON.stringify({ from: o.from, competitionId: o.competition });
  if (o.fresh) rmSync(cacheDir, { recursive: true, force: true });
  else if (existsSync(sourceFile)) {
    const held = statSync(sourceFile).size <= 64 * 1024 ? readFileSync(sourceFile, 'utf8') : '(an unreadable source.json)';
    if (held !== source) throw new ForkSourceError(`${o.out} holds answers of another fork (${held.slice(0, 300)}); pass --fresh or another --out`);
  }
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(sourceFile, source);
  return cacheDir;
}

/**
 * Forks a competition into `o.out` and returns the manifest it wrote. Throws a
 * {@link ForkSourceError} (naming the request and the field) when the source refuses, cannot be
 * read, answers beyond the caps or not as the API does; nothing of the source chooses a path.
 */
export async function forkCompetition(o: ForkOptions, io: ForkIo, hooks: ForkHooks = {}): Promise<ForkManifest> {
  const started = io.now();
  const cacheDir = openCache(o);
  const reader = new SourceReader({
    from: o.from, ...(o.apiKey !== undefined ? { apiKey: o.apiKey } : {}), concurrency: o.concurrency, ...(o.rate !== undefined ? { rate: o.rate } : {}),
    cacheDir, io, maxAnswerBytes: (o.maxAnswerMb ?? DEFAULT_MAX_ANSWER_MB) * 1024 * 1024, deadline: started + (o.deadlineMs ?? DEFAULT_DEADLINE_MS),
    followRedirects: o.followRedirects === true, onAnswer: () => hooks.answer?.(), onWarning: (w) => hooks.warn?.(w),
  });
  const fetched = await readSource({ reader, competition: o.competition, apiKey: o.apiKey !== undefined, concurrency: o.concurrency, expect: (n) => hooks.expect?.(n) });
  const m = await deriveFork(fetched);
  const hashes = writeFork(o.out, m, fetched);
  const comp = fetched.competition;
  const tapePoints = Object.values(m.derived.tapes).reduce((s, p) => s + p.length, 0);
  const manifest: ForkManifest = {
    format: FORK_FORMAT,
    source: {
      url: o.from, competitionId: o.competition, name: typeof comp.name === 'string' ? comp.name : '', status: m.status,
      type: typeof comp.type === 'string' ? comp.type : 'trading', fetchedAt: iso(io.now()), apiKey: o.apiKey !== undefined,
    },
    files: FORK_FILES,
    replay: { start: iso(m.start), end: iso(m.end), intervalMs: m.intervalMs, agents: m.agents.map((a) => m.label.get(a.id)!), rules: 'lenient' },
    counts: {
      agents: m.agents.length, participants: fetched.participantsTotal, trades: m.trades.length, tradesReported: fetched.tradesTotal, tradePages: fetched.tradePages,
      timelinePoints: m.points, snapshotInstants: m.instants, tokens: Object.keys(m.derived.tapes).length, tapePoints,
      leaderboardRows: Array.isArray(fetched.leaderboard?.leaderboard) ? (fetched.leaderboard.leaderboard as unknown[]).length : 0,
      requests: reader.stats.requests, retries: reader.stats.retries, answersFromCache: reader.stats.cached,
    },
    hashes,
    prices: { ...m.derived.stats, undeterminedTokens: m.derived.undeterminedTokens, unknownTokens: m.derived.unknownTokens },
    redirects: reader.redirects,
    notExposed: m.notExposed,
    warnings: m.warnings,
  };
  writeFileSync(join(o.out, 'fork.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
