// A state directory in use: the lock, recovery at open, the journal writer, and compaction into atomic snapshots.
import { AsyncResource } from 'node:async_hooks';
import { existsSync, mkdirSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { StoreDump, StoreSnapshot } from '../../ports/store.js';
import { snapshotDump } from '../memory/memory-store.js';
import { encodeFrame, FORMAT_VERSION } from './frame.js';
import { JournalWriter } from './journal-writer.js';
import type { JournalRecord, RecordBody, SnapshotFrame, SnapshotHeader, StoredRow } from './records.js';
import { dumpOf, readState, type ReplayReport, type ReplayState } from './recovery.js';
import { acquireLock, fsyncDir, journalName, listStateFiles, snapshotName, STATE_MARKER, writeFileAtomic, type StateLock } from './state-files.js';

/** Where notices go (a pino logger fits). */
export interface StateLogger { info(msg: string): void; warn(msg: string): void }

/** Options of {@link StateDir.open}. */
export interface StateDirOptions {
  log?: StateLogger;
  /**
   * Compact once the current journal file is this big and at least a quarter of the last snapshot
   * (which bounds the rewriting a big state costs). Default 16 MiB: a restart then replays at most
   * about 12k trade records after the snapshot.
   */
  compactBytes?: number;
}

/** A consistent cut of the state for a compacted snapshot. */
export interface CompactionPoint {
  seq: number; main: StoreDump; meta: unknown; named: [string, StoreDump][];
  /** Resolves once the journal file after `seq` exists on disk. */
  rotated?: Promise<void>;
}

/** What a store journaling into a StateDir offers it (implemented by FileStore). */
export interface JournalSource {
  /** Between two store calls: rotate the journal and return the state there. */
  compactionPoint(): CompactionPoint;
}

const SILENT: StateLogger = { info: () => undefined, warn: () => undefined };
const ROWS_PER_FRAME = 1000;

/** Frames of a snapshot file: header, rows in chunks, seqs and aux per section, end. */
async function* snapshotFrames(p: CompactionPoint): AsyncGenerator<Buffer> {
  let frames = 0;
  const frame = (v: SnapshotHeader | SnapshotFrame) => {
    frames += 1;
    return encodeFrame(JSON.stringify(v));
  };
  yield frame({ k: 'snapshot', format: 'compsim-state-snapshot', version: FORMAT_VERSION, seq: p.seq, w: Date.now(), meta: p.meta, named: p.named.map(([id]) => id) });
  for (const [s, d] of [['', p.main] as [string, StoreDump], ...p.named]) {
    for (const [t, rows] of Object.entries(d.tables)) {
      for (let i = 0; i < rows.length; i += ROWS_PER_FRAME) {
        yield frame({ k: 'rows', s, t, rows: rows.slice(i, i + ROWS_PER_FRAME) as StoredRow[] });
        await yieldToLoop(); // keep serving requests while a big snapshot is written
      }
    }
    yield frame({ k: 'seqs', s, seqs: d.seqs });
    yield frame({ k: 'aux', s, aux: d.aux });
  }
  yield frame({ k: 'end', frames: frames + 1 });
}

/**
 * An open state directory: holds the lock, recovers the state at open (cutting a torn journal end
 * with a notice), appends records through a group-commit writer and compacts in the background.
 */
export class StateDir {
  /** Opaque owner metadata, as of the last record. */
  meta: unknown;
  /** Named snapshots, as of the last record. */
  readonly named = new Map<string, StoreSnapshot | StoreDump>();
  /** The store whose transactions are journaled (one at a time). */
  active: JournalSource | null = null;
  private compacting: Promise<void> | null = null;
  private snapshotBytes: number;
  /** Background compactions start in the directory's own async context, never inside a store call's. */
  private readonly background = new AsyncResource('compsim-compaction');

  private constructor(readonly dir: string, private readonly lock: StateLock, private readonly writer: JournalWriter,
    /** The state read at open, until a store adopts it (null when the directory was empty). */
    public recovered: ReplayState | null, readonly report: ReplayReport, private readonly log: StateLogger,
    private readonly compactBytes: number) {
    this.meta = recovered?.meta ?? null;
    for (const [id, d] of recovered?.named ?? []) this.named.set(id, d);
    this.snapshotBytes = report.snapshot?.bytes ?? 0;
  }

  /** Locks and recovers `dir` (created if missing). Throws on corruption, a newer format or a live lock holder. */
  static async open(dir: string, options: StateDirOptions = {}): Promise<StateDir> {
    const log = options.log ?? SILENT;
    if (!existsSync(dir)) {
      mkdirSync(dir, { recursive: true });
      await fsyncDir(dirname(resolve(dir))); // the new directory's own entry survives a power cut too
    }
    const lock = acquireLock(dir, (m) => log.warn(m));
    try {
      const files = listStateFiles(dir);
      const { state, report } = readState(dir, files);
      for (const t of files.temps) unlinkSync(join(dir, t)); // interrupted snapshot writes
      const lastFile = files.journals.at(-1);
      const last = report.journals.at(-1);
      if (report.torn) {
        const t = report.torn;
        log.warn(`journal ${t.file}: cutting a torn last record at byte offset ${t.offset} (${t.bytes} bytes, ${t.reason}); `
          + 'it was being appended when the process stopped and was never acknowledged');
        truncateSync(t.file, t.offset);
        const fh = await open(t.file, 'r+');
        await fh.sync();
        await fh.close();
      }
      let writer: JournalWriter;
      const flushed = () => self?.maybeCompact();
      const failed = (err: Error) => log.warn(`${err.message}; every store call now fails until compsim is restarted on ${dir}`);
      let self: StateDir | undefined;
      // Appends go on in the last file, unless it predates marks (its mark would be written over its header).
      if (last && lastFile && last.name === lastFile.name && last.marked && last.lastSeq === state.seq) {
        const path = join(dir, last.name);
        writer = new JournalWriter(dir, await open(path, 'r+'), last.base, statSync(path).size, state.seq, flushed, failed);
      } else {
        const created = await JournalWriter.create(dir, state.seq + 1, Object.fromEntries(state.main.aux));
        writer = new JournalWriter(dir, created.fh, state.seq + 1, created.bytes, state.seq, flushed, failed);
      }
      // From the first journal file on, the directory is known to hold a state (see STATE_MARKER).
      if (!existsSync(join(dir, STATE_MARKER))) await writeFileAtomic(dir, STATE_MARKER, [Buffer.from(`${JSON.stringify({ format: 'compsim-state', version: FORMAT_VERSION })}\n`)]);
      self = new StateDir(dir, lock, writer, state.seq > 0 ? state : null, report, log, options.compactBytes ?? 16 * 2 ** 20);
      await self.removeObsolete();
      return self;
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  /** Seq of the last record appended. */
  get lastSeq(): number {
    return this.writer.lastSeq;
  }

  /** Journal syncs since open (each covers every record queued before it). */
  get syncs(): number {
    return this.writer.syncs;
  }

  /** The writer's failure, if it stopped. */
  get failed(): Error | null {
    return this.writer.failed;
  }

  /** Appends a record (numbered and stamped with the wall time here); returns its seq. */
  append(body: RecordBody): number {
    const seq = this.writer.lastSeq + 1;
    const rec: JournalRecord = { seq, w: Date.now(), ...body };
    this.writer.append(seq, encodeFrame(JSON.stringify(rec)));
    return seq;
  }

  /** Resolves once record `seq` is durable. */
  durable(seq: number): Promise<void> {
    return this.writer.durable(seq);
  }

  /** Journal rotation at a compaction point (called by the active store between two calls). */
  rotate(aux: Record<string, unknown>): { seq: number; rotated: Promise<void>; meta: unknown; named: [string, StoreDump][] } {
    const named = [...this.named].map(([id, s]): [string, StoreDump] => [id, 'format' in s ? s : snapshotDump(s)]);
    return { seq: this.writer.lastSeq, rotated: this.writer.rotate(aux), meta: this.meta, named };
  }

  /** Writes a compacted snapshot of the active store and deletes the files it replaces; one at a time. */
  compact(): Promise<void> {
    this.compacting ??= (async () => {
      try {
        if (this.writer.lastSeq < this.writer.base || !this.active) return; // nothing since the last snapshot
        await this.writeSnapshot(this.active.compactionPoint());
      } finally {
        this.compacting = null;
      }
    })();
    return this.compacting;
  }

  /** Offline compaction of the recovered state (`compsim state compact`); false when there was nothing to do. */
  async compactRecovered(tableOrder: readonly string[] = []): Promise<boolean> {
    const s = this.recovered;
    if (!s || this.writer.lastSeq < this.writer.base) return false;
    const aux = Object.fromEntries(s.main.aux);
    await this.writer.rotate(aux);
    await this.writeSnapshot({ seq: s.seq, main: dumpOf(s.main, tableOrder), meta: s.meta, named: [...s.named] });
    return true;
  }

  /** Waits for compaction and pending writes, closes the journal and releases the lock. */
  async close(): Promise<void> {
    try {
      await this.compacting?.catch(() => undefined);
      await this.writer.close();
    } finally {
      this.lock.release();
    }
  }

  /** Starts a background compaction when the journal has grown past the threshold. */
  maybeCompact(): void {
    if (this.compacting || this.writer.failed) return;
    if (this.writer.bytes < this.compactBytes || this.writer.bytes < this.snapshotBytes / 4) return;
    this.background.runInAsyncScope(() => this.compact())
      .catch((err: unknown) => this.log.warn(`compaction failed (the journal keeps everything): ${(err as Error).message}`));
  }

  private async writeSnapshot(p: CompactionPoint): Promise<void> {
    await p.rotated; // the new journal exists before the snapshot that makes the old ones obsolete
    this.snapshotBytes = await writeFileAtomic(this.dir, snapshotName(p.seq), snapshotFrames(p));
    await this.removeObsolete();
    this.log.info(`compacted ${this.dir} at record ${p.seq} (snapshot ${this.snapshotBytes} bytes)`);
  }

  /** Deletes snapshots older than the newest and journals whose records are all in it (left by an interrupted compaction). */
  private async removeObsolete(): Promise<void> {
    const files = listStateFiles(this.dir);
    const seq = files.snapshots.at(-1)?.seq;
    if (seq === undefined) return;
    const doomed = [
      ...files.snapshots.filter((s) => s.seq < seq).map((s) => s.name),
      ...files.journals.filter((j, i) => (files.journals[i + 1]?.base ?? Infinity) <= seq + 1 && j.name !== journalName(this.writer.base)).map((j) => j.name),
    ];
    for (const name of doomed) unlinkSync(join(this.dir, name));
    if (doomed.length > 0) await fsyncDir(this.dir);
  }
}
