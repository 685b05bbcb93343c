// Public agent views: the filtered, sorted list and one agent's profile with stats, trophies, skills and reward state.
import type { ReadTx } from '../../ports/store.js';
import { AGENT_SORT_FIELDS, WALLET_RE } from './manage.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, AgentRating, CompetitionType, User } from '../model.js';
import { sortRows, type SortSpec } from '../data/paging.js';
import { globalRatings } from '../rankings/rating.js';
import { agentRewards } from '../competitions/rewards.js';
import type { Tables } from '../tables.js';
import { agentVoteCount } from '../competitions/votes.js';

/**
 * Parses upstream's comma-separated sort (up to 3 fields, `-` = descending; empty = storage
 * order). Unknown fields and longer lists are 400s under the endpoint's message `prefix`.
 */
export function parseListSort(sort: string | undefined, allowed: readonly string[], prefix: string): SortSpec {
  if (!sort) return [];
  const parts = sort.split(',');
  if (parts.length > 3) throw new DomainError('LIST_SORT_TOO_LONG', { prefix });
  return parts.map((part) => {
    const desc = part.startsWith('-');
    const field = desc ? part.slice(1) : part;
    if (!allowed.includes(field)) throw new DomainError('LIST_BAD_SORT', { prefix, field });
    return { field, desc };
  });
}

/** Input of {@link listPublicAgents} (schema defaults applied). */
export interface PublicAgentsInput { filter?: string; sort: string; limit: number; offset: number }

/**
 * `GET /api/agents`: agents of the current generation, storage order unless sorted. A `filter`
 * shaped like a wallet (`0x` + 40 hex) matches the agent wallet exactly (case-insensitively);
 * anything else is a case-insensitive name prefix. `total` counts what the filter matches.
 */
export async function listPublicAgents(deps: Deps, input: PublicAgentsInput): Promise<{ agents: Agent[]; total: number }> {
  const spec = parseListSort(input.sort, AGENT_SORT_FIELDS, 'Invalid request');
  let rows = (await deps.store.read((tx) => tx.all('agents'))).filter((a) => a.generation === 'current');
  const f = input.filter;
  if (f) {
    const needle = f.toLowerCase();
    rows = WALLET_RE.test(f) ? rows.filter((a) => a.walletAddress === needle) : rows.filter((a) => a.name.toLowerCase().startsWith(needle));
  }
  return { agents: sortRows(rows, spec).slice(input.offset, input.offset + input.limit), total: rows.length };
}

/** The agent's best final placement: its minimum final rank over ended competitions. */
export interface BestPlacement { competitionId: string; rank: number; score: number; totalAgents: number }

/** A rank of the agent in one competition type's global ranking (dense: equal scores share a rank). */
export interface TypeRank { type: CompetitionType; rank: number; score: number }

/** Stats of the agent detail. `rank`/`score` are absent until the agent has a rating. */
export interface PublicAgentStats {
  completedCompetitions: number; totalTrades: number; totalPositions: number; totalVotes: number;
  bestPlacement?: BestPlacement; rank?: number; score?: number;
  /** Absent (upstream omits it) until the agent has a global rating. */
  ranks?: TypeRank[];
}

/** A trophy: one per ended competition the agent finished as an active participant. */
export interface Trophy { competitionId: string; name: string; rank: number; imageUrl: string; createdAt: number }

/** Result of {@link publicAgentDetail}. */
export interface PublicAgentDetail {
  agent: Agent; owner: User | null; stats: PublicAgentStats; trophies: Trophy[]; skills: string[]; hasUnclaimedRewards: boolean;
}

function metadataField(agent: Agent, key: string): unknown {
  const m = agent.metadata;
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as Record<string, unknown>)[key] : undefined;
}

/** Spec-era rank/score from the agent's best global rating, plus the per-type dense ranks. */
function ratingStats(all: readonly AgentRating[], agentId: string): Pick<PublicAgentStats, 'rank' | 'score' | 'ranks'> {
  const out: Pick<PublicAgentStats, 'rank' | 'score' | 'ranks'> = {};
  const ranks: TypeRank[] = [];
  const best = all.findIndex((r) => r.agentId === agentId);
  if (best >= 0) {
    out.rank = best + 1;
    out.score = all[best]!.ordinal;
  }
  for (const own of all.filter((r) => r.agentId === agentId)) {
    const higher = new Set(all.filter((r) => r.type === own.type && r.ordinal > own.ordinal).map((r) => r.ordinal));
    ranks.push({ type: own.type, rank: higher.size + 1, score: own.ordinal });
  }
  if (ranks.length > 0) out.ranks = ranks;
  return out;
}

function competitionStats(tx: ReadTx<Tables>, agent: Agent): { stats: Omit<PublicAgentStats, 'rank' | 'score' | 'ranks'>; trophies: Trophy[] } {
  let completed = 0;
  let best: BestPlacement | undefined;
  const trophies: (Trophy & { endedAt: number })[] = [];
  for (const reg of tx.find('competitionAgents', 'agent', agent.id)) {
    const comp = tx.get('competitions', reg.competitionId);
    if (!comp || comp.status !== 'ended') continue;
    completed += 1;
    const row = tx.get('leaderboards', `${comp.id}:${agent.id}`);
    if (row && (!best || row.rank < best.rank)) best = { competitionId: comp.id, rank: row.rank, score: row.score, totalAgents: row.totalAgents };
    if (reg.status === 'active') {
      const endedAt = comp.endDate ?? comp.createdAt;
      trophies.push({ competitionId: comp.id, name: comp.name, rank: row?.rank ?? 0, imageUrl: comp.imageUrl ?? '', createdAt: endedAt, endedAt });
    }
  }
  // Newest end first; Array.prototype.sort is stable, so equal instants keep registration order.
  trophies.sort((a, b) => b.endedAt - a.endedAt);
  const stats = {
    completedCompetitions: completed, totalTrades: tx.count('trades', 'agent', agent.id), totalPositions: tx.count('perpsPositions', 'agent', agent.id),
    totalVotes: agentVoteCount(tx, agent.id), ...(best ? { bestPlacement: best } : {}),
  };
  return { stats, trophies: trophies.map(({ endedAt: _e, ...t }) => t) };
}

/**
 * `GET /api/agents/{agentId}`: the public agent, its owner (`null` if the user is gone), and:
 * - stats: `completedCompetitions` (ended competitions it was registered in, any participation
 *   status), `totalTrades` (all its trades), `totalPositions` (0: no perps positions are
 *   simulated), `totalVotes` (votes for it in all competitions), `bestPlacement` (its minimum final
 *   rank; first in registration order on a tie), `rank`/`score` (its best global rating: position
 *   among all global ratings of every type, best first, and that rating's score), `ranks` (per type);
 * - trophies: one per ended competition where its registration is active, newest end first;
 * - skills: `metadata.skills` when it is an array, else `[]` (upstream copies it);
 * - hasUnclaimedRewards: `metadata.hasUnclaimedRewards === true`, or any earned reward not claimed.
 */
export async function publicAgentDetail(deps: Deps, agentId: string): Promise<PublicAgentDetail> {
  return deps.store.read((tx) => {
    const agent = tx.get('agents', agentId);
    if (!agent || agent.generation !== 'current') throw new DomainError('AGENT_NOT_FOUND');
    const owner = (tx.get('users', agent.ownerId)) ?? null;
    const { stats, trophies } = competitionStats(tx, agent);
    const skills = metadataField(agent, 'skills');
    const unclaimed = (agentRewards(tx, agent)).some((r) => !r.claimed);
    return {
      agent, owner, stats: { ...stats, ...ratingStats(globalRatings(tx), agent.id) }, trophies,
      skills: Array.isArray(skills) ? skills.filter((s): s is string => typeof s === 'string') : [],
      hasUnclaimedRewards: metadataField(agent, 'hasUnclaimedRewards') === true || unclaimed,
    };
  });
}
