// `compsim fork`'s reads: the competition, its rules, every page of participants and trades (paging that stops on a short, empty or repeated page, under a cap), the timeline and the older-era leaderboard.
import { AnswerChecks, type ForkAnswer } from './fork-schemas.js';
import { ForkSourceError, pool, type SourceReader } from './fork-fetch.js';

/** Largest page the list endpoints serve. */
export const PAGE = 100;
/** Timeline bucket (minutes): one point per snapshot at the default 5-minute interval. */
const BUCKET = 1;
/** Most participants a fork reads (a declared total above it is refused). */
export const MAX_PARTICIPANTS = 100_000;
/** Most trades a fork reads (a declared total above it is refused). */
export const MAX_TRADES = 1_000_000;

/** A participant as the list gives it (checked: `id` and `name` are text). */
export interface Participant { id: string; name: string; handle?: string; active?: boolean; rank?: number; portfolioValue?: number; score?: number; description?: string | null }

/** One agent's timeline as the source gives it. */
export interface TimelineSeries { agentId: string; agentName?: string; timeline: { timestamp?: string; date?: string; totalValue?: number }[] }

/** Everything read from the source. */
export interface Fetched {
  competition: Record<string, unknown>;
  rules: Record<string, unknown> | null;
  participants: Participant[];
  participantsTotal: number;
  trades: Record<string, unknown>[];
  tradesTotal: number;
  tradePages: number;
  timeline: TimelineSeries[];
  leaderboard: Record<string, unknown> | null;
  missing: { field: string; instead: string }[];
  warnings: string[];
}

/** What reading needs: the reader, the competition, whether a key is used, the concurrency, and the progress counter. */
export interface ReadContext {
  reader: SourceReader;
  competition: string;
  apiKey: boolean;
  concurrency: number;
  /** Adds `n` answers to wait for (the progress bar's total). */
  expect(n: number): void;
}

/** One paged list: what to ask, where the rows are, the cap on its declared total. */
interface PagedList {
  name: string; path: string; field: 'agents' | 'trades'; kind: ForkAnswer; cap: number; what: string;
  query: (offset: number) => Record<string, string>;
  keep?: (body: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * Every page of a list. The first page's declared total (`pagination.total`, else `total`) plans the
 * pages, and a total above the list's cap is refused; without one the list is read until it ends,
 * up to the cap. Pages are read `concurrency` at a time, in order, and reading stops at the first
 * short, empty or repeated page (one whose rows were all seen), whatever the total said.
 */
async function readPages(ctx: ReadContext, checks: AnswerChecks, list: PagedList): Promise<{ bodies: Record<string, unknown>[]; declared: number | undefined }> {
  const get = (offset: number) => ctx.reader.get(`${list.name}-${offset}`, list.path, list.query(offset), { validate: checks.check(list.kind), ...(list.keep ? { keep: list.keep } : {}) });
  const first = await get(0);
  const pagination = first.pagination as { total?: unknown } | undefined;
  const total = pagination?.total ?? first.total;
  const declared = typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : undefined;
  if (declared !== undefined && declared > list.cap) {
    throw new ForkSourceError(`the source declares ${declared} ${list.what} (${list.path}), more than the ${list.cap} fork reads`);
  }
  const planned = Math.max(1, Math.ceil((declared ?? list.cap) / PAGE));
  if (declared !== undefined) ctx.expect(planned - 1);
  const bodies = [first];
  const seen = new Set<string>();
  const fresh = (body: Record<string, unknown>) => {
    const rows = body[list.field] as { id?: unknown }[];
    const ids = rows.map((r) => String(r.id));
    const isNew = ids.some((id) => !seen.has(id));
    for (const id of ids) seen.add(id);
    // A source that declares no total, or pages past the page size, is still held to the cap.
    if (seen.size > list.cap) throw new ForkSourceError(`the source lists more than the ${list.cap} ${list.what} fork reads (${list.path})`);
    return { size: rows.length, isNew };
  };
  let last = fresh(first);
  while (bodies.length < planned && last.size >= PAGE && last.isNew) {
    const offsets = Array.from({ length: Math.min(ctx.concurrency, planned - bodies.length) }, (_, i) => (bodies.length + i) * PAGE);
    if (declared === undefined) ctx.expect(offsets.length);
    const got = await pool(ctx.concurrency, offsets.map((o) => () => get(o)));
    for (const body of got) {
      last = fresh(body);
      if (last.size === 0 || !last.isNew) break;
      bodies.push(body);
      if (last.size < PAGE) break;
    }
  }
  return { bodies, declared };
}

/** The competition; a 404 names the id, a non-trading competition is refused. */
async function readCompetition(ctx: ReadContext, checks: AnswerChecks, id: string): Promise<Record<string, unknown>> {
  let detail: Record<string, unknown>;
  try {
    detail = await ctx.reader.get('competition', `/api/competitions/${id}`, {}, { validate: checks.check('competition') });
  } catch (err) {
    if (err instanceof ForkSourceError && err.status === 404) throw new ForkSourceError(`the source has no competition '${ctx.competition}' (404${err.sourceError ? ` ${err.sourceError}` : ''})`, 404);
    throw err;
  }
  const competition = detail.competition as Record<string, unknown>;
  if (competition.type !== undefined && competition.type !== 'trading') {
    throw new ForkSourceError(`competition '${ctx.competition}' is a ${JSON.stringify(competition.type).slice(0, 40)} competition; fork reads paper-trading competitions only`);
  }
  return competition;
}

/** An answer a source may refuse (the older-era leaderboard, the rules): null with a note, when it answers with an HTTP status. */
async function optional(read: () => Promise<Record<string, unknown>>, missing: Fetched['missing'], field: string, instead: (status: number) => string): Promise<Record<string, unknown> | null> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof ForkSourceError) || err.status === undefined || err.status < 400) throw err;
    missing.push({ field, instead: instead(err.status) });
    return null;
  }
}

/** The timeline, read again with the bucket a source that caps it suggests (a larger one, at most a day). */
async function readTimeline(ctx: ReadContext, checks: AnswerChecks, id: string, missing: Fetched['missing']): Promise<TimelineSeries[]> {
  let bucket = BUCKET;
  for (;;) {
    try {
      const body = await ctx.reader.get(`timeline-${bucket}`, `/api/competitions/${id}/timeline`, { bucket: String(bucket) }, { validate: checks.check('timeline') });
      if (bucket !== BUCKET) {
        missing.push({ field: 'every portfolio snapshot', instead: `the source caps its timeline: read with bucket=${bucket}, the latest snapshot per ${bucket} minutes (the solved prices rest on those instants only)` });
      }
      return body.timeline as TimelineSeries[];
    } catch (err) {
      const suggested = err instanceof ForkSourceError && err.status === 400 ? Number(/bucket=(\d{1,4})\s*$/.exec(err.sourceError ?? '')?.[1]) : NaN;
      if (!(suggested > bucket && suggested <= 1440)) throw err;
      bucket = suggested;
      ctx.expect(1);
    }
  }
}

/** Participants, deduplicated by id in list order. */
function participantsOf(bodies: readonly Record<string, unknown>[]): Participant[] {
  const seen = new Set<string>();
  const out: Participant[] = [];
  for (const b of bodies) {
    for (const a of b.agents as Participant[]) {
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      out.push(a);
    }
  }
  return out;
}

/** Reads everything the fork needs from the source. */
export async function readSource(ctx: ReadContext): Promise<Fetched> {
  const checks = new AnswerChecks();
  const id = encodeURIComponent(ctx.competition);
  const missing: Fetched['missing'] = [];
  ctx.expect(ctx.apiKey ? 6 : 5);
  const competition = await readCompetition(ctx, checks, id);
  const rules = await optional(() => ctx.reader.get('rules', `/api/competitions/${id}/rules`, {}, { validate: checks.check('rules') }), missing, 'rules', (s) => `not read (the source answered ${s})`);
  const agents = await readPages(ctx, checks, {
    name: 'agents', path: `/api/competitions/${id}/agents`, field: 'agents', kind: 'agents', cap: MAX_PARTICIPANTS, what: 'participants',
    query: (offset) => ({ limit: String(PAGE), offset: String(offset), includeInactive: 'true' }),
  });
  const participants = participantsOf(agents.bodies);
  const trades = await readTrades(ctx, checks, id);
  const timeline = await readTimeline(ctx, checks, id, missing);
  const leaderboard = ctx.apiKey
    ? await optional(() => ctx.reader.get('leaderboard', '/api/competitions/leaderboard', { competitionId: ctx.competition }, { validate: checks.check('leaderboard') }), missing,
      'GET /api/competitions/leaderboard (older era)', (s) => `not available (the source answered ${s}); the participants list gives the ranking`)
    : (missing.push({ field: 'GET /api/competitions/leaderboard (older era, needs a key)', instead: 'not read; the participants list gives the ranking' }), null);
  const warnings: string[] = [];
  if (trades.list.length !== trades.total) warnings.push(`the source reported ${trades.total} trades and listed ${trades.list.length} distinct ones (trades written while forking, or a source that pages wrongly?)`);
  return {
    competition, rules, participants, participantsTotal: agents.declared ?? participants.length, trades: trades.list, tradesTotal: trades.total, tradePages: trades.pages,
    timeline, leaderboard, missing, warnings,
  };
}

/** Every trade (newest first, pages of 100), deduplicated by id; a 401 says a key is needed. */
async function readTrades(ctx: ReadContext, checks: AnswerChecks, id: string): Promise<{ list: Record<string, unknown>[]; total: number; pages: number }> {
  let read;
  try {
    read = await readPages(ctx, checks, {
      name: 'trades', path: `/api/competitions/${id}/trades`, field: 'trades', kind: 'trades', cap: MAX_TRADES, what: 'trades',
      query: (offset) => ({ limit: String(PAGE), offset: String(offset) }),
      // Each page repeats the competition: the cache keeps only the trades and the count.
      keep: (b) => ({ trades: b.trades, total: b.total, pagination: b.pagination }),
    });
  } catch (err) {
    if (err instanceof ForkSourceError && err.status === 401) {
      throw new ForkSourceError(`the source lists a competition's trades only to an agent or admin key: pass --api-key (401${err.sourceError ? ` ${err.sourceError}` : ''})`, 401);
    }
    throw err;
  }
  const byId = new Map<string, Record<string, unknown>>();
  for (const b of read.bodies) for (const t of b.trades as Record<string, unknown>[]) if (!byId.has(String(t.id))) byId.set(String(t.id), t);
  return { list: [...byId.values()], total: read.declared ?? byId.size, pages: read.bodies.length };
}
