// Arenas: the four seeded defaults, admin CRUD, and the skill <-> competition-type compatibility rule.
import type { ReadTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Arena, CompetitionType } from '../model.js';
import { sortRows, type SortSpec } from '../data/paging.js';
import type { Tables } from '../tables.js';

/** The default arena of each competition type (seeded in every new world, createdBy "system"). */
export const DEFAULT_ARENAS: readonly (Pick<Arena, 'id' | 'name' | 'category' | 'skill' | 'venues' | 'chains'> & { type: CompetitionType })[] = [
  { id: 'default-paper-arena', name: 'Default Paper Trading Arena', category: 'crypto_trading', skill: 'spot_paper_trading', venues: null, chains: null, type: 'trading' },
  { id: 'default-perps-arena', name: 'Default Perpetual Futures Arena', category: 'crypto_trading', skill: 'perpetual_futures', venues: ['hyperliquid'], chains: null, type: 'perpetual_futures' },
  { id: 'default-spot-live-arena', name: 'Default Spot Live Trading Arena', category: 'crypto_trading', skill: 'spot_live_trading', venues: null, chains: null, type: 'spot_live_trading' },
  { id: 'default-nfl-game-prediction-arena', name: 'Default NFL Game Prediction Arena', category: 'sports', skill: 'sports_prediction', venues: null, chains: null, type: 'sports_prediction' },
];

const SKILL_TYPE: Record<string, CompetitionType> = {
  spot_paper_trading: 'trading', perpetual_futures: 'perpetual_futures',
  spot_live_trading: 'spot_live_trading', sports_prediction: 'sports_prediction',
};

/** Known skills admit one type; unknown (free-text) skills admit any. */
export function isCompatible(skill: string, type: CompetitionType): boolean {
  const t = SKILL_TYPE[skill];
  return t === undefined || t === type;
}

/** Id of the default arena for a competition type. */
export function defaultArenaId(type: CompetitionType): string {
  return DEFAULT_ARENAS.find((a) => a.type === type)!.id;
}

/** Inserts the default arenas (world creation). */
export async function seedDefaultArenas(deps: Deps): Promise<void> {
  await deps.store.transact((tx) => {
    const now = deps.clock.now();
    for (const { type: _t, ...a } of DEFAULT_ARENAS) {
      if (!(tx.get('arenas', a.id))) tx.insert('arenas', { ...a, createdBy: 'system', kind: 'Competition', createdAt: now, updatedAt: now });
    }
  });
}

/** Body of `POST /api/admin/arenas`. */
/** `id` may be absent: request validation leaves its rules to {@link createArena} (upstream's kebab-case message). */
export interface ArenaInput { id?: string; name: string; createdBy?: string; category: string; skill: string; venues?: string[]; chains?: string[] }

/** Creates an arena; bad id -> 400, duplicate -> 409. */
export async function createArena(deps: Deps, input: ArenaInput): Promise<Arena> {
  const id = input.id;
  if (id === undefined) throw new DomainError('INVALID_FIELD', { where: 'id', reason: 'required' });
  if (!/^[a-z0-9-]+$/.test(id)) throw new DomainError('ARENA_BAD_ID');
  return deps.store.transact((tx) => {
    if (tx.get('arenas', id)) throw new DomainError('ARENA_EXISTS', { id });
    const now = deps.clock.now();
    return tx.insert('arenas', {
      id, name: input.name, createdBy: input.createdBy ?? null, category: input.category, skill: input.skill,
      venues: input.venues ?? null, chains: input.chains ?? null, kind: 'Competition', createdAt: now, updatedAt: now,
    });
  });
}

/** An arena inside a transaction, or the 404. */
export function requireArena(tx: ReadTx<Tables>, id: string): Arena {
  const arena = tx.get('arenas', id);
  if (!arena) throw new DomainError('ARENA_NOT_FOUND', { id });
  return arena;
}

/** An arena, or the 404. */
export async function getArena(deps: Deps, id: string): Promise<Arena> {
  const arena = await deps.store.read((tx) => tx.get('arenas', id));
  if (!arena) throw new DomainError('ARENA_NOT_FOUND', { id });
  return arena;
}

/** Sort fields of the arena list. */
export const ARENA_SORT_FIELDS = ['id', 'name', 'createdAt', 'updatedAt'] as const;

/** One page of arenas; `name` is a case-insensitive substring filter. */
export async function listArenas(deps: Deps, q: { limit: number; offset: number; sort: SortSpec; name?: string }): Promise<{ arenas: Arena[]; total: number }> {
  let rows = await deps.store.read((tx) => tx.all('arenas'));
  if (q.name) rows = rows.filter((a) => a.name.toLowerCase().includes(q.name!.toLowerCase()));
  return { arenas: sortRows(rows, q.sort).slice(q.offset, q.offset + q.limit), total: rows.length };
}

/** Fields `PUT /api/admin/arenas/{id}` may change. */
const UPDATABLE: readonly string[] = ['name', 'category', 'skill', 'venues', 'chains'];

/** Updates an arena; a skill change must keep every competition of the arena compatible. */
export async function updateArena(deps: Deps, id: string, u: Partial<Omit<ArenaInput, 'id' | 'createdBy'>>): Promise<Arena> {
  return deps.store.transact((tx) => {
    const arena = requireArena(tx, id);
    if (u.skill !== undefined && u.skill !== arena.skill) {
      const bad = (tx.find('competitions', 'arena', id)).filter((c) => !isCompatible(u.skill!, c.type));
      if (bad.length > 0) {
        throw new DomainError('ARENA_SKILL_CHANGE', { skill: u.skill, count: bad.length, names: bad.map((c) => c.name).join(', ') });
      }
    }
    // Only the updatable fields: other body keys (an `id`, `createdAt`, anything) must never reach the row.
    const defined = Object.fromEntries(Object.entries(u).filter(([k, v]) => UPDATABLE.includes(k) && v !== undefined));
    return tx.put('arenas', { ...arena, ...defined, updatedAt: deps.clock.now() });
  });
}

/** Deletes an arena that has no competitions. */
export async function deleteArena(deps: Deps, id: string): Promise<void> {
  await deps.store.transact((tx) => {
    if ((tx.count('competitions', 'arena', id)) > 0) throw new DomainError('ARENA_HAS_COMPETITIONS', { id });
    if (!(tx.delete('arenas', id))) throw new DomainError('ARENA_NOT_FOUND', { id });
  });
}
