// The global leaderboard: agents ranked by rating score per competition type or per arena, with platform-wide stats.
import type { ReadTx } from '../../ports/store.js';
import { requireArena } from '../competitions/arenas.js';
import type { Deps } from '../deps.js';
import type { Agent, AgentRating, CompetitionType } from '../model.js';
import { boardKey, boardRatings } from './rating.js';
import type { Tables } from '../tables.js';
import { versionRule } from '../versions.js';
import { agentVoteCount } from '../competitions/votes.js';
import { memoDef } from '../data/caches.js';

/** Input of {@link globalLeaderboard} (schema defaults applied). */
export interface GlobalLeaderboardInput { type: CompetitionType; arenaId?: string; limit: number; offset: number }

/** One ranked agent. */
export interface GlobalLeaderboardEntry {
  agent: Agent; rating: AgentRating; rank: number; numCompetitions: number;
  /** Where the API version has it (rules table, `globalLeaderboardVoteCount`): votes for the agent in every competition. */
  voteCount?: number;
}

/** Platform stats over ended competitions of every type (the spec era's `stats` object). */
export interface GlobalStats {
  activeAgents: number; totalTrades: number; totalPositions: number; totalVolume: number; totalCompetitions: number;
}

/** Result of {@link globalLeaderboard}: `arenaId` set for an arena ranking, null for a type ranking. */
export interface GlobalLeaderboard { arenaId: string | null; entries: GlobalLeaderboardEntry[]; total: number; stats: GlobalStats }

/**
 * Stats over ended competitions (reference §5.3, spec era): `activeAgents` = distinct agents whose
 * registration is active in some ended competition; `totalTrades` and `totalVolume` (sum of
 * `tradeAmountUsd`) over trades of ended `trading` competitions; `totalPositions` = perps positions
 * of ended competitions; `totalCompetitions` = ended competitions. Zeros when nothing ended.
 */
export function globalStats(tx: ReadTx<Tables>): GlobalStats {
  const ended = tx.find('competitions', 'status', 'ended');
  const active = new Set<string>();
  let totalTrades = 0;
  let totalVolume = 0;
  for (const comp of ended) {
    for (const reg of tx.find('competitionAgents', 'competition', comp.id)) if (reg.status === 'active') active.add(reg.agentId);
    if (comp.type !== 'trading') continue;
    for (const t of tx.find('trades', 'competition', comp.id)) {
      totalTrades += 1;
      totalVolume += t.tradeAmountUsd;
    }
  }
  let totalPositions = 0;
  for (const c of ended) totalPositions += tx.count('perpsPositions', 'competition', c.id);
  return { activeAgents: active.size, totalTrades, totalPositions, totalVolume, totalCompetitions: ended.length };
}

/** The stats read every trade of the ended competitions: kept while those tables are unchanged. */
const STATS = memoDef<GlobalStats>(['competitions', 'competitionAgents', 'trades', 'perpsPositions'], 1);

/** Rated current-generation agents of one ranking, best first (frozen, shared). */
type Ranked = readonly { agent: Agent; rating: AgentRating }[];

/** One ranking per board key, kept while ratings and agents are unchanged. */
const RANKED = memoDef<Ranked>(['ratings', 'agents']);

function rankedAgents(tx: ReadTx<Tables>, key: string): Ranked {
  const ranked: { agent: Agent; rating: AgentRating }[] = [];
  for (const rating of boardRatings(tx, key)) {
    const agent = tx.get('agents', rating.agentId);
    if (agent && agent.generation === 'current') ranked.push({ agent, rating });
  }
  return Object.freeze(ranked);
}

/** Competitions the agent registered in (any status): all of them, or only those of one arena. */
function competitionCount(tx: ReadTx<Tables>, agentId: string, arenaId: string | null): number {
  const regs = tx.find('competitionAgents', 'agent', agentId);
  if (arenaId === null) return regs.length;
  let n = 0;
  for (const reg of regs) if ((tx.get('competitions', reg.competitionId))?.arenaId === arenaId) n += 1;
  return n;
}

/**
 * `GET /api/leaderboard`: with `arenaId`, the arena's ratings (the type is ignored; unknown arena
 * -> 404); otherwise the global ratings of `type`. Best score first (equal scores keep the order
 * in which the agents were first rated), `rank = offset + index + 1`. `numCompetitions` counts
 * the agent's registrations (in that arena only, for an arena ranking). Ratings of deleted agents
 * and of legacy teams are skipped.
 */
export async function globalLeaderboard(deps: Deps, input: GlobalLeaderboardInput): Promise<GlobalLeaderboard> {
  return deps.store.read((tx) => {
    const arenaId = input.arenaId ? (requireArena(tx, input.arenaId)).id : null;
    const key = arenaId !== null ? boardKey({ arenaId }) : boardKey({ type: input.type });
    const ranked = deps.caches.memo(RANKED).get(tx, key, () => rankedAgents(tx, key));
    const entries: GlobalLeaderboardEntry[] = [];
    const withVotes = versionRule(deps, 'globalLeaderboardVoteCount');
    for (const [i, r] of ranked.slice(input.offset, input.offset + input.limit).entries()) {
      const e: GlobalLeaderboardEntry = { ...r, rank: input.offset + i + 1, numCompetitions: competitionCount(tx, r.agent.id, arenaId) };
      if (withVotes) e.voteCount = agentVoteCount(tx, r.agent.id);
      entries.push(e);
    }
    const stats = deps.caches.memo(STATS).get(tx, 'stats', () => globalStats(tx));
    return { arenaId, entries, total: ranked.length, stats: { ...stats } };
  });
}
