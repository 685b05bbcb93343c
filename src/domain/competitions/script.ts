// Scripted competition actions: perps opens/closes and spot-live swaps at virtual times, stored per competition and run by the scheduler ('script' jobs).
import type { ReadTx, WriteTx } from '../../ports/store.js';
import { requireCompetition } from './create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Competition, ScriptedAction } from '../model.js';
import { closePositionTx, openPositionTx, type OpenInput } from '../perps/engine.js';
import { recordSwapTx, type SwapInput } from '../trading/spot-live.js';
import type { Tables } from '../tables.js';

/**
 * One action as written in a script file: the admin endpoint's body plus a time, `at` (epoch ms or
 * ISO) or `afterMs` (from the moment the script is loaded). Perps: `open` (agentId or agentHandle,
 * asset, side, sizeUsd, leverage; `ref` labels the position) and `close` (`ref` or `positionId`).
 * Spot-live: `swap` (agentId or agentHandle, fromToken, toToken, fromAmount, toAmount?, txHash?, ...).
 */
export type ScriptStep = { at?: number | string; afterMs?: number; action: string; ref?: string; agentId?: string; agentHandle?: string } & Record<string, unknown>;

const invalid = (where: string, reason: string) => new DomainError('SCRIPT_INVALID', { where, reason });
const TIME_KEYS = ['at', 'afterMs', 'action', 'ref', 'agentId', 'agentHandle'];

/** Required fields per action. */
const REQUIRED: Record<string, readonly string[]> = {
  open: ['asset', 'side', 'sizeUsd', 'leverage'], close: [], swap: ['fromToken', 'toToken', 'fromAmount'],
};

/** A field's test and what it expects (the 400's reason). */
type FieldCheck = readonly [test: (v: unknown) => boolean, expected: string];
const text: FieldCheck = [(v) => typeof v === 'string', 'must be a string'];
const nonEmpty: FieldCheck = [(v) => typeof v === 'string' && v.length > 0, 'must be a non-empty string'];
const amount: FieldCheck = [(v) => typeof v === 'number' || typeof v === 'string', 'must be a number or a numeric string'];
const parentChain: FieldCheck = [(v) => v === 'evm' || v === 'svm', "must be 'evm' or 'svm'"];

/**
 * Types of the fields an action may carry, those of the admin open, close and swap bodies: the
 * action runs later with them, so a wrong type is refused now rather than failing the scheduler.
 */
const FIELDS: Record<string, Record<string, FieldCheck>> = {
  open: {
    asset: nonEmpty, side: [(v) => v === 'long' || v === 'short', "must be 'long' or 'short'"],
    sizeUsd: [(v) => typeof v === 'number' && v > 0, 'must be a number > 0'],
    leverage: [(v) => typeof v === 'number' && v >= 1 && v <= 50, 'must be a number from 1 to 50'],
  },
  close: { positionId: nonEmpty },
  swap: {
    fromToken: nonEmpty, toToken: nonEmpty, fromAmount: amount, toAmount: amount, txHash: nonEmpty,
    blockNumber: [(v) => Number.isSafeInteger(v) && (v as number) >= 0, 'must be an integer >= 0'], protocol: text,
    fromChain: parentChain, toChain: parentChain, fromSpecificChain: text, toSpecificChain: text,
  },
};

/** Throws the 400 of the first field of `a` (required, or present with the wrong type) that its action cannot run with. */
function checkFields(a: ScriptStep, where: string): void {
  for (const f of REQUIRED[a.action]!) if (a[f] === undefined) throw invalid(`${where}.${f}`, 'required');
  for (const f of ['agentId', 'agentHandle', 'ref']) if (a[f] !== undefined && typeof a[f] !== 'string') throw invalid(`${where}.${f}`, 'must be a string');
  for (const [f, [test, expected]] of Object.entries(FIELDS[a.action]!)) if (a[f] !== undefined && !test(a[f])) throw invalid(`${where}.${f}`, expected);
}

function agentIdOf(tx: ReadTx<Tables>, a: ScriptStep, where: string): string {
  if (typeof a.agentId === 'string') return a.agentId;
  if (typeof a.agentHandle === 'string') {
    const hit = (tx.find('agents', 'handle', a.agentHandle))[0];
    if (!hit) throw invalid(`${where}.agentHandle`, `no agent with handle '${a.agentHandle}'`);
    return hit.id;
  }
  throw invalid(`${where}.agentId`, 'required (or agentHandle)');
}

function timeOf(a: ScriptStep, now: number, where: string): number {
  if (typeof a.afterMs === 'number' && a.afterMs >= 0) return now + a.afterMs;
  const ms = typeof a.at === 'number' ? a.at : typeof a.at === 'string' ? Date.parse(a.at) : Number.NaN;
  if (!Number.isFinite(ms)) throw invalid(`${where}.at`, 'an epoch-ms number or an ISO time, or afterMs >= 0');
  return ms;
}

/** Earliest pending action of the competition (the scheduler's next 'script' job), or null. */
function nextActionAt(tx: ReadTx<Tables>, competitionId: string): number | null {
  const pending = (tx.find('scriptActions', 'competition', competitionId)).filter((a) => a.status === 'pending');
  return pending.length > 0 ? Math.min(...pending.map((a) => a.at)) : null;
}

/**
 * `POST /api/admin/competitions/{id}/script`: stores a script's actions for a pending or active
 * perps (open, close) or spot-live (swap) competition; a malformed action makes the whole script a
 * 400 naming it. Actions run once the competition is active and virtual time reaches them, in time
 * order (ties: script order), through the same rules as the admin endpoints.
 */
export async function loadScript(deps: Deps, competitionId: string, steps: readonly ScriptStep[]): Promise<ScriptedAction[]> {
  return deps.store.transact((tx) => {
    const comp = requireCompetition(tx, competitionId);
    const allowed = comp.type === 'perpetual_futures' ? ['open', 'close'] : comp.type === 'spot_live_trading' ? ['swap'] : null;
    if (!allowed) throw new DomainError('SCRIPT_UNSUPPORTED');
    if (comp.status !== 'pending' && comp.status !== 'active') throw new DomainError('SCRIPT_ENDED', { status: comp.status });
    const now = deps.clock.now();
    const out: ScriptedAction[] = [];
    for (const [i, a] of steps.entries()) {
      const where = `actions.${i}`;
      if (!allowed.includes(a.action)) throw invalid(`${where}.action`, `must be one of: ${allowed.join(', ')}`);
      const at = timeOf(a, now, where);
      checkFields(a, where);
      if (a.action === 'close' && a.ref === undefined && a.positionId === undefined) throw invalid(`${where}.ref`, 'a close needs ref or positionId');
      const params = Object.fromEntries(Object.entries(a).filter(([k]) => !TIME_KEYS.includes(k)));
      out.push(tx.insert('scriptActions', {
        id: tx.nextSeq('scriptActions'), competitionId: comp.id, at, action: a.action as ScriptedAction['action'],
        ref: typeof a.ref === 'string' ? a.ref : null, agentId: a.action === 'close' ? null : agentIdOf(tx, a, where),
        params, status: 'pending', resultId: null, error: null, ranAt: null,
      }));
    }
    tx.put('competitions', { ...comp, nextScriptActionAt: nextActionAt(tx, comp.id) });
    return out;
  });
}

/** `GET /api/admin/competitions/{id}/script`: the stored actions in script order, with their outcome. */
export async function competitionScript(deps: Deps, competitionId: string): Promise<ScriptedAction[]> {
  return deps.store.read((tx) => {
    requireCompetition(tx, competitionId);
    return tx.find('scriptActions', 'competition', competitionId);
  });
}

function runAction(deps: Deps, tx: WriteTx<Tables>, comp: Competition, a: ScriptedAction, done: readonly ScriptedAction[]): string {
  if (a.action === 'open') return (openPositionTx(deps, tx, comp, { ...(a.params as unknown as OpenInput), agentId: a.agentId! })).id;
  if (a.action === 'swap') return (recordSwapTx(deps, tx, comp, { ...(a.params as unknown as SwapInput), agentId: a.agentId! })).id;
  const given = typeof a.params.positionId === 'string' ? a.params.positionId : undefined;
  const target = given ?? done.find((d) => d.action === 'open' && d.ref === a.ref && d.status === 'done')?.resultId;
  if (!target) throw new DomainError('PERPS_POSITION_NOT_FOUND', { id: a.ref ?? '' });
  return (closePositionTx(deps, tx, comp, target)).id;
}

/**
 * Scheduler job 'script': runs every pending action due at or before now, each at now. A rule
 * violation (unknown asset, insufficient balance, a position already liquidated, ...) marks that
 * action `failed` with its message and the script goes on (a liquidation sweep it ran stays: it is
 * the state at that instant anyway).
 */
export async function runDueScriptActions(deps: Deps, competitionId: string): Promise<void> {
  await deps.store.transact((tx) => {
    const comp = requireCompetition(tx, competitionId);
    if (comp.status !== 'active') return;
    const now = deps.clock.now();
    const all = tx.find('scriptActions', 'competition', comp.id);
    const due = all.filter((a) => a.status === 'pending' && a.at <= now).sort((a, b) => a.at - b.at || a.id - b.id);
    const finished = all.filter((a) => a.status !== 'pending');
    for (const a of due) {
      let row: ScriptedAction;
      try {
        row = { ...a, status: 'done', resultId: runAction(deps, tx, comp, a, finished), ranAt: now };
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        row = { ...a, status: 'failed', error: err.message, ranAt: now };
      }
      finished.push(tx.put('scriptActions', row));
    }
    tx.put('competitions', { ...comp, nextScriptActionAt: nextActionAt(tx, comp.id) });
  });
}
