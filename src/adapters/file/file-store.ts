// File-backed Store adapter: the memory store's tables plus a write-ahead journal; a call resolves only once its effect is on disk.
import type { AuxState, ReadTx, Schema, Store, StoreDump, StoreSnapshot, Sync, WriteTx } from '../../ports/store.js';
import { MemoryStore, requireSync, snapshotDump, snapshotOfMaps, type MemoryStoreState } from '../memory/memory-store.js';
import type { RowOp, StateRecord, StoredRow, TxRecord } from './records.js';
import { StateDir, type CompactionPoint, type JournalSource, type StateDirOptions } from './state-dir.js';

/** Options of {@link FileStore}: exactly one of `dir` and `state`. */
export interface FileStoreOptions extends StateDirOptions {
  /** A state directory the store opens itself on its first call: it recovers what the directory holds, or starts it. */
  dir?: string;
  /** An open state directory shared by several stores; this one journals only once activated or adopting. */
  state?: StateDir;
  /** Deep-freeze stored rows (tests). */
  freeze?: boolean;
}

/** Extra fields of a full-state record. */
export interface StateRecordExtra {
  /** Replaces the directory's owner metadata. */
  meta?: unknown;
  /** Drops every named snapshot. */
  clearNamed?: boolean;
}

/** The transaction handle given to `fn`, recording every write it makes. */
function recording<T>(tx: WriteTx<T>, ops: RowOp[], seqs: Map<string, number>): WriteTx<T> {
  return {
    get: (t, id) => tx.get(t, id), all: (t) => tx.all(t), find: (t, index, key) => tx.find(t, index, key),
    count: (t, index, key) => tx.count(t, index, key), slice: (t, index, key, start, end) => tx.slice(t, index, key, start, end),
    version: (t) => tx.version(t),
    insert: (t, row) => {
      const stored = tx.insert(t, row);
      ops.push(['p', String(t), stored as StoredRow]);
      return stored;
    },
    put: (t, row) => {
      const stored = tx.put(t, row);
      ops.push(['p', String(t), stored as StoredRow]);
      return stored;
    },
    delete: (t, id) => {
      const deleted = tx.delete(t, id);
      if (deleted) ops.push(['d', String(t), id]);
      return deleted;
    },
    nextSeq: (name) => {
      const v = tx.nextSeq(name);
      seqs.set(name, v);
      return v;
    },
  };
}

/**
 * The {@link Store} port on files. Tables live in a {@link MemoryStore}; every committed
 * transaction appends one journal record (its row writes, sequences and the aux states it
 * changed) as it commits, and the call resolves only after the group-commit writer has
 * synced that record, so an answered request survives `kill -9` and power loss. A restore, load
 * or activation appends a full-state record. Reads wait for the records they may have seen.
 */
export class FileStore<T> implements Store<T>, JournalSource {
  private readonly memory: MemoryStore<T>;
  private readonly auxes = new Map<string, AuxState>();
  /** JSON of each aux state as the journal last recorded it: records carry only the ones that changed. */
  private baseline = new Map<string, string>();
  private sink: StateDir | null;
  private opening: Promise<void> | null = null;

  constructor(schema: Schema<T>, private readonly options: FileStoreOptions) {
    if ((options.dir === undefined) === (options.state === undefined)) throw new Error('FileStore needs exactly one of dir and state');
    this.memory = new MemoryStore(schema, { freeze: options.freeze ?? false });
    this.sink = options.state ?? null;
  }

  /** The state directory (null before a `dir` store's first call). */
  get stateDir(): StateDir | null {
    return this.sink;
  }

  attach(name: string, aux: AuxState): void {
    this.memory.attach(name, aux);
    this.auxes.set(name, aux);
  }

  read<R>(fn: (tx: ReadTx<T>) => Sync<R>): Promise<R> {
    const sink = this.sink;
    if (!sink) return this.open().then(() => this.read(fn));
    this.memory.assertIdle();
    try {
      const r = this.memory.readNow(fn);
      return this.after(sink, sink.active === this ? sink.lastSeq : 0, r);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  transact<R>(fn: (tx: WriteTx<T>) => Sync<R>): Promise<R> {
    const sink = this.sink;
    if (!sink) return this.open().then(() => this.transact(fn));
    this.memory.assertIdle();
    let seq = 0;
    try {
      const r = this.memory.transactNow((tx) => {
        const ops: RowOp[] = [];
        const seqs = new Map<string, number>();
        const result = requireSync(fn(recording(tx, ops, seqs)));
        // Still inside the transaction: records are appended in commit order; a failed append rolls it back.
        // A transaction with nothing to record still waits for what it saw (e.g. a clock move another record carries).
        if (sink.active === this) seq = this.journalTx(sink, ops, seqs) || sink.lastSeq;
        return result;
      });
      return this.after(sink, seq, r);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  snapshot(): Promise<StoreSnapshot> {
    if (!this.sink) return this.open().then(() => this.snapshot());
    return this.memory.snapshot();
  }

  restore(s: StoreSnapshot): Promise<void> {
    return this.whole((st) => st.restore(s), true);
  }

  dump(): Promise<StoreDump> {
    return this.whole((st) => st.dump(), false);
  }

  load(d: StoreDump): Promise<void> {
    if (!d || d.format !== 'compsim-world') throw new Error('load: not a compsim-world dump');
    return this.whole((st) => st.load(d), true);
  }

  /** Makes this store the journaled one, recording its whole current state (with `extra`) durably. */
  async activate(extra: StateRecordExtra = {}): Promise<void> {
    const sink = this.bound();
    const seq = this.memory.exclusive((st) => {
      sink.active = this;
      return this.journalState(sink, st, extra);
    });
    await sink.durable(seq);
  }

  /** Takes over the state the directory recovered at open (nothing is written) and journals from there. */
  async adopt(): Promise<void> {
    const sink = this.bound();
    const rec = sink.recovered;
    if (!rec) throw new Error('adopt: the state directory recovered nothing');
    this.memory.exclusive((st) => {
      st.restore(snapshotOfMaps(rec.main.tables, rec.main.seqs, rec.main.aux));
      sink.active = this;
      this.setBaseline(Object.fromEntries([...this.auxes].map(([n, a]) => [n, a.capture()])));
    });
    sink.recovered = null;
    sink.maybeCompact();
  }

  /** Records a named snapshot (its whole content) with the state, durably; a no-op unless this store is journaled. */
  async saveNamed(id: string, s: StoreSnapshot): Promise<void> {
    const sink = this.sink;
    if (!sink || sink.active !== this) return;
    const d = snapshotDump(s);
    const seq = sink.append({ k: 'named', id, tables: d.tables as Record<string, StoredRow[]>, seqs: d.seqs, aux: d.aux });
    sink.named.set(id, s);
    await sink.durable(seq);
  }

  compactionPoint(): CompactionPoint {
    const sink = this.bound();
    return this.memory.exclusive((st) => {
      const main = snapshotDump(st.snapshot());
      const r = sink.rotate(main.aux);
      this.setBaseline(main.aux);
      return { seq: r.seq, main, meta: r.meta, named: r.named, rotated: r.rotated };
    });
  }

  /** Closes a store that opened its own directory (flushes, releases the lock); a no-op otherwise. */
  async close(): Promise<void> {
    if (this.options.state || !this.opening) return;
    await this.opening.catch(() => undefined);
    await this.sink?.close();
  }

  private bound(): StateDir {
    if (!this.sink) throw new Error('FileStore: the state directory is not open');
    return this.sink;
  }

  /** Opens a `dir` store's directory once: adopts what it recovered, or records the empty start. */
  private open(): Promise<void> {
    this.opening ??= (async () => {
      const sink = await StateDir.open(this.options.dir!, this.options);
      this.sink = sink;
      if (sink.recovered) await this.adopt();
      else await this.activate();
    })();
    return this.opening;
  }

  /** A whole-state operation; `writes` ones append a full-state record. */
  private whole<R>(fn: (st: MemoryStoreState) => R, writes: boolean): Promise<R> {
    const sink = this.sink;
    if (!sink) return this.open().then(() => this.whole(fn, writes));
    this.memory.assertIdle();
    let seq = 0;
    try {
      const r = this.memory.exclusive((st) => {
        const r = fn(st);
        if (sink.active === this) seq = writes ? this.journalState(sink, st, {}) : sink.lastSeq;
        return r;
      });
      return this.after(sink, seq, r);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Resolves `r` once record `seq` is durable (the group commit happens here, after the call returned). */
  private async after<R>(sink: StateDir, seq: number, r: R): Promise<R> {
    if (sink.failed) throw sink.failed;
    if (seq > 0) await sink.durable(seq);
    return r;
  }

  private journalTx(sink: StateDir, ops: RowOp[], seqs: Map<string, number>): number {
    const aux: Record<string, unknown> = {};
    const changed: [string, string][] = [];
    for (const [n, a] of this.auxes) {
      if (a.takeChanges) continue;
      const v = a.capture();
      if (v === undefined) continue;
      const j = JSON.stringify(v);
      if (j === this.baseline.get(n)) continue;
      aux[n] = v;
      changed.push([n, j]);
    }
    // Aux states that report changes: theirs ride with this record, or make one once enough are pending.
    const all = ops.length > 0 || seqs.size > 0 || changed.length > 0;
    const deltas: Record<string, unknown[][]> = {};
    let reported = false;
    for (const [n, a] of this.auxes) {
      const d = a.takeChanges?.(all);
      if (d) {
        deltas[n] = d as unknown[][];
        reported = true;
      }
    }
    if (!all && !reported) return 0;
    const rec: TxRecord = { k: 'tx', ops };
    if (seqs.size > 0) rec.seqs = Object.fromEntries(seqs);
    if (changed.length > 0) rec.aux = aux;
    if (reported) rec.auxChanges = deltas;
    const seq = sink.append(rec);
    for (const [n, j] of changed) this.baseline.set(n, j);
    return seq;
  }

  private journalState(sink: StateDir, st: MemoryStoreState, extra: StateRecordExtra): number {
    const d = snapshotDump(st.snapshot());
    const rec: StateRecord = { k: 'state', tables: d.tables as Record<string, StoredRow[]>, seqs: d.seqs, aux: d.aux };
    if (extra.meta !== undefined) rec.meta = extra.meta;
    if (extra.clearNamed) rec.clearNamed = true;
    const seq = sink.append(rec);
    this.setBaseline(d.aux);
    if (extra.meta !== undefined) sink.meta = extra.meta;
    if (extra.clearNamed) sink.named.clear();
    return seq;
  }

  /** The journal now holds these aux states whole: changes pending before are in them. */
  private setBaseline(aux: Record<string, unknown>): void {
    this.baseline = new Map(Object.entries(aux).map(([n, v]) => [n, JSON.stringify(v)]));
    for (const a of this.auxes.values()) a.takeChanges?.(true);
  }
}
