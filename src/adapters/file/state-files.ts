// State directory files: names, listing, the one-process lock, atomic writes and directory fsync.
import { closeSync, fsyncSync, linkSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';

/** Name of the lock file inside a state directory. */
export const LOCK_FILE = 'LOCK';

/**
 * Written (synced) once a directory holds its first journal file and never removed: a directory
 * with it but without any journal or snapshot lost its files, and is refused instead of being
 * started as a new, empty world.
 */
export const STATE_MARKER = 'compsim-state.json';
const DIGITS = 16;

/** `journal-<first record seq>.log`, zero-padded so names sort in order. */
export const journalName = (base: number) => `journal-${String(base).padStart(DIGITS, '0')}.log`;
/** `snapshot-<last record seq it contains>.snap`. */
export const snapshotName = (seq: number) => `snapshot-${String(seq).padStart(DIGITS, '0')}.snap`;

/** The files of a state directory, oldest first. */
export interface StateFiles {
  snapshots: { name: string; seq: number }[];
  journals: { name: string; base: number }[];
  /** Leftovers of interrupted snapshot writes (`*.tmp`), never read. */
  temps: string[];
}

/** Lists the state files of `dir` (other files are ignored). */
export function listStateFiles(dir: string): StateFiles {
  const out: StateFiles = { snapshots: [], journals: [], temps: [] };
  for (const name of readdirSync(dir).sort()) {
    const snap = /^snapshot-(\d+)\.snap$/.exec(name);
    const journal = /^journal-(\d+)\.log$/.exec(name);
    if (snap) out.snapshots.push({ name, seq: Number(snap[1]) });
    else if (journal) out.journals.push({ name, base: Number(journal[1]) });
    else if (name.endsWith('.tmp')) out.temps.push(name);
  }
  return out;
}

/** Makes renames, creations and deletions in `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Writes `name` in `dir` atomically: a `.tmp` file, fsync, rename over the final name, fsync of
 * the directory. A crash leaves either no file or the complete one (plus a `.tmp` to delete).
 */
export async function writeFileAtomic(dir: string, name: string, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<number> {
  const tmp = join(dir, `${name}.tmp`);
  const fh = await open(tmp, 'w');
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      for (let off = 0; off < chunk.length;) off += (await fh.write(chunk, off)).bytesWritten;
      bytes += chunk.length;
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, name));
  await fsyncDir(dir);
  return bytes;
}

/** Another live process holds the state directory. */
export class StateLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateLockedError';
  }
}

/** Start time of a process in clock ticks since boot (`/proc/<pid>/stat` field 22); null where there is no procfs. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Reads a lock file; null when there is none. */
function readLock(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The pid a lock file names and whether that process is alive. */
function holderOf(text: string): { pid: number | null; alive: boolean } {
  const m = /^(\d+)(?: (\d+))?$/.exec(text.trim());
  const pid = m ? Number(m[1]) : null;
  return { pid, alive: pid !== null && alive(pid, m?.[2] ?? null) };
}

/** Who holds the lock of `dir`: its pid and whether that process is alive; null when unlocked. */
export function lockHolder(dir: string): { pid: number | null; alive: boolean } | null {
  const text = readLock(join(dir, LOCK_FILE));
  return text === null ? null : holderOf(text);
}

/** True when `pid` runs and, where the lock recorded a start time, is still the process that wrote it (pids get reused). */
function alive(pid: number, started: string | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false; // EPERM: exists, owned by someone else
  }
  const now = started === null ? null : startTime(pid);
  return now === null || now === started;
}

/** A held lock. */
export interface StateLock { release(): void }

/**
 * Takes the lock of `dir`: `LOCK` holding this pid (and, on Linux, the process's start time, so a
 * pid reused by another process is not mistaken for the holder). The pid is written to a temp file
 * first and hard-linked into place, so `LOCK` never exists without its pid and the link fails when
 * it is taken. A lock left by a process that no longer runs (a crash) is taken over with a notice;
 * a live holder (this process included) is refused with {@link StateLockedError}.
 */
export function acquireLock(dir: string, warn: (msg: string) => void): StateLock {
  const path = join(dir, LOCK_FILE);
  const started = startTime(process.pid);
  const stamp = `${process.pid}${started === null ? '' : ` ${started}`}\n`;
  const temp = join(dir, `${LOCK_FILE}.${process.pid}.new`);
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, stamp);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    take(path, temp, (pid) => new StateLockedError(`state directory ${dir} is in use by process ${pid} (lock file ${path}): `
      + 'only one compsim process may open a state directory at a time'), warn);
  } finally {
    unlinkSync(temp);
  }
  return {
    release() {
      if (readLock(path) === stamp) unlinkSync(path);
    },
  };
}

/**
 * Links `temp` into place as `file`. A stale `file` (its process is dead) is removed only by the
 * one process that first takes `file~<its content>` the same way, after checking that `file`
 * still holds that content: only a holder of that name ever removes it, so two processes can
 * never both remove a stale lock and the second remove the first one's fresh lock.
 */
function take(file: string, temp: string, locked: (pid: number | null) => StateLockedError, warn: (msg: string) => void): void {
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      linkSync(temp, file);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const text = readLock(file);
    if (text === null) continue; // released meanwhile
    const holder = holderOf(text);
    if (holder.alive) throw locked(holder.pid); // a live holder, or a live process taking over a stale one
    const breaker = `${file}~${text.trim().replace(/[^0-9a-z]+/gi, '-') || 'empty'}`;
    take(breaker, temp, locked, warn);
    try {
      if (readLock(file) === text) {
        warn(`taking over the stale lock ${file}${holder.pid === null ? '' : ` of process ${holder.pid}, which is no longer running`}`);
        unlinkSync(file);
      }
    } finally {
      unlinkSync(breaker);
    }
  }
  throw new StateLockedError(`could not take the lock ${file}: another process keeps taking it`);
}
