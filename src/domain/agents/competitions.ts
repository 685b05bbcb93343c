// One agent's competitions with its summary in each (value, pnl, trades, placement), status/claimed filters, sorting and paging.
import type { ReadTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Competition, CompetitionStatus } from '../model.js';
import { sortRows, type SortSpec } from '../data/paging.js';
import { activeAgentIds } from '../trading/portfolio.js';
import { earnedReward } from '../competitions/rewards.js';
import { riskMetrics, type RiskMetrics } from '../rankings/risk-metrics.js';
import type { Tables } from '../tables.js';

/** Competition columns the list sorts by. */
const COMPETITION_FIELDS = ['id', 'name', 'description', 'startDate', 'endDate', 'createdAt', 'updatedAt', 'status'] as const;
/** Computed sort fields; `rank` and `bestPlacement` both order by the placement's rank. */
const COMPUTED_FIELDS = ['portfolioValue', 'pnl', 'pnlPercent', 'totalTrades', 'totalPositions', 'rank', 'bestPlacement', 'agentName', 'agentHandle'] as const;

/** Fields whose presence anywhere in the sort text (as a substring) makes upstream sort in memory. */
const IN_MEMORY_MARKERS = ['portfolioValue', 'pnl', 'totalTrades', 'totalPositions', 'rank', 'bestPlacement', 'agentName', 'agentHandle'] as const;

/**
 * Upstream's two sort paths (reference fidelity-2 §8). A sort text containing a computed field's
 * name sorts in memory by the computed fields, skipping any other part (`rankX`, `name`). Otherwise
 * the competition columns sort, and an unknown column or more than 3 parts is an error upstream
 * swallows: null here, an empty page.
 */
function listSort(sort: string): SortSpec | null {
  if (!sort) return [];
  const parts = sort.split(',').map((part) => (part.startsWith('-') ? { field: part.slice(1), desc: true } : { field: part, desc: false }));
  if (IN_MEMORY_MARKERS.some((m) => sort.includes(m))) return parts.filter((p) => (COMPUTED_FIELDS as readonly string[]).includes(p.field));
  if (parts.length > 3 || parts.some((p) => !(COMPETITION_FIELDS as readonly string[]).includes(p.field))) return null;
  return parts;
}

/** Input of {@link agentCompetitions} (schema defaults applied). */
export interface AgentCompetitionsInput {
  agentId: string; status?: CompetitionStatus; claimed?: boolean; sort: string; limit: number; offset: number;
}

/** The agent's summary in one competition. */
export interface AgentCompetitionRow {
  competition: Competition;
  /** `totalTrades`: trades (0 in perps); `totalPositions`: perps position rows, open and closed (0 elsewhere). */
  portfolioValue: number; pnl: number; pnlPercent: number; totalTrades: number; totalPositions: number;
  /** Ended: the final rank; active/ending: rank of its latest snapshot among active agents; else absent. */
  bestPlacement?: { rank: number; totalAgents: number };
  /** Perps: the risk metrics of the agent's equity snapshots (null before the second one, and in other types). */
  risk: RiskMetrics | null;
}

/** Latest value per active agent of a running competition (agents without a snapshot are absent). */
function latestValues(tx: ReadTx<Tables>, comp: Competition): Map<string, number> {
  const out = new Map<string, number>();
  for (const agentId of activeAgentIds(tx, comp.id)) {
    let newest: { timestamp: number; totalValue: number } | undefined;
    for (const s of tx.find('snapshots', 'agentCompetition', `${agentId}:${comp.id}`)) if (!newest || s.timestamp >= newest.timestamp) newest = s;
    if (newest) out.set(agentId, newest.totalValue);
  }
  return out;
}

/**
 * Upstream's `bestPlacement` (reference features §6.3): ended -> the stored final rank and
 * totalAgents (for perps and spot-live the metric order); active/ending -> SQL RANK() of the latest
 * snapshot value among active agents, by portfolio value for every type (upstream does not use the
 * Calmar or ROI order here, unlike the competition's own leaderboard); pending -> none.
 */
function placement(tx: ReadTx<Tables>, comp: Competition, agentId: string): AgentCompetitionRow['bestPlacement'] {
  if (comp.status === 'ended') {
    const row = tx.get('leaderboards', `${comp.id}:${agentId}`);
    return row ? { rank: row.rank, totalAgents: row.totalAgents } : undefined;
  }
  if (comp.status !== 'active' && comp.status !== 'ending') return undefined;
  const values = latestValues(tx, comp);
  const mine = values.get(agentId);
  if (mine === undefined) return undefined;
  // SQL RANK(): agents with equal values share a rank.
  const ahead = [...values.values()].filter((v) => v > mine).length;
  return { rank: ahead + 1, totalAgents: values.size };
}

function summary(tx: ReadTx<Tables>, comp: Competition, agent: Agent): AgentCompetitionRow {
  const snaps = [...(tx.find('snapshots', 'agentCompetition', `${agent.id}:${comp.id}`))].sort((a, b) => a.timestamp - b.timestamp);
  const newest = snaps.length > 0 ? snaps[snaps.length - 1]!.totalValue : 0;
  const oldest = snaps.length > 0 ? snaps[0]!.totalValue : 0;
  const pnl = newest - oldest;
  const perps = comp.type === 'perpetual_futures';
  const trades = perps ? 0 : tx.count('trades', 'agentCompetition', `${agent.id}:${comp.id}`);
  const positions = perps ? tx.count('perpsPositions', 'agentCompetition', `${agent.id}:${comp.id}`) : 0;
  const bestPlacement = placement(tx, comp, agent.id);
  return {
    competition: comp, portfolioValue: newest, pnl, pnlPercent: oldest > 0 ? (pnl / oldest) * 100 : 0, totalTrades: trades, totalPositions: positions,
    ...(bestPlacement ? { bestPlacement } : {}), risk: perps ? riskMetrics(snaps.map((s) => s.totalValue)) : null,
  };
}

function sortKeys(row: AgentCompetitionRow, agent: Agent): Record<string, unknown> {
  const c = row.competition;
  return {
    id: c.id, name: c.name, description: c.description, startDate: c.startDate, endDate: c.endDate, createdAt: c.createdAt,
    updatedAt: c.updatedAt, status: c.status, portfolioValue: row.portfolioValue, pnl: row.pnl, pnlPercent: row.pnlPercent,
    totalTrades: row.totalTrades, totalPositions: row.totalPositions, rank: row.bestPlacement?.rank ?? null,
    bestPlacement: row.bestPlacement?.rank ?? null, agentName: agent.name, agentHandle: agent.handle,
  };
}

/**
 * `GET /api/agents/{agentId}/competitions`: every competition the agent registered in (any
 * participation status), registration order unless sorted. `status` filters on the competition's
 * status; `claimed` keeps competitions where the agent earned a reward that is claimed (`true`)
 * or not yet claimed (`false`). Unknown agent -> 404 `Agent not found`.
 */
export async function agentCompetitions(deps: Deps, input: AgentCompetitionsInput): Promise<{ agent: Agent; rows: AgentCompetitionRow[]; total: number }> {
  const spec = listSort(input.sort);
  return deps.store.read((tx) => {
    const agent = tx.get('agents', input.agentId);
    if (!agent || agent.generation !== 'current') throw new DomainError('AGENT_NOT_FOUND');
    const rows: AgentCompetitionRow[] = [];
    for (const reg of tx.find('competitionAgents', 'agent', agent.id)) {
      const comp = tx.get('competitions', reg.competitionId);
      if (!comp || (input.status !== undefined && comp.status !== input.status)) continue;
      if (input.claimed !== undefined) {
        const reward = earnedReward(tx, comp, agent);
        if (!reward || reward.claimed !== input.claimed) continue;
      }
      rows.push(summary(tx, comp, agent));
    }
    // Upstream's service swallows a sort its query helper refuses into an empty list.
    if (spec === null) return { agent, rows: [], total: 0 };
    const keyed = rows.map((row) => ({ row, ...sortKeys(row, agent) }));
    const sorted = sortRows(keyed, spec).map((k) => k.row);
    return { agent, rows: sorted.slice(input.offset, input.offset + input.limit), total: rows.length };
  });
}
