// Append-only journal writer with group commit: records appended while an fsync runs share the next one.
import { AsyncResource } from 'node:async_hooks';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeFrame, FORMAT_VERSION } from './frame.js';
import { fsyncDir, journalName } from './state-files.js';

type Item = { kind: 'record'; buf: Buffer } | { kind: 'rotate'; base: number; aux: Record<string, unknown>; done: (err?: Error) => void };

/** The header frame every journal file starts with. */
export function journalHeader(base: number, aux: Record<string, unknown>): Buffer {
  return encodeFrame(JSON.stringify({ k: 'journal', format: 'compsim-journal', version: FORMAT_VERSION, base, aux }));
}

/**
 * Appends framed records to the current journal file. `append` only queues (it runs inside a
 * store call and never waits); one flush loop writes everything queued, then
 * `datasync`s once, then releases every waiter up to the last record written: group commit.
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

  /** Creates a new journal file (exclusively) holding only its header, synced with its directory. */
  static async create(dir: string, base: number, aux: Record<string, unknown>): Promise<{ fh: FileHandle; bytes: number }> {
    const fh = await open(join(dir, journalName(base)), 'wx');
    const header = journalHeader(base, aux);
    await fh.write(header, 0, header.length);
    await fh.datasync();
    await fsyncDir(dir);
    await fh.close();
    return { fh: await open(join(dir, journalName(base)), 'a'), bytes: header.length };
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
    for (let off = 0; off < all.length;) off += (await this.fh.write(all, off, all.length - off)).bytesWritten;
    this.bytes += all.length;
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
