// Bringing back the created worlds of a state directory at start: every undamaged one is started; a damaged one, or a copy of another, is kept aside untouched and reported.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StateLogger } from '../adapters/file/state-dir.js';
import type { WorldOptions } from './config.js';
import type { StatePersistence } from './persistence.js';
import { createWorld, type World } from './world.js';
import { errorMessage, scanWorldDirs, WORLD_FILE, WORLDS_SUBDIR, type Damage, type WorldEntry } from './world-dirs.js';

/** A created world found damaged at start: listed, answered 503, its files left as they are. */
export interface DamagedWorld { id: string; dir: string; damage: Damage }

/** A created world started again. */
export interface RecoveredWorld {
  id: string; world: World; persistence: StatePersistence; idleTtlMs: number | null;
  /** The admin key it was created with. */
  adminKey: string | null;
}

/** What {@link recoverWorlds} needs of its host. */
export interface RecoveryOptions {
  /** Options every created world is built with under its own. */
  base: WorldOptions | undefined;
  open: (dir: string) => Promise<StatePersistence>;
  log: StateLogger;
}

/** The file a failure names (a StateCorruptError's), else the world's directory. */
function damageOf(err: unknown, dir: string): Damage {
  const file = (err as { file?: unknown }).file;
  return { file: typeof file === 'string' ? file : dir, reason: errorMessage(err) };
}

/** Starts one world found complete; any failure is its damage (and its directory is released). */
async function reopen(e: Extract<WorldEntry, { kind: 'world' }>, o: RecoveryOptions): Promise<RecoveredWorld | Damage> {
  let persistence: StatePersistence | undefined;
  try {
    persistence = await o.open(e.dir);
    const recorded = persistence.recoveredOptions();
    if (!recorded) {
      await persistence.close();
      return { file: e.dir, reason: noWorldState(e.dir) };
    }
    const world = await createWorld({ ...recorded, ...o.base }, persistence);
    const idleTtlMs = e.file.idleTtlSeconds === null ? null : e.file.idleTtlSeconds * 1000;
    return { id: e.id, world, persistence, idleTtlMs, adminKey: recorded.admin?.apiKey ?? null };
  } catch (err) {
    await persistence?.close().catch(() => undefined);
    return damageOf(err, e.dir);
  }
}

/** Why a world directory whose state files hold no created world is damaged. */
export const noWorldState = (dir: string): string =>
  `${dir} holds no world state although ${WORLD_FILE} says the world was created: its journal and snapshot files are missing`;

/**
 * What a start would find in `<stateDir>/worlds`, read only: every entry of {@link scanWorldDirs} in
 * id order, with a directory holding the same admin key as an earlier world (a copy) turned damaged,
 * naming both. A `world` entry is still to be opened: its state files can yet be damaged or missing.
 */
export function classifyWorlds(stateDir: string): { entries: WorldEntry[]; nextId: number } {
  const { entries, nextId } = scanWorldDirs(stateDir);
  const keys = new Map<string, string>();
  const classified = entries.map((e): WorldEntry => {
    if (e.kind !== 'world' || e.file.adminKeyHash === undefined) return e;
    const copyOf = keys.get(e.file.adminKeyHash);
    if (copyOf === undefined) {
      keys.set(e.file.adminKeyHash, e.id);
      return e;
    }
    return {
      kind: 'damaged', id: e.id, dir: e.dir, damage: {
        file: join(e.dir, WORLD_FILE),
        reason: `worlds ${copyOf} and ${e.id} have the same admin key: ${e.dir} is a copy of ${join(stateDir, WORLDS_SUBDIR, copyOf)}, so ${e.id} is not started`,
      },
    };
  });
  return { entries: classified, nextId };
}

/**
 * Brings back every world of `<dir>/worlds` in id order. Leftovers of answered deletions and of
 * creations never answered are removed. A world whose files are missing or damaged, or whose
 * directory is a copy of another world's (the same admin key), is reported damaged with the file
 * and the reason and its files are left alone; the others start. Also gives the next id to hand out.
 */
export async function recoverWorlds(dir: string, o: RecoveryOptions): Promise<{ worlds: RecoveredWorld[]; damaged: DamagedWorld[]; nextId: number }> {
  const { entries, nextId } = classifyWorlds(dir);
  const worlds: RecoveredWorld[] = [];
  const damaged: DamagedWorld[] = [];
  const damage = (id: string, at: string, d: Damage) => {
    damaged.push({ id, dir: at, damage: d });
    o.log.warn(`world ${id} is damaged and not served (its files are left as they are): ${d.reason}`);
  };
  for (const e of entries) {
    if (e.kind === 'deleted' || e.kind === 'incomplete') {
      o.log.info(`removing ${e.dir}: ${e.kind === 'deleted' ? 'a deletion that was answered but not finished' : 'a creation that was never answered'}`);
      rmSync(e.dir, { recursive: true, force: true });
      continue;
    }
    if (e.kind === 'damaged') {
      damage(e.id, e.dir, e.damage);
      continue;
    }
    const r = await reopen(e, o);
    if ('reason' in r) damage(e.id, e.dir, r);
    else worlds.push(r);
  }
  return { worlds, damaged, nextId };
}
