// Competition participants list: leaderboard rank and score, pnl and 24 h change from snapshots, vote counts, one-field sort, paging.
import type { ReadTx } from '../ports/store.js';
import { requireCompetition } from './competitions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import type { Agent, Competition, CompetitionAgent, PortfolioSnapshot } from './model.js';
import { leaderboardValues } from './leaderboard.js';
import { agentRiskMetrics, type RiskMetrics } from './risk-metrics.js';
import type { Tables } from './tables.js';
import { pairKey } from './keys.js';

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

async function registrations(tx: ReadTx<Tables>, comp: Competition, input: ParticipantsInput): Promise<{ agent: Agent; registration: CompetitionAgent }[]> {
  const needle = input.filter?.toLowerCase();
  const out: { agent: Agent; registration: CompetitionAgent }[] = [];
  for (const registration of await tx.find('competitionAgents', 'competition', comp.id)) {
    if (!input.includeInactive && registration.status !== 'active') continue;
    const agent = await tx.get('agents', registration.agentId);
    if (!agent) continue;
    if (needle && !agent.name.toLowerCase().includes(needle)) continue;
    out.push({ agent, registration });
  }
  return out;
}

/**
 * `GET /api/competitions/{competitionId}/agents` (reference §4.4). Score and rank come from the
 * leaderboard value source; an agent that is not active here, or has no leaderboard entry, gets
 * score 0 and rank = total (last place). pnl is measured against the agent's earliest snapshot,
 * the 24 h change against the snapshot closest to T - 24 h (T = end date once ended, else now).
 */
export async function competitionParticipants(deps: Deps, input: ParticipantsInput): Promise<ParticipantsResult> {
  const { field, desc } = parseParticipantSort(input.sort);
  return deps.store.read(async (tx) => {
    const competition = await requireCompetition(tx, input.competitionId);
    const members = await registrations(tx, competition, input);
    const total = members.length;
    const board = new Map((await leaderboardValues(deps, tx, competition)).map((v, i) => [v.agentId, { score: v.value, rank: i + 1 }]));
    const votes = new Map<string, number>();
    for (const v of await tx.find('votes', 'competition', competition.id)) votes.set(v.agentId, (votes.get(v.agentId) ?? 0) + 1);
    const at = competition.status === 'ended' && competition.endDate !== null ? competition.endDate : deps.clock.now();
    const rows: ParticipantRow[] = [];
    for (const { agent, registration } of members) {
      const entry = registration.status === 'active' ? board.get(agent.id) : undefined;
      rows.push({
        agent, registration, rank: entry?.rank ?? total, score: entry?.score ?? 0, pnl: 0, pnlPercent: 0, change24h: 0, change24hPercent: 0,
        voteCount: votes.get(agent.id) ?? 0, risk: null,
      });
    }
    // pnl, the 24 h change and risk metrics read an agent's whole snapshot series: only for the page
    // shown, unless the list is sorted by one of them (10k participants, one page of 50).
    const metrics = async (row: ParticipantRow) => {
      const snaps = await tx.find('snapshots', 'agentCompetition', pairKey(row.agent.id, competition.id));
      [row.pnl, row.pnlPercent] = change(row.score, earliest(snaps)?.totalValue);
      [row.change24h, row.change24hPercent] = change(row.score, closest(snaps, at - DAY_MS)?.totalValue);
      if (competition.type === 'perpetual_futures') row.risk = await agentRiskMetrics(tx, competition.id, row.agent.id);
    };
    const bySeries = SERIES_FIELDS.includes(field);
    if (bySeries) for (const row of rows) await metrics(row);
    // Sort keys computed once per row, not per comparison.
    const keys = rows.map((row) => sortKey(row, field));
    const order = rows.map((_, i) => i).sort((x, y) => {
      const c = compareValues(keys[x], keys[y]);
      return c !== 0 ? (desc ? -c : c) : x - y;
    });
    const page = order.slice(input.offset, input.offset + input.limit).map((i) => rows[i]!);
    if (!bySeries) for (const row of page) await metrics(row);
    return { competition, rows: page, total };
  });
}
