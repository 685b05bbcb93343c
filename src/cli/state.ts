// `compsim state inspect|compact|export <dir>`, and opening a state directory for `compsim serve --state`.
import { existsSync, writeFileSync } from 'node:fs';
import { StateDir, type StateLogger } from '../adapters/file/state-dir.js';
import { StateCorruptError, StateVersionError, FORMAT_VERSION } from '../adapters/file/frame.js';
import { dumpOf, readState } from '../adapters/file/recovery.js';
import { listStateFiles, lockHolder, StateLockedError } from '../adapters/file/state-files.js';
import { TABLES } from '../domain/tables.js';
import { StatePersistence, type WorldMeta } from '../world/persistence.js';
import type { WorldEntry } from '../world/world-dirs.js';
import { classifyWorlds, noWorldState } from '../world/world-recovery.js';
import { bool, failure, parseFlags, str, UsageError } from './args.js';

/** Usage of `compsim state`. */
export const STATE_USAGE = `Usage: compsim state inspect <dir> [--json]   summary: files, record counts, last write, format, rows per table, created worlds
       compsim state compact <dir>           write a snapshot of everything and drop the journal before it (server stopped)
       compsim state export <dir> [--out <file>]  the world as the JSON document GET /api/sim/dump returns

<dir> is a directory written by compsim serve --state <dir>. inspect and export only read it (a
running server may keep writing); compact takes the directory's lock.`;

const TABLE_ORDER = Object.keys(TABLES);

/** A state directory that is not there (a message, not a stack). */
class NoStateDir extends Error {}
const mb = (n: number) => `${(n / 2 ** 20).toFixed(2)} MB`;
const iso = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString());

/** Opens a state directory for `serve` (lock, recovery) and logs what it found. */
export async function openServeState(dir: string, log: StateLogger, compactMb?: number): Promise<StatePersistence> {
  const persistence = await StatePersistence.open(dir, { log, ...(compactMb !== undefined ? { compactBytes: compactMb * 2 ** 20 } : {}) });
  const { report, lastSeq } = persistence.state;
  log.info(lastSeq === 0 ? `state directory ${dir} is new` : `state directory ${dir}: ${lastSeq} records`
    + `${report.snapshot ? ` (snapshot at ${report.snapshot.seq})` : ''}, ${report.replayed} replayed from the journal`);
  return persistence;
}

/** A created world as {@link classifyWorlds} finds it, as a row: its status and, for a readable one, its records. */
function worldStatus(e: WorldEntry) {
  const base = { id: e.id, dir: e.dir };
  if (e.kind === 'deleted') return { ...base, status: 'deleted (removed at the next start)' };
  if (e.kind === 'incomplete') return { ...base, status: 'creation never answered (removed at the next start)' };
  if (e.kind === 'damaged') return { ...base, status: 'damaged', file: e.damage.file, reason: e.damage.reason };
  try {
    const { state, report } = readState(e.dir, undefined, true);
    if (report.missing) return { ...base, status: 'damaged', reason: report.missing };
    if (!(state.meta as WorldMeta | null)?.created) return { ...base, status: 'damaged', reason: noWorldState(e.dir) };
    return { ...base, status: 'ok', records: state.seq, lastWrite: iso(state.lastWrite) };
  } catch (err) {
    return { ...base, status: 'damaged', reason: (err as Error).message };
  }
}

function summary(dir: string) {
  const files = listStateFiles(dir);
  const { state, report } = readState(dir, files, true);
  const holder = lockHolder(dir);
  const meta = state.meta as WorldMeta | null;
  const counts = Object.fromEntries([...new Set([...TABLE_ORDER, ...state.main.tables.keys()])].map((t) => [t, state.main.tables.get(t)?.size ?? 0]));
  const clock = state.main.aux.get('clock');
  return {
    dir, format: 'compsim-state', version: FORMAT_VERSION,
    lock: holder ? { pid: holder.pid, running: holder.alive } : null,
    records: state.seq, lastWrite: state.lastWrite === null ? null : iso(state.lastWrite),
    snapshot: report.snapshot, journals: report.journals.map(({ name, base, bytes, records, lastSeq }) => ({ name, base, bytes, records, lastSeq })),
    torn: report.torn, missing: report.missing, leftovers: report.temps,
    clock: meta?.created?.clock === 'system' ? { systemOffsetMs: clock } : { virtualTime: typeof clock === 'number' ? iso(clock) : null },
    world: meta ? { created: meta.created, reset: meta.reset } : null,
    namedSnapshots: [...state.named.keys()],
    tables: counts,
    // The created worlds of a server's directory (`<dir>/worlds/<id>`), each as the server would find it at start.
    worlds: classifyWorlds(dir).entries.map(worldStatus),
  };
}

/** A short description of world options: scalars as they are, a fixture by its size, the admin without secrets. */
function describeOptions(o: Record<string, unknown>): string {
  return Object.entries(o).map(([k, v]) => {
    if (k === 'fixture' && v && typeof v === 'object') {
      const f = v as { users?: unknown[]; competitions?: unknown[] };
      return `fixture (${f.users?.length ?? 0} users, ${f.competitions?.length ?? 0} competitions)`;
    }
    if (k === 'admin') return 'admin';
    const text = JSON.stringify(v);
    return `${k} ${text.length > 40 ? `${text.slice(0, 37)}...` : text}`;
  }).join(', ') || 'defaults';
}

function printSummary(s: ReturnType<typeof summary>): string {
  const rows: [string, string][] = [
    ['state directory', s.dir],
    ['format', `${s.format}, version ${s.version}`],
    ['lock', s.lock ? `held by process ${s.lock.pid} (${s.lock.running ? 'running' : 'not running: a stale lock, taken over on the next start'})` : 'free'],
    ['records', `${s.records} (last write ${s.lastWrite ?? 'never'})`],
    ['snapshot', s.snapshot ? `${s.snapshot.name}: records 1..${s.snapshot.seq}, ${mb(s.snapshot.bytes)}` : 'none yet'],
    ...s.journals.map((j): [string, string] => ['journal', `${j.name}: ${j.records} records${j.records ? ` (${j.lastSeq - j.records + 1}..${j.lastSeq})` : ''}, ${mb(j.bytes)}`]),
    ...(s.missing ? [['MISSING', `${s.missing}; compsim refuses to start on this directory: restore the file from a backup, or export what is left (compsim state export) and load it into a new one`] as [string, string]] : []),
    ['torn tail', s.torn ? `${s.torn.file} at byte offset ${s.torn.offset}: ${s.torn.bytes} bytes (${s.torn.reason}); cut on the next start` : 'none'],
    ['clock', 'virtualTime' in s.clock ? `${s.clock.virtualTime ?? 'unknown'} (virtual)` : `system time ${String(s.clock.systemOffsetMs)} ms offset`],
    ['world', s.world ? `created with ${describeOptions(s.world.created as Record<string, unknown>)}`
      + `${s.world.reset ? `; reset with ${describeOptions({ ...s.world.reset.options, ...(s.world.reset.seed !== undefined ? { seed: s.world.reset.seed } : {}) })}` : ''}` : 'not written by compsim serve'],
    ['named snapshots', s.namedSnapshots.length ? s.namedSnapshots.join(', ') : 'none'],
    ['rows', Object.entries(s.tables).filter(([, n]) => n > 0).map(([t, n]) => `${t} ${n}`).join(', ') || 'none'],
    ...s.worlds.map((w): [string, string] => [`world ${w.id}`, 'records' in w ? `ok: ${w.records} records (last write ${w.lastWrite}), ${w.dir}`
      : 'reason' in w ? `DAMAGED: ${w.reason}` : `${w.status}: ${w.dir}`]),
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}

/** The subcommand, directory and options of `compsim state ...`; a usage error unless they are ones the usage shows. */
function parseStateArgs([sub = '', ...rest]: string[]): { dir: string; json: boolean; out: string | undefined } {
  if (!['inspect', 'compact', 'export'].includes(sub)) throw new UsageError(`unknown subcommand '${sub}'`);
  const misuse = new UsageError('expected one state directory and the options shown');
  let parsed;
  try {
    parsed = parseFlags(rest, { json: bool, out: str }, true);
  } catch {
    throw misuse;
  }
  const { values: v, positionals: [dir, ...more] } = parsed;
  if (dir === undefined || more.length > 0 || (v.json && sub !== 'inspect') || (v.out !== undefined && sub !== 'export')) throw misuse;
  return { dir, json: v.json === true, out: v.out };
}

/** Where `compsim state` writes. */
export interface StateIo { out: { write(s: string): unknown }; err: { write(s: string): unknown } }

/** Entry point of `compsim state ...`; returns the exit code (2 misuse, 1 unreadable or locked directory). */
export async function stateMain(argv: string[], io: StateIo = { out: process.stdout, err: process.stderr }): Promise<number> {
  const [sub] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help' || argv.includes('--help') || argv.includes('-h')) {
    io.out.write(`${STATE_USAGE}\n`);
    return sub === undefined ? 2 : 0;
  }
  try {
    const { dir, json, out } = parseStateArgs(argv);
    if (!existsSync(dir)) throw new NoStateDir(`no state directory at ${dir}`);
    if (sub === 'inspect') {
      const s = summary(dir);
      io.out.write(`${json ? JSON.stringify(s, null, 2) : printSummary(s)}\n`);
    } else if (sub === 'export') {
      const doc = JSON.stringify({ success: true, ...dumpOf(readState(dir, undefined, true).state.main, TABLE_ORDER) });
      if (out) writeFileSync(out, `${doc}\n`);
      else io.out.write(`${doc}\n`);
    } else {
      const log = { info: (m: string) => io.out.write(`${m}\n`), warn: (m: string) => io.err.write(`compsim state: ${m}\n`) };
      const state = await StateDir.open(dir, { log });
      try {
        if (!(await state.compactRecovered(TABLE_ORDER))) log.info(`${dir}: nothing to compact (no journal records after the snapshot)`);
      } finally {
        await state.close();
      }
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) return failure('compsim state', STATE_USAGE, err, io.err);
    const known = err instanceof StateCorruptError || err instanceof StateVersionError || err instanceof StateLockedError || err instanceof NoStateDir;
    io.err.write(`compsim state: ${known ? (err as Error).message : (err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}
