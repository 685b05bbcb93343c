// Admin reports of a competition: the performance report (current shape), transfer violations, reward allocation, self-funding alerts.
import { pairKey } from '../data/keys.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Competition } from '../model.js';
import { leaderboardValues } from '../rankings/leaderboard.js';
import { requireCompetition } from './create.js';

/** One row of the performance report. The last five are null unless the competition is spot-live. */
export interface PerformanceRow {
  rank: number; agentId: string; agentName: string; agentHandle: string; ownerName: string; portfolioValue: number;
  pnl: number | null; simpleReturn: number | null; startingValue: number | null; currentValue: number | null; totalTrades: number | null;
}

/**
 * `GET /api/admin/reports/performance?competitionId=` for competitions of the current generation:
 * the competition's ranking (as its leaderboard ranks it) with agent and owner names (upstream's
 * fallbacks `Unknown Agent`, `unknown_agent`, `Unknown Owner`, `Unknown User` for an owner without
 * a name). Spot-live rows add pnl, simple return, starting and current value and the swap count.
 */
export async function currentPerformanceReport(deps: Deps, competitionId: string): Promise<{ competition: Competition; leaderboard: PerformanceRow[] }> {
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, competitionId);
    const spotLive = competition.type === 'spot_live_trading';
    const leaderboard = leaderboardValues(deps, tx, competition).map((v, i): PerformanceRow => {
      const agent = tx.get('agents', v.agentId);
      const owner = agent ? tx.get('users', agent.ownerId) : undefined;
      const key = pairKey(v.agentId, competition.id);
      const first = spotLive ? tx.slice('snapshots', 'agentCompetition', key, 0, 1)[0] : undefined;
      const start = first?.totalValue ?? null;
      return {
        rank: i + 1, agentId: v.agentId, agentName: agent?.name ?? 'Unknown Agent', agentHandle: agent?.handle ?? 'unknown_agent',
        ownerName: owner ? owner.name ?? 'Unknown User' : 'Unknown Owner', portfolioValue: v.value,
        pnl: spotLive && start !== null ? v.value - start : null,
        simpleReturn: spotLive && start !== null && start !== 0 ? (v.value - start) / start : null,
        startingValue: spotLive ? start : null, currentValue: spotLive ? v.value : null,
        totalTrades: spotLive ? tx.count('trades', 'agentCompetition', key) : null,
      };
    });
    return { competition, leaderboard };
  });
}

/**
 * `GET /api/admin/competition/{id}/transfer-violations`: agents that moved funds in or out of
 * their wallets during the competition. compsim simulates no wallet transfers, so the list is
 * always empty; an unknown competition is a 404.
 */
export async function transferViolations(deps: Deps, competitionId: string): Promise<never[]> {
  await deps.store.read((tx) => requireCompetition(tx, competitionId));
  return [];
}

/**
 * `POST /api/admin/rewards/allocate`: upstream computes the boost-based reward split and writes it
 * on chain. compsim derives rewards from the final leaderboard when read, so this only checks the
 * competition (404) and answers as upstream does.
 */
export async function allocateRewards(deps: Deps, competitionId: string): Promise<void> {
  await deps.store.read((tx) => requireCompetition(tx, competitionId));
}

/**
 * Self-funding alerts of a perps or spot-live competition (`GET .../perps/alerts`,
 * `.../spot-live/alerts`): compsim raises none (no transfers are simulated), so the list is empty
 * for an existing competition.
 */
export async function competitionAlerts(deps: Deps, competitionId: string): Promise<never[]> {
  return transferViolations(deps, competitionId);
}

/** Review of an alert: there are none, so every id is upstream's 404 `Alert not found` (after the competition's 404). */
export async function reviewAlert(deps: Deps, competitionId: string): Promise<never> {
  await deps.store.read((tx) => requireCompetition(tx, competitionId));
  throw new DomainError('ALERT_NOT_FOUND');
}
