// Perps engine on the virtual clock: isolated-margin positions marked to the price feed, liquidation, account summaries, equity snapshots, admin open/close.
import type { ReadTx, WriteTx } from '../../ports/store.js';
import { requireCompetition } from '../competitions/create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Competition, PerpsPosition, PortfolioSnapshot } from '../model.js';
import { markPrice, resolvePerpsAsset } from './assets.js';
import type { Tables } from '../tables.js';

/** Starting equity of every account when the competition sets no `perpsInitialEquityUsd`. */
export const DEFAULT_PERPS_EQUITY_USD = 10_000;
/** Highest accepted leverage. */
export const MAX_LEVERAGE = 50;
/** Maintenance margin rate: half the initial margin at maximum leverage (reference features §3.3). */
export const MAINTENANCE_MARGIN_RATE = 0.5 / MAX_LEVERAGE;

/** Isolated-margin liquidation price: long `entry (1 - 1/L + m)`, short `entry (1 + 1/L - m)`. */
export function liquidationPrice(entry: number, leverage: number, isLong: boolean): number {
  return isLong ? entry * (1 - 1 / leverage + MAINTENANCE_MARGIN_RATE) : entry * (1 + 1 / leverage - MAINTENANCE_MARGIN_RATE);
}

/** PnL of a position at `mark`: (mark - entry) x quantity for a long, the opposite for a short. */
export function pnlAt(p: PerpsPosition, mark: number): number {
  return (p.isLong ? mark - p.entryPrice : p.entryPrice - mark) * p.quantity;
}

/** Starting equity of a competition's accounts. */
export function initialEquity(comp: Competition): number {
  return comp.perpsInitialEquityUsd ?? DEFAULT_PERPS_EQUITY_USD;
}

/** The instant positions are valued at: now, or the end date once the competition has ended. */
export function valuationAt(deps: Deps, comp: Competition): number {
  const now = deps.clock.now();
  return comp.status === 'ended' && comp.endDate !== null ? Math.min(now, comp.endDate) : now;
}

/**
 * A position as read at `at`. Open: marked to the feed (the entry price when the feed has none),
 * `size` = quantity x mark (current USD notional), `realizedPnl` 0. Closed or liquidated: the fill
 * price as mark, and the realised PnL in both PnL fields (upstream keeps the last PnL in
 * `unrealizedPnl`). `pnlPercentage` = PnL / collateral x 100 (ROE).
 */
export interface PositionView {
  position: PerpsPosition; markPrice: number; size: number; unrealizedPnl: number; pnlPercentage: number; realizedPnl: number; timestamp: number;
}

/** Reads a position at `at` (see {@link PositionView}); a mark frozen at the end wins over the feed. */
export function positionView(deps: Deps, p: PerpsPosition, at: number): PositionView {
  if (p.status !== 'Open') {
    const mark = p.closePrice ?? p.entryPrice;
    return {
      position: p, markPrice: mark, size: p.quantity * mark, unrealizedPnl: p.realizedPnl,
      pnlPercentage: (p.realizedPnl / p.collateral) * 100, realizedPnl: p.realizedPnl, timestamp: p.updatedAt,
    };
  }
  const mark = p.frozenMark ?? markPrice(deps, p.asset, at) ?? p.entryPrice;
  const pnl = pnlAt(p, mark);
  return { position: p, markPrice: mark, size: p.quantity * mark, unrealizedPnl: pnl, pnlPercentage: (pnl / p.collateral) * 100, realizedPnl: 0, timestamp: at };
}

/** An account summary at `at` (numbers; the HTTP edge writes the money fields as decimal strings). */
export interface PerpsAccount {
  agentId: string; competitionId: string; initialEquity: number;
  /** initial + realised + unrealised. */
  totalEquity: number;
  /** max(0, equity - marginUsed): what a new position's collateral may use. */
  availableBalance: number;
  /** Collateral of the open positions. */
  marginUsed: number;
  totalPnl: number; realizedPnl: number; unrealizedPnl: number;
  /** Notional of every fill: each open at entry, each close or liquidation at its fill price. */
  totalVolume: number;
  openPositions: number; at: number;
}

/** The account summary of an agent from its positions in the competition, valued at `at`. */
export function accountOf(deps: Deps, comp: Competition, agentId: string, positions: readonly PerpsPosition[], at: number): PerpsAccount {
  let realized = 0;
  let unrealized = 0;
  let margin = 0;
  let volume = 0;
  let open = 0;
  for (const p of positions) {
    volume += p.entryNotional;
    if (p.status === 'Open') {
      unrealized += positionView(deps, p, at).unrealizedPnl;
      margin += p.collateral;
      open += 1;
    } else {
      realized += p.realizedPnl;
      volume += p.quantity * (p.closePrice ?? 0);
    }
  }
  const start = initialEquity(comp);
  const totalEquity = start + realized + unrealized;
  return {
    agentId, competitionId: comp.id, initialEquity: start, totalEquity, availableBalance: Math.max(0, totalEquity - margin), marginUsed: margin,
    totalPnl: realized + unrealized, realizedPnl: realized, unrealizedPnl: unrealized, totalVolume: volume, openPositions: open, at,
  };
}

/** Positions of one agent in one competition, storage (opening) order. */
export function agentPositions(tx: ReadTx<Tables>, competitionId: string, agentId: string): PerpsPosition[] {
  return tx.find('perpsPositions', 'agentCompetition', `${agentId}:${competitionId}`);
}

/**
 * Liquidates every open position of the competition whose mark at `at` is at or beyond its
 * liquidation price: status `Liquidated`, filled at the liquidation price, the whole collateral
 * lost. Runs at every perps sync (start, each snapshot tick, end) and before each admin action.
 */
export function liquidateCrossedTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition, at: number): PerpsPosition[] {
  const out: PerpsPosition[] = [];
  for (const p of tx.find('perpsPositions', 'competition', comp.id)) {
    if (p.status !== 'Open') continue;
    const mark = markPrice(deps, p.asset, at);
    if (mark === null || (p.isLong ? mark > p.liquidationPrice : mark < p.liquidationPrice)) continue;
    out.push(tx.put('perpsPositions', {
      ...p, status: 'Liquidated', closePrice: p.liquidationPrice, realizedPnl: -p.collateral, closedAt: at, updatedAt: at,
    }));
  }
  return out;
}

/** Stores the mark at `at` on every open position of the competition (its end). */
function freezeMarksTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition, at: number): void {
  for (const p of tx.find('perpsPositions', 'competition', comp.id)) {
    if (p.status === 'Open') tx.put('perpsPositions', { ...p, frozenMark: markPrice(deps, p.asset, at) ?? p.entryPrice, updatedAt: at });
  }
}

/**
 * The perps counterpart of `takeSnapshotsTx` (same contract): a liquidation sweep at `at`, then one
 * snapshot per agent whose value is its account's total equity (so every participant has one from
 * the start); at the end (status `ending`) the marks of open positions are frozen. Skipped (unless
 * forced) once the end date has passed.
 */
export function perpsSnapshotsTx(
  deps: Deps, tx: WriteTx<Tables>, comp: Competition, agentIds: readonly string[], at: number, force = false,
): PortfolioSnapshot[] {
  if (!force && comp.endDate !== null && at > comp.endDate) return [];
  liquidateCrossedTx(deps, tx, comp, at);
  // The final sync of an ending competition freezes the marks of what is still open (upstream's sync stops).
  if (comp.status === 'ending') freezeMarksTx(deps, tx, comp, at);
  const out: PortfolioSnapshot[] = [];
  for (const agentId of agentIds) {
    const { totalEquity } = accountOf(deps, comp, agentId, agentPositions(tx, comp.id, agentId), at);
    out.push(tx.insert('snapshots', { id: tx.nextSeq('snapshots'), competitionId: comp.id, agentId, timestamp: at, totalValue: totalEquity }));
  }
  return out;
}

/** Admin control on a perps competition: it must be perps and active. */
function requireActivePerps(comp: Competition): void {
  if (comp.type !== 'perpetual_futures') throw new DomainError('PERPS_ONLY_ADMIN');
  if (comp.status !== 'active') throw new DomainError('PERPS_NOT_ACTIVE', { status: comp.status });
}

/** Body of the admin open endpoint (and of a scripted `open`). */
export interface OpenInput { agentId: string; asset: string; side: 'long' | 'short'; sizeUsd: number; leverage: number }

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Opens a position for an agent at the current mark: competition perps and active (400), agent
 * actively registered (403), known asset, a side, positive size, leverage 1..50, a price (400s), and a
 * collateral (`sizeUsd / leverage`) within the account's available balance after a liquidation sweep.
 */
export function openPositionTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition, i: OpenInput): PerpsPosition {
  requireActivePerps(comp);
  if ((tx.get('competitionAgents', `${comp.id}:${i.agentId}`))?.status !== 'active') throw new DomainError('PERPS_NOT_REGISTERED');
  const market = resolvePerpsAsset(deps.prices.catalogue(), i.asset);
  if (!market) throw new DomainError('PERPS_UNKNOWN_ASSET', { asset: i.asset });
  if (i.side !== 'long' && i.side !== 'short') throw new DomainError('PERPS_BAD_SIDE');
  if (!(Number.isFinite(i.sizeUsd) && i.sizeUsd > 0)) throw new DomainError('PERPS_BAD_SIZE');
  if (!(Number.isFinite(i.leverage) && i.leverage >= 1 && i.leverage <= MAX_LEVERAGE)) throw new DomainError('PERPS_BAD_LEVERAGE', { max: MAX_LEVERAGE });
  const now = deps.clock.now();
  liquidateCrossedTx(deps, tx, comp, now);
  const entry = markPrice(deps, market.asset, now);
  if (entry === null) throw new DomainError('PERPS_NO_PRICE', { asset: market.asset });
  const collateral = i.sizeUsd / i.leverage;
  const account = accountOf(deps, comp, i.agentId, agentPositions(tx, comp.id, i.agentId), now);
  // A hair of tolerance so "all in" (collateral == available) passes despite rounding.
  if (collateral > account.availableBalance * (1 + 1e-12)) {
    throw new DomainError('PERPS_INSUFFICIENT_BALANCE', { collateral: round2(collateral), available: round2(account.availableBalance) });
  }
  const isLong = i.side === 'long';
  return tx.insert('perpsPositions', {
    id: deps.ids.uuid(), competitionId: comp.id, agentId: i.agentId, positionId: deps.ids.hex(8), asset: market.asset, isLong,
    leverage: i.leverage, entryNotional: i.sizeUsd, entryPrice: entry, quantity: i.sizeUsd / entry, collateral,
    liquidationPrice: liquidationPrice(entry, i.leverage, isLong), status: 'Open', closePrice: null, realizedPnl: 0,
    createdAt: now, closedAt: null, updatedAt: now,
  });
}

/** Closes an open position at the current mark (after a liquidation sweep, which may have closed it already). */
export function closePositionTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition, positionId: string): PerpsPosition {
  requireActivePerps(comp);
  const found = tx.get('perpsPositions', positionId);
  if (!found || found.competitionId !== comp.id) throw new DomainError('PERPS_POSITION_NOT_FOUND', { id: positionId });
  const now = deps.clock.now();
  liquidateCrossedTx(deps, tx, comp, now);
  const p = (tx.get('perpsPositions', positionId))!;
  if (p.status !== 'Open') throw new DomainError('PERPS_POSITION_NOT_OPEN', { status: p.status });
  const mark = markPrice(deps, p.asset, now);
  if (mark === null) throw new DomainError('PERPS_NO_PRICE', { asset: p.asset });
  return tx.put('perpsPositions', { ...p, status: 'Closed', closePrice: mark, realizedPnl: pnlAt(p, mark), closedAt: now, updatedAt: now });
}

/**
 * The liquidation sweep before an admin action, committed on its own: a refused action (e.g.
 * closing a position that turns out to be liquidated) must not undo the catch-up to now.
 */
async function syncBeforeAction(deps: Deps, competitionId: string): Promise<void> {
  await deps.store.transact((tx) => {
    const comp = tx.get('competitions', competitionId);
    if (comp?.type === 'perpetual_futures' && comp.status === 'active') liquidateCrossedTx(deps, tx, comp, deps.clock.now());
  });
}

/** `POST /api/admin/competitions/{id}/perps/positions`: the new position as read now. */
export async function openPosition(deps: Deps, competitionId: string, input: OpenInput): Promise<PositionView> {
  await syncBeforeAction(deps, competitionId);
  const p = await deps.store.transact((tx) => openPositionTx(deps, tx, requireCompetition(tx, competitionId), input));
  return positionView(deps, p, p.updatedAt);
}

/** `POST /api/admin/competitions/{id}/perps/positions/{positionId}/close`: the closed position. */
export async function closePosition(deps: Deps, competitionId: string, positionId: string): Promise<PositionView> {
  await syncBeforeAction(deps, competitionId);
  const p = await deps.store.transact((tx) => closePositionTx(deps, tx, requireCompetition(tx, competitionId), positionId));
  return positionView(deps, p, p.updatedAt);
}
