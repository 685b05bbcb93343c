// Competition participants list: leaderboard rank and score, pnl and 24 h change from snapshots, vote counts, one-field sort, paging.
import type { ReadTx } from '../../ports/store.js';
import { requireCompetition } from './create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Competition, CompetitionAgent, PortfolioSnapshot } from '../model.js';
import { competitionRoster, leaderboardStandings, standingsKey, type Roster } from '../rankings/leaderboard.js';
import { agentRiskMetrics, type RiskMetrics } from '../rankings/risk-metrics.js';
import type { Tables } from '../tables.js';
import { memoDef } from '../data/caches.js';
import { pairKey } from '../data/keys.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Agent row fields the list sorts by (upstream's "DB" sort fields). */
const AGENT_FIELDS = ['id', 'ownerId', 'walletAddress', 'name', 'handle', 'status', 'createdAt', 'updatedAt'] as const;
/** Computed sort fields; `position` and `voteCount` are the spec era's (superset). */
const COMPUTED_FIELDS = [
  'rank', 'position', 'score', 'portfolioValue', 'pnl', 'pnlPercent', 'change24h', 'change24hPercent', 'voteCount',
  'calmarRatio', 'sortinoRatio', 'simpleReturn', 'maxDrawdown', 'downsideDeviation',
] as const;
/** Sort fields computed from an agent's snapshot series (the rest need only the leaderboard). */
const SERIES_FIELDS: readonly string[] = [
  'pnl', 'pnlPercent', 'change24h', 'change24hPercent', 'calmarRatio', 'sortinoRatio', 'simpleReturn', 'maxDrawdown', 'downsideDeviation',
];
/** Every accepted `sort` value (each may carry a leading `-`). */
export const PARTICIPANT_SORT_FIELDS: readonly string[] = [...AGENT_FIELDS, ...COMPUTED_FIELDS];

/** Input of {@link competitionParticipants} (schema defaults applied). */
export interface ParticipantsInput {
  competitionId: string; filter?: string; sort: string; limit: number; offset: number; includeInactive: boolean;
}

/** One participant with its computed metrics (risk metrics exist for perps only: null otherwise). */
export interface ParticipantRow {
  agent: Agent; registration: CompetitionAgent;
  rank: number; score: number; pnl: number; pnlPercent: number; change24h: number; change24hPercent: number; voteCount: number;
  risk: RiskMetrics | null;
}

/** Result of {@link competitionParticipants}. */
export interface ParticipantsResult { competition: Competition; rows: ParticipantRow[]; total: number }

function sortKey(row: ParticipantRow, field: string): unknown {
  if ((AGENT_FIELDS as readonly string[]).includes(field)) return row.agent[field as keyof Agent];
  switch (field) {
    case 'position': return row.rank;
    case 'portfolioValue': return row.score;
    case 'rank': case 'score': case 'pnl': case 'pnlPercent': case 'change24h': case 'change24hPercent': case 'voteCount':
      return row[field];
    case 'calmarRatio': case 'sortinoRatio': case 'simpleReturn': case 'maxDrawdown': case 'downsideDeviation':
      return row.risk?.[field] ?? null;
    default: return null;
  }
}

/** Numbers numerically, strings with localeCompare, nulls first (so last when descending). */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function parseParticipantSort(sort: string): { field: string; desc: boolean } {
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  if (!PARTICIPANT_SORT_FIELDS.includes(field)) throw new DomainError('PARTICIPANTS_BAD_SORT', { field: sort });
  return { field, desc };
}

/** Change of `current` against a reference value: zero unless the reference is positive. */
function change(current: number, ref: number | undefined): [number, number] {
  if (ref === undefined || !(ref > 0)) return [0, 0];
  const diff = current - ref;
  return [diff, (diff / ref) * 100];
}

/** The snapshot closest in time to `target` (on a tie the earlier one). */
function closest(snaps: readonly PortfolioSnapshot[], target: number): PortfolioSnapshot | undefined {
  let best: PortfolioSnapshot | undefined;
  for (const s of snaps) if (!best || Math.abs(s.timestamp - target) < Math.abs(best.timestamp - target)) best = s;
  return best;
}

function earliest(snaps: readonly PortfolioSnapshot[]): PortfolioSnapshot | undefined {
  let best: PortfolioSnapshot | undefined;
  for (const s of snaps) if (!best || s.timestamp < best.timestamp) best = s;
  return best;
}

/**
 * What the list of one competition computes before paging, from the tables alone: the roster
 * (registrations and agents), each registration's leaderboard rank and score, vote counts, and
 * per query shape (filter, includeInactive, sort) the rows and their order. Rows never carry the
 * page-only metrics (pnl, the 24 h change, risk), which are filled into copies.
 */
interface ListBase {
  roster: Roster;
  /** Per roster position: leaderboard rank (0: not on the leaderboard) and score. */
  rank: Int32Array;
  score: Float64Array;
  votes: Map<string, number>;
  /** Live leaderboard values (clock and prices): never cached. */
  live: boolean;
  /** Query shape -> rows (metrics zero) and their sorted order (sorts by a series field are not kept). */
  views: Map<string, { rows: ParticipantRow[]; order: number[] | null }>;
}

/** Query shapes kept per base (the default list and a few filters). */
const VIEW_LIMIT = 16;

/** Memoised while registrations, agents, snapshots, frozen leaderboards and votes are unchanged (a trade changes none). */
const LIST_BASE = memoDef<ListBase>(['competitionAgents', 'agents', 'snapshots', 'leaderboards', 'votes']);

function listBase(deps: Deps, tx: ReadTx<Tables>, comp: Competition): ListBase {
  const roster = competitionRoster(deps, tx, comp.id);
  const standings = leaderboardStandings(deps, tx, comp);
  const rank = new Int32Array(roster.entries.length);
  const score = new Float64Array(roster.entries.length);
  standings.values.forEach((v, i) => {
    const at = roster.index.get(v.agentId);
    if (at !== undefined) {
      rank[at] = i + 1;
      score[at] = v.value;
    }
  });
  const votes = new Map<string, number>();
  for (const v of tx.find('votes', 'competition', comp.id)) votes.set(v.agentId, (votes.get(v.agentId) ?? 0) + 1);
  return { roster, rank, score, votes, live: standings.live, views: new Map() };
}

/**
 * Rows of the registrations the query selects (registration order; agents that exist, active
 * unless `includeInactive`, names containing the filter), metrics zero. An agent that is not
 * active here, or has no leaderboard entry, gets score 0 and rank = total (last place).
 */
function baseRows(base: ListBase, input: ParticipantsInput): ParticipantRow[] {
  const needle = input.filter?.toLowerCase();
  const selected: number[] = [];
  base.roster.entries.forEach(({ registration, agent, name }, i) => {
    if (agent === undefined || (!input.includeInactive && registration.status !== 'active')) return;
    if (needle && !name.includes(needle)) return;
    selected.push(i);
  });
  const total = selected.length;
  const voted = base.votes.size > 0;
  return selected.map((i) => {
    const { agent, registration } = base.roster.entries[i]!;
    const ranked = registration.status === 'active' && base.rank[i]! > 0;
    return {
      agent: agent!, registration, rank: ranked ? base.rank[i]! : total, score: ranked ? base.score[i]! : 0,
      pnl: 0, pnlPercent: 0, change24h: 0, change24hPercent: 0, voteCount: voted ? base.votes.get(agent!.id) ?? 0 : 0, risk: null,
    };
  });
}

/** Positions of `rows` sorted by `field` (stable: ties keep registration order). */
function sortOrder(rows: readonly ParticipantRow[], field: string, desc: boolean): number[] {
  // Sort keys computed once per row, not per comparison.
  const keys = rows.map((row) => sortKey(row, field));
  return rows.map((_, i) => i).sort((x, y) => {
    const c = compareValues(keys[x], keys[y]);
    return c !== 0 ? (desc ? -c : c) : x - y;
  });
}

/**
 * `GET /api/competitions/{competitionId}/agents` (reference §4.4). Score and rank come from the
 * leaderboard value source; an agent that is not active here, or has no leaderboard entry, gets
 * score 0 and rank = total (last place). pnl is measured against the agent's earliest snapshot,
 * the 24 h change against the snapshot closest to T - 24 h (T = end date once ended, else now).
 */
export async function competitionParticipants(deps: Deps, input: ParticipantsInput): Promise<ParticipantsResult> {
  const { field, desc } = parseParticipantSort(input.sort);
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, input.competitionId);
    const base = deps.caches.memo(LIST_BASE).get(tx, standingsKey(competition), () => listBase(deps, tx, competition), (b) => !b.live);
    const bySeries = SERIES_FIELDS.includes(field);
    const shape = `${input.includeInactive ? 1 : 0}${bySeries ? '' : `${desc ? '-' : '+'}${field}`}\n${input.filter ?? ''}`;
    let view = base.views.get(shape);
    if (view === undefined) {
      const rows = baseRows(base, input);
      view = { rows, order: bySeries ? null : sortOrder(rows, field, desc) };
      if (base.views.size >= VIEW_LIMIT) base.views.clear();
      base.views.set(shape, view);
    }
    const at = competition.status === 'ended' && competition.endDate !== null ? competition.endDate : deps.clock.now();
    // pnl, the 24 h change and risk metrics read an agent's whole snapshot series (and the 24 h
    // change the clock): only for the page shown, unless the list is sorted by one of them (10k
    // participants, one page of 50). They are filled into copies: the view's rows are shared.
    const metrics = (template: ParticipantRow): ParticipantRow => {
      const row = { ...template };
      const snaps = tx.find('snapshots', 'agentCompetition', pairKey(row.agent.id, competition.id));
      [row.pnl, row.pnlPercent] = change(row.score, earliest(snaps)?.totalValue);
      [row.change24h, row.change24hPercent] = change(row.score, closest(snaps, at - DAY_MS)?.totalValue);
      if (competition.type === 'perpetual_futures') row.risk = agentRiskMetrics(tx, competition.id, row.agent.id);
      return row;
    };
    const total = view.rows.length;
    if (view.order === null) {
      const rows: ParticipantRow[] = [];
      for (const row of view.rows) rows.push(metrics(row));
      const page = sortOrder(rows, field, desc).slice(input.offset, input.offset + input.limit).map((i) => rows[i]!);
      return { competition, rows: page, total };
    }
    const page: ParticipantRow[] = [];
    for (const i of view.order.slice(input.offset, input.offset + input.limit)) page.push(metrics(view.rows[i]!));
    return { competition, rows: page, total };
  });
}
