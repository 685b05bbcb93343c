// Wire shapes of perps positions and account summaries (upstream's field set; money fields of the account as decimal strings).
import type { Agent } from '../../../domain/model.js';
import type { PerpsAccount, PositionView } from '../../../domain/perps/engine.js';
import { iso } from '../shared/time.js';

/**
 * A number as a plain decimal string, as Postgres `numeric` text reads (`"1250"`, `"520.5"`):
 * rounded to 8 decimals, never in exponent notation; non-finite values are `"0"`.
 */
export function decimalString(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const r = Math.round(n * 1e8) / 1e8;
  if (r === 0) return '0';
  const s = String(r);
  return /e/i.test(s) ? r.toFixed(8).replace(/\.?0+$/, '') : s;
}

/** A position (reference features §3.4) plus `side`; `realizedPnl` is the close's PnL (upstream: always 0). */
export function apiPosition(v: PositionView) {
  const p = v.position;
  return {
    id: p.id, competitionId: p.competitionId, agentId: p.agentId, positionId: p.positionId, marketId: p.asset, marketSymbol: p.asset,
    asset: p.asset, isLong: p.isLong, side: p.isLong ? 'long' : 'short', leverage: p.leverage, size: v.size, collateral: p.collateral,
    averagePrice: p.entryPrice, markPrice: v.markPrice, liquidationPrice: p.liquidationPrice, unrealizedPnl: v.unrealizedPnl,
    pnlPercentage: v.pnlPercentage, realizedPnl: v.realizedPnl, status: p.status, openedAt: iso(p.createdAt), closedAt: iso(p.closedAt),
    timestamp: iso(v.timestamp),
  };
}

/** A position of the competition-wide list: with its agent embedded. */
export function apiPositionWithAgent(v: PositionView, agent: Agent | undefined) {
  return {
    ...apiPosition(v),
    agent: agent ? { id: agent.id, name: agent.name, imageUrl: agent.imageUrl, description: agent.description } : null,
  };
}

/** The `account` object of `GET /api/agent/perps/account` (reference features §3.5). */
export function apiPerpsAccount(a: PerpsAccount & { synced?: boolean }) {
  if (a.synced === false) {
    // Upstream's answer before the first sync: no summary row yet.
    return {
      id: '', agentId: a.agentId, competitionId: a.competitionId, accountId: '', totalEquity: '0', availableBalance: '0', marginUsed: '0',
      totalPnl: '0', totalVolume: '0', openPositions: 0, timestamp: iso(a.at),
    };
  }
  return {
    id: `${a.competitionId}:${a.agentId}`, agentId: a.agentId, competitionId: a.competitionId, accountId: '',
    totalEquity: decimalString(a.totalEquity), availableBalance: decimalString(a.availableBalance), marginUsed: decimalString(a.marginUsed),
    totalPnl: decimalString(a.totalPnl), totalVolume: decimalString(a.totalVolume), openPositions: a.openPositions, timestamp: iso(a.at),
  };
}
