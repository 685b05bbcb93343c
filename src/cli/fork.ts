// `compsim fork`: reads a competition from any server speaking the API (public and agent-readable endpoints only) and writes a directory that replay, serve and sweep run from.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { key as tokenKey } from '../adapters/prices/catalogue.js';
import type { InitialBalance } from '../domain/model.js';
import { initialTokenAddress, labelChain } from '../domain/trading/balances.js';
import { isSpecificChain } from '../domain/trading/prices.js';
import type { FixtureCompetition, WorldFixture } from '../world/fixture.js';
import type { SpecificChain } from '../ports/prices.js';
import { toCsv } from '../research/replay.js';
import { createWorld } from '../world/world.js';
import { defined, failure, opt, parseFlags, str, bool, urlValue, UsageError } from './args.js';
import { ForkSourceError, pool, SourceReader, systemIo, type ForkIo } from './fork-fetch.js';
import { addressKey, derivePrices, type SourceTrade } from './fork-prices.js';
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

Options:
  --from <url>           base URL of the source (e.g. http://127.0.0.1:3000)
  --competition <id>     the competition's id
  --out <dir>            directory to write
  --api-key <key>        an agent (or admin) key: the source lists trades only to a key
  --concurrency <n>      requests in flight at once, 1-4 (default 2)
  --rate <n>             at most n requests started per second (default: no limit)
  --fresh                discard the answers kept from an earlier run
  -h, --help             show this help

A 429 or 503 answer is retried after its Retry-After (or 1 s, 2 s, 4 s ...). Exit codes: 0 done,
1 the source refused or could not be read, 2 bad options.`;

/** Parsed `fork` options. */
export interface ForkArgs { from: string; competition: string; out: string; apiKey?: string; concurrency: number; rate?: number; fresh: boolean }

const FORK_OPTIONS = {
  from: str, competition: str, out: str, 'api-key': str, concurrency: { type: 'string', default: '2' }, rate: str, fresh: { ...bool, default: false },
} as const;

/** Parses the arguments after `fork`. */
export function parseForkArgs(argv: readonly string[]): ForkArgs {
  const { values: v } = parseFlags(argv, FORK_OPTIONS);
  if (v.from === undefined || v.competition === undefined || v.out === undefined) throw new UsageError('--from, --competition and --out are required');
  if (!/^[1-4]$/.test(v.concurrency)) throw new UsageError(`--concurrency must be 1, 2, 3 or 4, got '${v.concurrency}'`);
  const rate = opt(v.rate, (r) => {
    if (!/^\d+(\.\d+)?$/.test(r) || Number(r) <= 0) throw new UsageError(`--rate must be a positive number of requests per second, got '${r}'`);
    return Number(r);
  });
  if (v.competition.trim() === '' || /[/?#\s]/.test(v.competition)) throw new UsageError(`--competition must be a competition id, got '${v.competition}'`);
  return defined({
    from: urlValue('--from', v.from), competition: v.competition, out: v.out, apiKey: v['api-key'], concurrency: Number(v.concurrency), rate, fresh: v.fresh,
  });
}

/** Largest page the list endpoints serve. */
const PAGE = 100;
/** Timeline bucket (minutes): one point per snapshot at the default 5-minute interval. */
const BUCKET = 1;
/** Manifest format tag. */
export const FORK_FORMAT = 'compsim-fork/1';

/** The files of a fork directory (relative names, as the manifest lists them). */
export const FORK_FILES = {
  world: 'world.json', trades: 'trades.csv', prices: 'prices.json', balances: 'balances.json',
  leaderboard: 'leaderboard.csv', timeline: 'timeline.csv', sourceTrades: 'source-trades.csv', competition: 'competition.json',
} as const;

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
  /** Fields the source does not expose, and what the fork did instead. */
  notExposed: { field: string; instead: string }[];
  warnings: string[];
}

interface Participant { id: string; name: string; handle?: string; active?: boolean; rank?: number; portfolioValue?: number; score?: number; description?: string | null }

const iso = (ms: number) => new Date(ms).toISOString();
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

function time(v: unknown): number | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const ms = typeof v === 'number' ? v : Date.parse(v);
  return Number.isFinite(ms) ? ms : undefined;
}

/** A decimal text that parses back to exactly `x` (no exponent: the API takes plain decimals). */
export function decimal(x: number): string {
  const s = String(x);
  if (!/e/i.test(s)) return s;
  if (Math.abs(x) >= 1e21) return BigInt(x).toString();
  return x.toFixed(100).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
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

/** Everything read from the source. */
interface Fetched {
  competition: Record<string, unknown>;
  rules: Record<string, unknown> | null;
  participants: Participant[];
  participantsTotal: number;
  trades: Record<string, unknown>[];
  tradesTotal: number;
  tradePages: number;
  timeline: { agentId: string; agentName?: string; timeline: { timestamp?: string; date?: string; totalValue: number }[] }[];
  leaderboard: Record<string, unknown> | null;
  missing: { field: string; instead: string }[];
}

async function readAll(args: ForkArgs, reader: SourceReader, progress: Progress): Promise<Fetched> {
  const id = encodeURIComponent(args.competition);
  const missing: { field: string; instead: string }[] = [];
  progress.grow(args.apiKey !== undefined ? 6 : 5);
  let detail: Record<string, unknown>;
  try {
    detail = await reader.get('competition', `/api/competitions/${id}`);
  } catch (err) {
    if (err instanceof ForkSourceError && err.status === 404) throw new ForkSourceError(`the source has no competition '${args.competition}' (404${err.sourceError ? ` ${err.sourceError}` : ''})`, 404);
    throw err;
  }
  const competition = detail.competition as Record<string, unknown> | undefined;
  if (!competition || typeof competition !== 'object') throw new ForkSourceError('the source answered the competition request without a competition');
  if (competition.type !== undefined && competition.type !== 'trading') {
    throw new ForkSourceError(`competition '${args.competition}' is a ${String(competition.type)} competition; fork reads paper-trading competitions only`);
  }
  let rules: Record<string, unknown> | null = null;
  try {
    rules = await reader.get('rules', `/api/competitions/${id}/rules`);
  } catch (err) {
    if (!(err instanceof ForkSourceError) || err.status === undefined) throw err;
    missing.push({ field: 'rules', instead: `not read (the source answered ${err.status})` });
  }

  // Participants: the first page gives the total, the rest run concurrently.
  const agentsQuery = (offset: number) => ({ limit: String(PAGE), offset: String(offset), includeInactive: 'true' });
  const first = await reader.get('agents-0', `/api/competitions/${id}/agents`, agentsQuery(0));
  const participantsTotal = num((first.pagination as { total?: unknown } | undefined)?.total ?? (first.agents as unknown[] | undefined)?.length ?? 0);
  const agentPages = Math.max(1, Math.ceil(participantsTotal / PAGE));
  progress.grow(agentPages - 1);
  const agentBodies = [first, ...await pool(args.concurrency, Array.from({ length: agentPages - 1 }, (_, i) => () => reader.get(`agents-${(i + 1) * PAGE}`, `/api/competitions/${id}/agents`, agentsQuery((i + 1) * PAGE))))];
  const seen = new Set<string>();
  const participants: Participant[] = [];
  for (const b of agentBodies) {
    for (const a of (b.agents as Participant[] | undefined) ?? []) {
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      participants.push(a);
    }
  }

  // Trades: newest first in pages of 100.
  const tradesQuery = (offset: number) => ({ limit: String(PAGE), offset: String(offset) });
  // Each page repeats the competition: the cache keeps only the trades and the count.
  const tradesOnly = (b: Record<string, unknown>) => ({ trades: b.trades, total: b.total, pagination: b.pagination });
  let firstTrades: Record<string, unknown>;
  try {
    firstTrades = await reader.get('trades-0', `/api/competitions/${id}/trades`, tradesQuery(0), tradesOnly);
  } catch (err) {
    if (err instanceof ForkSourceError && err.status === 401) {
      throw new ForkSourceError(`the source lists a competition's trades only to an agent or admin key: pass --api-key (401${err.sourceError ? ` ${err.sourceError}` : ''})`, 401);
    }
    throw err;
  }
  const total = (firstTrades.pagination as { total?: unknown } | undefined)?.total ?? firstTrades.total;
  const tradesTotal = num(total ?? (firstTrades.trades as unknown[] | undefined)?.length ?? 0);
  const tradePages = Math.max(1, Math.ceil(tradesTotal / PAGE));
  progress.grow(tradePages - 1);
  const tradeBodies = [firstTrades, ...await pool(args.concurrency, Array.from({ length: tradePages - 1 }, (_, i) => () => reader.get(`trades-${(i + 1) * PAGE}`, `/api/competitions/${id}/trades`, tradesQuery((i + 1) * PAGE), tradesOnly)))];
  const byId = new Map<string, Record<string, unknown>>();
  for (const b of tradeBodies) for (const t of (b.trades as Record<string, unknown>[] | undefined) ?? []) if (!byId.has(String(t.id))) byId.set(String(t.id), t);

  // One point per snapshot if the source serves that many; a source that caps the timeline names a bucket that fits.
  let bucket = BUCKET;
  let timelineBody: Record<string, unknown> | undefined;
  while (timelineBody === undefined) {
    try {
      timelineBody = await reader.get(`timeline-${bucket}`, `/api/competitions/${id}/timeline`, { bucket: String(bucket) });
    } catch (err) {
      const suggested = err instanceof ForkSourceError && err.status === 400 ? Number(/bucket=(\d+)\s*$/.exec(err.sourceError ?? '')?.[1]) : NaN;
      if (!(suggested > bucket && suggested <= 1440)) throw err;
      bucket = suggested;
      progress.grow(1);
    }
  }
  if (bucket !== BUCKET) {
    missing.push({ field: 'every portfolio snapshot', instead: `the source caps its timeline: read with bucket=${bucket}, the latest snapshot per ${bucket} minutes (the solved prices rest on those instants only)` });
  }
  let leaderboard: Record<string, unknown> | null = null;
  if (args.apiKey !== undefined) {
    try {
      leaderboard = await reader.get('leaderboard', '/api/competitions/leaderboard', { competitionId: args.competition });
    } catch (err) {
      if (!(err instanceof ForkSourceError) || err.status === undefined) throw err;
      missing.push({ field: 'GET /api/competitions/leaderboard (older era)', instead: `not available (the source answered ${err.status}); the participants list gives the ranking` });
    }
  } else missing.push({ field: 'GET /api/competitions/leaderboard (older era, needs a key)', instead: 'not read; the participants list gives the ranking' });
  return {
    competition, rules, participants, participantsTotal, trades: [...byId.values()], tradesTotal, tradePages,
    timeline: (timelineBody.timeline as Fetched['timeline'] | undefined) ?? [], leaderboard, missing,
  };
}

/** Unique display names: a name two agents share gets the handle (or id) appended. */
function labels(agents: { id: string; name: string; handle?: string }[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const a of agents) count.set(a.name, (count.get(a.name) ?? 0) + 1);
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const a of agents) {
    let label = count.get(a.name)! > 1 ? `${a.name} (@${a.handle ?? a.id.slice(0, 8)})` : a.name;
    while (used.has(label)) label = `${label}*`;
    used.add(label);
    out.set(a.id, label);
  }
  return out;
}

/** Writes the fork directory from what was read; returns the manifest. */
async function build(args: ForkArgs, f: Fetched, reader: SourceReader, fetchedAt: string): Promise<ForkManifest> {
  const warnings: string[] = [];
  const notExposed = [...f.missing];
  const comp = f.competition;
  const status = String(comp.status ?? 'unknown');

  // Agents: the participants, then anyone who traded but is not listed.
  const agents: { id: string; name: string; handle?: string }[] = f.participants.map((p) => ({ id: p.id, name: p.name, ...(p.handle ? { handle: p.handle } : {}) }));
  const known = new Set(agents.map((a) => a.id));
  for (const t of f.trades) {
    const id = String(t.agentId);
    if (known.has(id)) continue;
    known.add(id);
    const a = t.agent as { name?: string } | undefined;
    agents.push({ id, name: a?.name ?? `agent ${id.slice(0, 8)}` });
    warnings.push(`agent ${id} traded but is not in the participants list; added`);
  }
  const label = labels(agents);
  const inactive = f.participants.filter((p) => p.active === false);
  if (inactive.length > 0) {
    warnings.push(`${inactive.length} participants are no longer active at the source (withdrawn or disqualified: ${inactive.map((p) => label.get(p.id)).join(', ')}); the source ranks them last, a replay ranks them with the others`);
  }

  // Trades, oldest first; the source lists the newer write first within one instant.
  const trades: SourceTrade[] = [];
  // Each time parsed once; the reversed pages are usually in time order already, else a stable sort.
  let raw = [...f.trades].reverse().map((t) => ({ t, ms: time(t.timestamp) ?? NaN }));
  if (raw.some((x, i) => i > 0 && raw[i - 1]!.ms > x.ms)) raw = raw.map((x, i) => ({ ...x, i })).sort((a, b) => a.ms - b.ms || a.i - b.i);
  let reasonsEdited = 0;
  const reasons: string[] = [];
  for (const { t, ms: ts } of raw) {
    const st: SourceTrade = {
      id: String(t.id), agentId: String(t.agentId), timestamp: ts, fromToken: String(t.fromToken), toToken: String(t.toToken),
      fromAmount: num(t.fromAmount), toAmount: num(t.toAmount), tradeAmountUsd: num(t.tradeAmountUsd),
      fromSpecificChain: String(t.fromSpecificChain ?? ''), toSpecificChain: String(t.toSpecificChain ?? ''),
    };
    if (![st.timestamp, st.fromAmount, st.toAmount, st.tradeAmountUsd].every(Number.isFinite)) {
      warnings.push(`trade ${st.id} lacks a time or an amount; left out`);
      continue;
    }
    trades.push(st);
    const reason = String(t.reason ?? '');
    const flat = reason.replace(/[\r\n]+/g, ' ');
    if (flat !== reason) reasonsEdited++;
    reasons.push(flat);
  }
  if (reasonsEdited > 0) warnings.push(`${reasonsEdited} trade reasons had line breaks, replaced by spaces in trades.csv`);
  if (f.trades.length !== f.tradesTotal) warnings.push(`the source reported ${f.tradesTotal} trades and listed ${f.trades.length} distinct ones (trades written while forking?)`);

  // Starting balances, resolved to rows as the server keeps them.
  const world = await createWorld({});
  const deps = world.deps;
  const catalogue = deps.prices.catalogue();
  let balances: InitialBalance[] | null = null;
  if (Array.isArray(comp.paperTradingInitialBalances)) balances = comp.paperTradingInitialBalances as InitialBalance[];
  else {
    notExposed.push({ field: 'competition.paperTradingInitialBalances', instead: "not written; replay and serve use compsim's default starting balances" });
    warnings.push('starting balances not exposed: the rebuilt holdings, and so the solved prices, assume the default list');
  }
  const startList = balances ?? deps.config.defaultInitialBalances;
  const startRows: { address: string; chain: string; amount: number }[] = [];
  for (const b of startList) {
    const chain = b.specificChain as SpecificChain;
    const address = isSpecificChain(chain) ? initialTokenAddress(deps, chain, b.tokenSymbol) : undefined;
    if (address === undefined) {
      warnings.push(`starting balance ${b.tokenSymbol} on ${b.specificChain} is not in compsim's token catalogue; left out of the rebuilt holdings`);
      continue;
    }
    startRows.push({ address, chain: labelChain(deps, address, chain), amount: Math.round(b.amount * 100) / 100 });
  }

  // Snapshots by instant: the timeline, and the participants' values at the end if the timeline stops short.
  const snapshots = new Map<number, Map<string, number>>();
  let points = 0;
  for (const a of f.timeline) {
    for (const p of a.timeline ?? []) {
      const t = time(p.timestamp ?? p.date);
      if (t === undefined || typeof p.totalValue !== 'number') continue;
      let m = snapshots.get(t);
      if (!m) snapshots.set(t, (m = new Map()));
      m.set(a.agentId, p.totalValue);
      points++;
    }
  }
  const startDate = time(comp.startDate);
  const endDate = time(comp.endDate);
  const ended = status === 'ended';
  if (ended && endDate !== undefined && !snapshots.has(endDate)) {
    const m = new Map<string, number>();
    for (const p of f.participants) if (p.active !== false && typeof p.portfolioValue === 'number') m.set(p.id, p.portfolioValue);
    if (m.size > 0) snapshots.set(endDate, m);
    warnings.push('the timeline has no point at the end date: the participants list gave the final values');
  }
  if (snapshots.size === 0) warnings.push('the source exposes no portfolio values (empty timeline): prices come from trades only');
  const instants = [...snapshots.keys()].sort((a, b) => a - b);
  let intervalMs = Infinity;
  for (let i = 1; i < instants.length; i++) {
    const d = instants[i]! - instants[i - 1]!;
    if (d >= 1000 && d < intervalMs) intervalMs = d;
  }
  if (!Number.isFinite(intervalMs)) intervalMs = 300_000;
  notExposed.push({ field: 'the snapshot interval', instead: `derived from the timeline's spacing: ${intervalMs} ms` });

  const derived = derivePrices({
    trades, startRows, agents: agents.map((a) => a.id), snapshots, ...(ended && endDate !== undefined ? { closingInstant: endDate } : {}),
    token: (address, chain) => {
      if (!isSpecificChain(chain)) return undefined;
      const tok = catalogue.find(address, chain);
      return tok ? { key: tokenKey(tok.address, chain), defaultPrice: deps.prices.price(tok.address, chain, deps.clock.now()), kind: tok.kind } : undefined;
    },
  });
  if (derived.unknownTokens.length > 0) warnings.push(`tokens unknown to compsim's catalogue (a replay refuses their trades): ${derived.unknownTokens.join(', ')}`);
  if (derived.stats.maxRelativeResidual > 1e-9) warnings.push(`the solved prices reproduce the recorded portfolio values only to ${derived.stats.maxRelativeResidual.toExponential(2)} (relative)`);
  if (derived.stats.movedTrades > 0) {
    warnings.push(`${derived.stats.movedTrades} trades run a few milliseconds after their recorded time in trades.csv: a trade of the same instant priced one of their tokens differently (slippage at the source), and a tape holds one price per instant`);
  }

  // The replay window.
  const firstTrade = trades[0]?.timestamp;
  const lastTrade = derived.times[derived.times.length - 1];
  const start = startDate ?? Math.min(firstTrade ?? Infinity, instants[0] ?? Infinity);
  let end = ended && endDate !== undefined ? endDate : instants[instants.length - 1] ?? (lastTrade ?? start) + intervalMs;
  if (lastTrade !== undefined && end <= lastTrade) end = lastTrade + intervalMs;
  if (!Number.isFinite(start)) throw new ForkSourceError('the competition has no start date, no trades and no timeline: nothing to fork');
  if (!ended) warnings.push(`the competition is ${status}: the fork holds it as of ${iso(end)}`);

  notExposed.push(
    { field: "the source's slippage model", instead: 'to-token prices at trades are the prices the trades got (market prices when the source ran without slippage); replay with --slippage none reproduces the recorded fills' },
    { field: 'per-token prices between trades', instead: 'solved at each snapshot instant from the recorded portfolio values and the rebuilt holdings; linear in between' },
    { field: 'refused trades', instead: 'not listed by the source; only executed trades are forked' },
    { field: 'agent wallet addresses and owners', instead: 'world.json gives each agent its own user with a wallet derived from the agent id' },
    { field: 'API keys and the seed', instead: 'world.json uses seed 1; serve prints the new keys' },
  );

  // Files.
  mkdirSync(args.out, { recursive: true });
  const files: Record<string, string> = {};
  const write = (name: string, text: string) => {
    writeFileSync(join(args.out, name), text);
    files[name] = text;
  };
  const tapeDoc = { tapes: derived.tapes };
  write(FORK_FILES.trades, toCsv(['timestamp', 'agent', 'fromToken', 'toToken', 'amount', 'reason', 'fromSpecificChain', 'toSpecificChain'],
    trades.map((t, i) => [iso(derived.times[i]!), label.get(t.agentId)!, t.fromToken, t.toToken, decimal(t.fromAmount), reasons[i] === '' ? 'fork' : reasons[i]!, t.fromSpecificChain || null, t.toSpecificChain || null])));
  write(FORK_FILES.sourceTrades, toCsv(['id', 'timestamp', 'agentId', 'agent', 'fromToken', 'toToken', 'fromAmount', 'toAmount', 'tradeAmountUsd', 'fromSpecificChain', 'toSpecificChain'],
    trades.map((t) => [t.id, iso(t.timestamp), t.agentId, label.get(t.agentId)!, t.fromToken, t.toToken, t.fromAmount, t.toAmount, t.tradeAmountUsd, t.fromSpecificChain, t.toSpecificChain])));
  write(FORK_FILES.prices, `${JSON.stringify(tapeDoc)}\n`);
  write(FORK_FILES.competition, `${JSON.stringify({ competition: comp, rules: f.rules?.rules ?? null }, null, 2)}\n`);
  if (balances) write(FORK_FILES.balances, `${JSON.stringify(balances, null, 2)}\n`);
  const ranked = [...f.participants].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity));
  write(FORK_FILES.leaderboard, toCsv(['rank', 'agent', 'agentId', 'handle', 'value', 'active'],
    ranked.map((p) => [p.rank ?? null, label.get(p.id)!, p.id, p.handle ?? null, p.portfolioValue ?? p.score ?? null, p.active ?? null])));
  const timelineRows: (string | number)[][] = [];
  for (const a of f.timeline) for (const p of a.timeline ?? []) timelineRows.push([p.timestamp ?? p.date ?? '', label.get(a.agentId) ?? a.agentName ?? a.agentId, a.agentId, p.totalValue]);
  write(FORK_FILES.timeline, toCsv(['timestamp', 'agent', 'agentId', 'value'], timelineRows));

  const handles = new Set<string>();
  const fixture: WorldFixture & { snapshotIntervalMs: number } = {
    seed: 1, startTime: iso(start), prices: { kind: 'tape', tapes: derived.tapes }, snapshotIntervalMs: intervalMs,
    admin: { username: 'admin', email: 'admin@compsim.local', password: 'compsim-admin' },
    users: agents.map((a, i) => {
      let handle = a.handle && /^[a-z0-9_]{3,15}$/.test(a.handle) && !handles.has(a.handle) ? a.handle : `agent_${i + 1}`;
      while (handles.has(handle)) handle = `${handle.slice(0, 13)}_${i}`;
      handles.add(handle);
      return {
        walletAddress: `0x${createHash('sha256').update(`fork:${a.id}`).digest('hex').slice(0, 40)}`,
        agents: [{ name: label.get(a.id)!, handle }],
      };
    }),
    competitions: [],
  };
  const participantHandles = fixture.users!.map((u) => u.agents![0]!.handle!);
  const fc: FixtureCompetition = {
    name: String(comp.name ?? 'Forked competition'), status: 'active', participants: participantHandles,
    ...(typeof comp.description === 'string' ? { description: comp.description } : {}),
    ...(endDate !== undefined ? { endDate: iso(Math.max(endDate, end)) } : {}),
    ...(typeof comp.crossChainTradingType === 'string' ? { tradingType: comp.crossChainTradingType as FixtureCompetition['tradingType'] } : {}),
    ...(balances ? { paperTradingInitialBalances: balances } : {}),
    ...(comp.tradingConstraints && typeof comp.tradingConstraints === 'object' ? { tradingConstraints: comp.tradingConstraints as FixtureCompetition['tradingConstraints'] } : {}),
    ...(comp.paperTradingConfig && typeof comp.paperTradingConfig === 'object' ? { paperTradingConfig: comp.paperTradingConfig as FixtureCompetition['paperTradingConfig'] } : {}),
  };
  fixture.competitions = [fc];
  write(FORK_FILES.world, `${JSON.stringify(fixture)}\n`);

  const hashes = Object.fromEntries(Object.entries(files).map(([n, text]) => [n, sha256(text)]));
  const tapePoints = Object.values(derived.tapes).reduce((s, p) => s + p.length, 0);
  return {
    format: FORK_FORMAT,
    source: { url: args.from, competitionId: args.competition, name: String(comp.name ?? ''), status, type: String(comp.type ?? 'trading'), fetchedAt, apiKey: args.apiKey !== undefined },
    files: FORK_FILES,
    replay: { start: iso(start), end: iso(end), intervalMs, agents: agents.map((a) => label.get(a.id)!), rules: 'lenient' },
    counts: {
      agents: agents.length, participants: f.participantsTotal, trades: trades.length, tradesReported: f.tradesTotal, tradePages: f.tradePages,
      timelinePoints: points, snapshotInstants: instants.length, tokens: Object.keys(derived.tapes).length, tapePoints,
      leaderboardRows: Array.isArray(f.leaderboard?.leaderboard) ? (f.leaderboard.leaderboard as unknown[]).length : 0,
      requests: reader.stats.requests, retries: reader.stats.retries, answersFromCache: reader.stats.cached,
    },
    hashes,
    prices: { ...derived.stats, undeterminedTokens: derived.undeterminedTokens, unknownTokens: derived.unknownTokens },
    notExposed,
    warnings,
  };
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
  const cacheDir = join(args.out, '.fork-cache');
  const sourceFile = join(cacheDir, 'source.json');
  const source = JSON.stringify({ from: args.from, competitionId: args.competition });
  if (args.fresh) rmSync(cacheDir, { recursive: true, force: true });
  else if (existsSync(sourceFile) && readFileSync(sourceFile, 'utf8') !== source) {
    out.stderr.write(`compsim fork: ${args.out} holds answers of another fork (${readFileSync(sourceFile, 'utf8')}); pass --fresh or another --out\n`);
    return 1;
  }
  const progress = new Progress(out.stderr);
  const reader = new SourceReader({
    from: args.from, ...(args.apiKey !== undefined ? { apiKey: args.apiKey } : {}), concurrency: args.concurrency,
    ...(args.rate !== undefined ? { rate: args.rate } : {}), cacheDir, io, onAnswer: () => progress.tick(),
  });
  writeFileSync(sourceFile, source);
  try {
    const fetched = await readAll(args, reader, progress);
    progress.end();
    const manifest = await build(args, fetched, reader, new Date(io.now()).toISOString());
    writeFileSync(join(args.out, 'fork.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const c = manifest.counts;
    out.stdout.write(`forked '${manifest.source.name}' (${manifest.source.status}) from ${args.from}: ${c.agents} agents, ${c.trades} trades, `
      + `${c.tokens} price tapes (${c.tapePoints} points), ${iso(Date.parse(manifest.replay.start))} -> ${manifest.replay.end}\n`
      + `${c.requests} requests, ${c.answersFromCache} answers from the cache; written to ${args.out} (fork.json lists what the source does not expose)\n`);
    for (const w of manifest.warnings) out.stdout.write(`warning: ${w}\n`);
    return 0;
  } catch (err) {
    progress.end();
    if (!(err instanceof ForkSourceError)) throw err;
    out.stderr.write(`compsim fork: ${err.message}\n`);
    return 1;
  }
}
