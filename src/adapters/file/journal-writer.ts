// Append-only journal writer with group commit: records appended while an fsync runs share the next one.
import { AsyncResource } from 'node:async_hooks';
import { link, open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeFrame, FORMAT_VERSION } from './frame.js';
import type { JournalHeader } from './records.js';
import { fsyncDir, journalName } from './state-files.js';

type Item = { kind: 'record'; buf: Buffer } | { kind: 'rotate'; base: number; aux: Record<string, unknown>; done: (err?: Error) => void };

/**
 * The first frame of a journal file: the seq of the last record known to be on disk (the durable
 * high-water mark). Its width never changes, so it is overwritten in place after each sync; it
 * stays within the file's first disk sector, whose writes are atomic.
 */
export function journalMark(synced: number): Buffer {
  // The MarkFrame `{k: 'mark', synced}` written by hand: JSON.stringify cannot pad the number to a fixed width.
  return encodeFrame(`{"k":"mark","synced":${String(synced).padStart(16, ' ')}}`);
}

/** The header frame every journal file has after its mark. */
export function journalHeader(base: number, aux: Record<string, unknown>): Buffer {
  const head: JournalHeader = { k: 'journal', format: 'compsim-journal', version: FORMAT_VERSION, base, aux };
  return encodeFrame(JSON.stringify(head));
}

/**
 * Appends framed records to the current journal file. `append` only queues (it runs inside a
 * store call and never waits); one flush loop writes everything queued, then
 * `datasync`s once, then releases every waiter up to the last record written: group commit.
 * After each sync the file's mark is overwritten with the last synced seq (it reaches the disk
 * with the next sync at the latest), so a restart can tell a torn unacknowledged tail from a
 * file that lost acknowledged records.
 * A rotation switches to a new file (the old one synced first, the new one synced with its
 * directory before any record in it is reported durable). A write or sync error is final: the
 * writer fails every waiter and refuses further records (fail-stop; restart to recover).
 */
export class JournalWriter {
  private queue: Item[] = [];
  private queuedSeq: number;
  private durableSeq: number;
  private waiters: { seq: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private running = false;
  private inflight: Item[] = [];
  private failure: Error | null = null;
  /** Bytes in the current file. */
  bytes: number;
  /** Syncs done so far (group commit: usually far fewer than records). */
  syncs = 0;
  /** First seq of the current file. */
  base: number;

  constructor(private readonly dir: string, private fh: FileHandle, base: number, bytes: number, lastSeq: number,
    private readonly onFlushed: () => void = () => undefined, private readonly onFailed: (err: Error) => void = () => undefined) {
    this.base = base;
    this.bytes = bytes;
    this.queuedSeq = lastSeq;
    this.durableSeq = lastSeq;
    // The loop runs in the writer's own async context, not in that of the store call that kicked it
    // (a compaction started from it must not look like a store call nested in that one).
    this.startLoop = AsyncResource.bind(() => {
      this.flushing = this.loop();
    });
  }

  private readonly startLoop: () => void;

  /**
   * Creates a new journal file holding only its mark and header, synced with its directory. It is
   * written as a `.tmp` file and linked into place (failing if the name exists), so a journal file
   * is never seen without its complete header.
   */
  static async create(dir: string, base: number, aux: Record<string, unknown>): Promise<{ fh: FileHandle; bytes: number }> {
    const path = join(dir, journalName(base));
    const head = Buffer.concat([journalMark(base - 1), journalHeader(base, aux)]);
    const fh = await open(`${path}.tmp`, 'w');
    try {
      await fh.write(head, 0, head.length);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await link(`${path}.tmp`, path);
    await unlink(`${path}.tmp`);
    await fsyncDir(dir);
    return { fh: await open(path, 'r+'), bytes: head.length };
  }

  /** Seq of the last record appended (durable or not). */
  get lastSeq(): number {
    return this.queuedSeq;
  }

  /** The error that stopped the writer, if any. */
  get failed(): Error | null {
    return this.failure;
  }

  /** Queues record `seq` (must be lastSeq + 1); throws once the writer has failed. */
  append(seq: number, buf: Buffer): void {
    if (this.failure) throw this.failure;
    if (seq !== this.queuedSeq + 1) throw new Error(`journal: record ${seq} after ${this.queuedSeq}`);
    this.queue.push({ kind: 'record', buf });
    this.queuedSeq = seq;
    this.kick();
  }

  /**
   * Queues a switch to a new file starting at the next seq, whose header carries `aux`; the
   * promise resolves once the new file and its directory entry are on disk.
   */
  rotate(aux: Record<string, unknown>): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const done = new Promise<void>((resolve, reject) => {
      this.queue.push({ kind: 'rotate', base: this.queuedSeq + 1, aux, done: (err) => (err ? reject(err) : resolve()) });
    });
    this.kick();
    return done;
  }

  /** Resolves once record `seq` (and every one before it) is on disk. */
  durable(seq: number): Promise<void> {
    if (seq <= this.durableSeq) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /** Resolves once everything queued so far is on disk (rotations included). */
  async drain(): Promise<void> {
    while (this.running) await this.flushing;
    if (this.failure) throw this.failure;
  }

  /** Drains and closes the file. */
  async close(): Promise<void> {
    try {
      await this.drain();
      await this.fh.datasync(); // the last mark too
    } finally {
      await this.fh.close();
    }
  }

  private kick(): void {
    if (this.running) return;
    this.running = true;
    this.startLoop();
  }

  private async loop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const items = this.queue;
        this.inflight = items;
        this.queue = [];
        const upto = this.queuedSeq;
        let batch: Buffer[] = [];
        for (const item of items) {
          if (item.kind === 'record') {
            batch.push(item.buf);
            continue;
          }
          await this.write(batch);
          batch = [];
          await this.fh.datasync();
          await this.fh.close();
          const created = await JournalWriter.create(this.dir, item.base, item.aux);
          this.fh = created.fh;
          this.bytes = created.bytes;
          this.base = item.base;
          item.done();
        }
        await this.write(batch);
        await this.fh.datasync();
        this.syncs += 1;
        this.durableSeq = upto;
        if (this.base <= upto) await this.writeAt(journalMark(upto), 0);
        this.release();
        this.onFlushed();
      }
    } catch (err) {
      this.failure = new Error(`journal write failed, no further writes are accepted (restart to recover): ${(err as Error).message}`);
      for (const w of this.waiters.splice(0)) w.reject(this.failure);
      for (const item of [...this.inflight, ...this.queue]) if (item.kind === 'rotate') item.done(this.failure);
      this.onFailed(this.failure);
    } finally {
      // Cleared in the same tick as the empty-queue check, so an append never finds a loop that is about to stop.
      this.running = false;
    }
  }

  private async write(bufs: Buffer[]): Promise<void> {
    if (bufs.length === 0) return;
    const all = bufs.length === 1 ? bufs[0]! : Buffer.concat(bufs);
    await this.writeAt(all, this.bytes);
    this.bytes += all.length;
  }

  /** Writes at an explicit position (the file is open `r+`, not for appending, so the mark can be rewritten). */
  private async writeAt(buf: Buffer, position: number): Promise<void> {
    for (let off = 0; off < buf.length;) off += (await this.fh.write(buf, off, buf.length - off, position + off)).bytesWritten;
  }

  private release(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) {
      if (w.seq <= this.durableSeq) w.resolve();
      else this.waiters.push(w);
    }
  }
}
