// Public competition views: the paged list, the detail with stats and rewards, the older era's status and upcoming lists.
import type { ReadTx } from '../../ports/store.js';
import { requireCompetition } from './create.js';
import type { Deps } from '../deps.js';
import type { Competition, CompetitionStatus, Principal } from '../model.js';
import { activeCompetitionsFor, isActiveParticipant } from '../rankings/leaderboard.js';
import { parseSort, sortRows } from '../data/paging.js';
import { perpsTotals } from '../perps/views.js';
import type { Tables } from '../tables.js';
import { versionRule, type StatsKey } from '../versions.js';
import { competitionListVotingState, competitionVoteCount, competitionVotingState, type UserVotingState } from './votes.js';

/** Sort fields of `GET /api/competitions`; `createdDate` (the spec's name) is an alias of `createdAt`. */
export const COMPETITION_SORT_FIELDS = [
  'id', 'name', 'description', 'externalUrl', 'imageUrl', 'startDate', 'endDate', 'createdAt', 'createdDate',
] as const;

/** Input of {@link listCompetitions} (defaults already applied by the schema). */
export interface ListCompetitionsInput { principal: Principal; status: CompetitionStatus; sort: string; limit: number; offset: number }

/** Vote fields an agent caller sees on each listed competition (its owner is the voting user). */
export interface ListVoting { votingEnabled: boolean; totalVotes: number; userVotingInfo: UserVotingState }

/** One listed competition, with vote fields for agent callers. */
export interface ListedCompetition { competition: Competition; voting: ListVoting | null }

/**
 * `GET /api/competitions`: competitions of one status (the spec's default `active`), sorted by up
 * to three fields (default `createdDate` ascending), then paged. Unknown sort fields -> 400.
 */
export async function listCompetitions(deps: Deps, input: ListCompetitionsInput): Promise<{ competitions: ListedCompetition[]; total: number }> {
  const spec = parseSort(input.sort, COMPETITION_SORT_FIELDS).map((s) => (s.field === 'createdDate' ? { ...s, field: 'createdAt' } : s));
  const { principal } = input;
  return deps.store.read((tx) => {
    const rows = sortRows(tx.find('competitions', 'status', input.status), spec);
    const page = rows.slice(input.offset, input.offset + input.limit);
    const now = deps.clock.now();
    const competitions: ListedCompetition[] = [];
    for (const competition of page) {
      let voting: ListVoting | null = null;
      if (principal.kind === 'agent') {
        const state = competitionListVotingState(tx, competition, principal.ownerId, now);
        voting = {
          votingEnabled: state.canVote || state.info.hasVoted, totalVotes: competitionVoteCount(tx, competition.id), userVotingInfo: state,
        };
      }
      competitions.push({ competition, voting });
    }
    return { competitions, total: rows.length };
  });
}

/** Statistics of a competition: the keys the API version gives for its type (rules table, `competitionStatsKeys`). */
export type CompetitionStats = Partial<Record<StatsKey, number>>;

/** Result of {@link competitionDetail}. */
export interface CompetitionDetail {
  competition: Competition;
  stats: CompetitionStats;
  /** Reward per rank; `agentId` is the agent at that rank of the frozen leaderboard once ended. */
  rewards: { rank: number; reward: number; agentId: string | null }[];
  votingEnabled: boolean;
  /** The caller's owner's voting state (agent callers only). */
  userVotingInfo: UserVotingState | null;
}

function stats(deps: Deps, tx: ReadTx<Tables>, comp: Competition): CompetitionStats {
  const all = allStats(deps, tx, comp);
  const keys = versionRule(deps, 'competitionStatsKeys')[comp.type === 'perpetual_futures' ? 'perps' : 'other'];
  const out: CompetitionStats = {};
  for (const k of keys) if (all[k] !== undefined) out[k] = all[k];
  return out;
}

function allStats(deps: Deps, tx: ReadTx<Tables>, comp: Competition): CompetitionStats {
  if (comp.type === 'perpetual_futures') {
    // Upstream's perps stats: positions, the accounts' volume and mean equity, no trades.
    const t = perpsTotals(deps, tx, comp);
    return {
      totalAgents: comp.registeredParticipants, totalPositions: t.totalPositions, totalVolume: t.totalVolume, averageEquity: t.averageEquity,
      totalTrades: 0, totalVotes: competitionVoteCount(tx, comp.id), uniqueTokens: 0,
    };
  }
  const trades = tx.find('trades', 'competition', comp.id);
  const tokens = new Set<string>();
  for (const t of trades) tokens.add(t.fromToken).add(t.toToken);
  return {
    totalTrades: trades.length, totalAgents: comp.registeredParticipants,
    totalVolume: trades.reduce((sum, t) => sum + t.tradeAmountUsd, 0),
    totalVotes: competitionVoteCount(tx, comp.id), uniqueTokens: tokens.size, totalPositions: 0,
  };
}

/** `GET /api/competitions/{competitionId}`: the row, stats, rewards with winners, and the caller's voting state. */
export async function competitionDetail(deps: Deps, input: { principal: Principal; competitionId: string }): Promise<CompetitionDetail> {
  const { principal } = input;
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, input.competitionId);
    const frozen = competition.status === 'ended' ? tx.find('leaderboards', 'competition', competition.id) : [];
    const winner = new Map(frozen.map((r) => [r.rank, r.agentId]));
    const rewards = competition.rewards.map((r) => ({ rank: r.rank, reward: r.reward, agentId: winner.get(r.rank) ?? null }));
    let userVotingInfo: UserVotingState | null = null;
    if (principal.kind === 'agent') userVotingInfo = competitionVotingState(tx, competition, principal.ownerId, deps.clock.now());
    return {
      competition, stats: stats(deps, tx, competition), rewards, userVotingInfo,
      votingEnabled: userVotingInfo ? userVotingInfo.canVote || userVotingInfo.info.hasVoted : false,
    };
  });
}

/** Result of {@link competitionStatus}: which of upstream's four answers applies. */
export type CompetitionStatusView =
  | { kind: 'none' }
  | { kind: 'admin' | 'participating' | 'notParticipating' | 'anonymous'; competition: Competition };

/**
 * `GET /api/competitions/status` (the era before 2025-10-07): the active competition and whether
 * the caller takes part. With several active competitions an agent sees the one it is in.
 */
export async function competitionStatus(deps: Deps, principal: Principal): Promise<CompetitionStatusView> {
  return deps.store.read((tx) => {
    const competition = (activeCompetitionsFor(tx, principal))[0];
    if (!competition) return { kind: 'none' };
    if (principal.kind === 'admin') return { kind: 'admin', competition };
    if (principal.kind === 'anonymous') return { kind: 'anonymous', competition };
    const participating = isActiveParticipant(tx, competition.id, principal.agentId);
    return { kind: participating ? 'participating' : 'notParticipating', competition };
  });
}

/** `GET /api/competitions/upcoming` (the era before 2025-10-07): up to 100 pending competitions, storage order. */
export async function upcomingCompetitions(deps: Deps): Promise<Competition[]> {
  return deps.store.read((tx) => (tx.find('competitions', 'status', 'pending')).slice(0, 100));
}
