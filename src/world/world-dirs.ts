// Created worlds on disk (<state>/worlds): what each entry is at start, the creation and deletion steps with their syncs, and the id high-water mark.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir, writeFileAtomic } from '../adapters/file/state-files.js';
import { WORLD_ID } from '../http/worlds.js';

/** The subdirectory of a `--state` directory holding the created worlds, one directory each. */
export const WORLDS_SUBDIR = 'worlds';

/** What a created world keeps in its directory besides its state. */
export const WORLD_FILE = 'world.json';

/** The id high-water mark of `<state>/worlds`: `{"nextId": n}`; ids below it are never handed out again. */
export const IDS_FILE = 'ids.json';

/** The content of `world.json`. */
export interface WorldFile {
  id: string;
  idleTtlSeconds: number | null;
  /** SHA-256 of the admin key the world was created with (hex): two directories with the same one are one world copied. */
  adminKeyHash?: string;
  /**
   * False from the moment the directory gets its name until the world's first record is on disk,
   * then true (before the 201): a world without it never answered its creation. Absent in files
   * written before it existed, which count as complete.
   */
  complete?: boolean;
}

/** Why a world cannot be served: the file at fault and what is wrong with it. */
export interface Damage { file: string; reason: string }

/** An entry of `<state>/worlds` as found at start. */
export type WorldEntry =
  | { kind: 'world'; id: string; dir: string; file: WorldFile }
  | { kind: 'damaged'; id: string; dir: string; damage: Damage }
  /** A creation that never reached its 201 (`complete: false`, or a `.creating-<id>` directory). */
  | { kind: 'incomplete'; id: string; dir: string }
  /** A deletion that was answered but not finished (`.deleted-<id>-<n>`). */
  | { kind: 'deleted'; id: string; dir: string };

/** SHA-256 of an admin key, hex. */
export const keyHash = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The number of a `w<n>` id (0 for other ids). */
export const idNumber = (id: string): number => Number(/^w(\d+)$/.exec(id)?.[1] ?? 0);

/**
 * A comparator putting ids in creation order (`w2` before `w10`), ties and other ids by name; ids
 * that are not `w<n>` go `first` (a directory scan: `.creating-…`, `.deleted-…`) or `last` (a
 * listing: named worlds after numbered ones).
 */
export function idOrder(unnumbered: 'first' | 'last'): (a: string, b: string) => number {
  const other = unnumbered === 'first' ? 0 : Number.MAX_SAFE_INTEGER;
  const n = (id: string) => Number(/^w(\d+)$/.exec(id)?.[1] ?? other);
  return (a, b) => n(a) - n(b) || a.localeCompare(b);
}

/** The text of a thrown value: an Error's message, anything else as a string. */
export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** Why the text of `<dir>/world.json` is not the description of world `id`, or the description. */
export function parseWorldFile(text: string, file: string, id: string): WorldFile | Damage {
  const bad = (reason: string): Damage => ({ file, reason });
  if (text.trim() === '') return bad(`${file} is empty (${text.length} bytes): it was truncated`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return bad(`${file} is not JSON (${(err as Error).message}): it was truncated or overwritten`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return bad(`${file} holds ${describe(v)}, not a world description`);
  const w = v as Record<string, unknown>;
  if (w.id !== id) {
    return bad(`${file} names world ${JSON.stringify(w.id ?? null)}, but its directory is ${id}: a copy of another world's directory? `
      + 'compsim serves each world from the directory it was created in');
  }
  if (w.idleTtlSeconds !== null && w.idleTtlSeconds !== undefined && !(Number.isInteger(w.idleTtlSeconds) && (w.idleTtlSeconds as number) > 0)) {
    return bad(`${file}: idleTtlSeconds must be a positive integer or null, got ${JSON.stringify(w.idleTtlSeconds)}`);
  }
  if (w.complete !== undefined && typeof w.complete !== 'boolean') return bad(`${file}: complete must be true or false`);
  if (w.adminKeyHash !== undefined && typeof w.adminKeyHash !== 'string') return bad(`${file}: adminKeyHash must be a string`);
  return w as unknown as WorldFile;
}

/** What one `<id>` directory is: a world, a creation never answered, or damaged (world.json missing or bad). */
function entryOf(parent: string, id: string): WorldEntry {
  const dir = join(parent, id);
  const file = join(dir, WORLD_FILE);
  if (!existsSync(file)) {
    // The directory got its name with world.json inside (see beginCreation): without it, files were lost.
    return { kind: 'damaged', id, dir, damage: { file, reason: `${file} is missing: the world's files were moved or deleted` } };
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { kind: 'damaged', id, dir, damage: { file, reason: `${file} cannot be read (${(err as Error).message})` } };
  }
  const parsed = parseWorldFile(text, file, id);
  if ('reason' in parsed) return { kind: 'damaged', id, dir, damage: parsed };
  return parsed.complete === false ? { kind: 'incomplete', id, dir } : { kind: 'world', id, dir, file: parsed };
}

/** The recorded high-water mark (0 when there is none or it cannot be read: the directory names give a floor anyway). */
function recordedNextId(parent: string): number {
  try {
    const n = (JSON.parse(readFileSync(join(parent, IDS_FILE), 'utf8')) as { nextId?: unknown }).nextId;
    return Number.isSafeInteger(n) && (n as number) > 0 ? (n as number) : 0;
  } catch {
    return 0;
  }
}

/**
 * Reads `<state>/worlds` without changing it: every entry in id order, and the next id to hand out
 * (past the recorded high-water mark and every id a directory names, deleted and damaged ones too).
 * Files and directories compsim did not write are left out.
 */
export function scanWorldDirs(stateDir: string): { entries: WorldEntry[]; nextId: number } {
  const parent = join(stateDir, WORLDS_SUBDIR);
  if (!existsSync(parent)) return { entries: [], nextId: 1 };
  let nextId = Math.max(1, recordedNextId(parent));
  const entries: WorldEntry[] = [];
  const names = readdirSync(parent).sort(idOrder('first'));
  for (const name of names) {
    const dir = join(parent, name);
    const deleted = /^\.deleted-([a-z0-9][a-z0-9-]*?)-\d+$/.exec(name);
    const creating = /^\.creating-([a-z0-9][a-z0-9-]*)$/.exec(name);
    const id = deleted?.[1] ?? creating?.[1] ?? name;
    if (deleted) entries.push({ kind: 'deleted', id, dir });
    else if (creating) entries.push({ kind: 'incomplete', id, dir });
    else if (WORLD_ID.test(name) && statSync(dir).isDirectory()) entries.push(entryOf(parent, name));
    else continue;
    nextId = Math.max(nextId, idNumber(id) + 1);
  }
  return { entries, nextId };
}

/**
 * First step of a creation: `<state>/worlds/.creating-<id>` with `world.json` (not complete) inside,
 * synced, then renamed to `<id>` and the parent synced. So a directory named like a world always
 * has its world.json, and one without it lost files. Returns the world's directory.
 */
export async function beginCreation(stateDir: string, file: WorldFile): Promise<string> {
  const parent = join(stateDir, WORLDS_SUBDIR);
  if (!existsSync(parent)) {
    await mkdir(parent, { recursive: true });
    await fsyncDir(stateDir);
  }
  const temp = join(parent, `.creating-${file.id}`);
  rmSync(temp, { recursive: true, force: true }); // an attempt at this id that never answered (ids are only kept once answered)
  await mkdir(temp);
  await writeFileAtomic(temp, WORLD_FILE, [Buffer.from(`${JSON.stringify({ ...file, complete: false })}\n`)]);
  const dir = join(parent, file.id);
  if (existsSync(dir)) throw new Error(`${dir} exists already`);
  await rename(temp, dir);
  await fsyncDir(parent);
  return dir;
}

/** Last step of a creation, once the world's first record is durable: world.json says complete (replaced atomically, synced). */
export async function completeCreation(dir: string, file: WorldFile): Promise<void> {
  await writeFileAtomic(dir, WORLD_FILE, [Buffer.from(`${JSON.stringify({ ...file, complete: true })}\n`)]);
}

/** Records the id high-water mark durably. */
export async function saveNextId(stateDir: string, nextId: number): Promise<void> {
  await writeFileAtomic(join(stateDir, WORLDS_SUBDIR), IDS_FILE, [Buffer.from(`${JSON.stringify({ nextId })}\n`)]);
}

/**
 * First step of a deletion: renames `<id>` to `.deleted-<id>-<stamp>` and syncs the parent, so from
 * then on a restart never brings the world back. Returns the new path, or null when the directory
 * was already gone.
 */
export async function moveAside(stateDir: string, id: string, stamp: number): Promise<string | null> {
  const parent = join(stateDir, WORLDS_SUBDIR);
  const to = join(parent, `.deleted-${id}-${stamp}`);
  try {
    await rename(join(parent, id), to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  await fsyncDir(parent);
  return to;
}

/**
 * The world an unexpected failure belongs to, as far as it tells: its own `world` field, else the
 * `worlds/<id>` directory of a path it names (a state file, an fs error's path); null otherwise.
 */
export function worldOfFailure(err: unknown): string | null {
  const e = (err ?? {}) as { world?: unknown; file?: unknown; path?: unknown; message?: unknown };
  if (typeof e.world === 'string') return e.world;
  const end = String.raw`(?=[\/'"\s]|$)`;
  const deleted = new RegExp(String.raw`[\/]${WORLDS_SUBDIR}[\/]\.deleted-([a-z0-9][a-z0-9-]*)-\d+${end}`);
  const plain = new RegExp(String.raw`[\/]${WORLDS_SUBDIR}[\/]([a-z0-9][a-z0-9-]*)${end}`);
  for (const v of [e.file, e.path, e.message]) {
    const m = typeof v === 'string' ? (deleted.exec(v) ?? plain.exec(v)) : null;
    if (m) return m[1]!;
  }
  return null;
}
