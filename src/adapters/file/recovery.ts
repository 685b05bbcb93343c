// Reads a state directory without changing it: the newest snapshot, then every journal record after it, checked and in order.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreDump } from '../../ports/store.js';
import { DUMP_VERSION } from '../memory/memory-store.js';
import { checkedFrame, FORMAT_VERSION, parseFrame, scanFrames, StateCorruptError, type TornTail } from './frame.js';
import {
  journalHeaderProblem, markOf, recordProblem, snapshotFrameProblem, snapshotHeaderProblem,
  type Id, type JournalHeader, type JournalRecord, type SnapshotFrame, type SnapshotHeader, type StoredRow,
} from './records.js';
import { listStateFiles, STATE_MARKER, type StateFiles } from './state-files.js';

/** Store contents as plain maps (rows in insertion order), the shape records are replayed into. */
export interface StoreImage { tables: Map<string, Map<Id, unknown>>; seqs: Map<string, number>; aux: Map<string, unknown> }

/** Everything a state directory holds. */
export interface ReplayState {
  main: StoreImage;
  /** Opaque metadata of the owner (the world's creation and reset options). */
  meta: unknown;
  /** Named snapshots kept with the state (the world's `/api/sim/snapshots`). */
  named: Map<string, StoreDump>;
  /** Seq of the last record applied (0 = none). */
  seq: number;
  /** Wall time of the last record or snapshot written, epoch ms. */
  lastWrite: number | null;
}

/** What was read, for `state inspect` and the startup log. */
export interface ReplayReport {
  snapshot: { name: string; seq: number; bytes: number } | null;
  /** `marked`: the file starts with a mark frame (files written before marks existed do not). */
  journals: { name: string; base: number; bytes: number; records: number; lastSeq: number; headerOk: boolean; marked: boolean }[];
  /** Records applied after the snapshot. */
  replayed: number;
  torn: (TornTail & { file: string }) | null;
  temps: string[];
  /** Acknowledged records found missing (only when read with `lenient`, which reports instead of throwing). */
  missing: string | null;
}

/** An empty image. */
export const emptyImage = (): StoreImage => ({ tables: new Map(), seqs: new Map(), aux: new Map() });

/** Builds an image from a dump's tables, seqs and aux (rows kept as they are). */
export function imageOf(d: { tables?: Record<string, StoredRow[]>; seqs?: Record<string, number>; aux?: Record<string, unknown> }): StoreImage {
  return {
    tables: new Map(Object.entries(d.tables ?? {}).map(([n, rows]) => [n, new Map(rows.map((r) => [r.id, r]))])),
    seqs: new Map(Object.entries(d.seqs ?? {})),
    aux: new Map(Object.entries(d.aux ?? {})),
  };
}

/** The image as a versioned dump; `tableOrder` lists tables first (with empty ones), others follow. */
export function dumpOf(img: StoreImage, tableOrder: readonly string[] = []): StoreDump {
  const names = [...new Set([...tableOrder, ...img.tables.keys()])];
  return {
    format: 'compsim-world',
    version: DUMP_VERSION,
    tables: Object.fromEntries(names.map((n) => [n, [...(img.tables.get(n)?.values() ?? [])]])),
    seqs: Object.fromEntries(img.seqs),
    aux: Object.fromEntries(img.aux),
  };
}

/** Applies an aux state's reported changes (see `AuxState.takeChanges`) to its captured `[key, ...values]` entries. */
function applyChanges(captured: unknown, changes: unknown[][]): unknown[][] {
  const m = new Map(((captured ?? []) as unknown[][]).map((e) => [e[0], e]));
  for (const e of changes) {
    if (e.length === 1) m.delete(e[0]);
    else m.set(e[0], e);
  }
  return [...m.values()];
}

/** Applies one journal record (any kind) to the state. */
export function applyRecord(state: ReplayState, rec: JournalRecord): void {
  switch (rec.k) {
    case 'tx': {
      const { tables } = state.main;
      for (const op of rec.ops) {
        let m = tables.get(op[1]);
        if (!m) tables.set(op[1], (m = new Map<Id, unknown>()));
        if (op[0] === 'p') m.set(op[2].id, op[2]);
        else m.delete(op[2]);
      }
      for (const [n, v] of Object.entries(rec.seqs ?? {})) state.main.seqs.set(n, v);
      for (const [n, v] of Object.entries(rec.aux ?? {})) state.main.aux.set(n, v);
      for (const [n, d] of Object.entries(rec.auxChanges ?? {})) state.main.aux.set(n, applyChanges(state.main.aux.get(n), d));
      break;
    }
    case 'state':
      state.main = imageOf(rec);
      if ('meta' in rec) state.meta = rec.meta;
      if (rec.clearNamed) state.named.clear();
      break;
    case 'named':
      state.named.set(rec.id, dumpOf(imageOf(rec)));
      break;
  }
  state.seq = rec.seq;
  state.lastWrite = rec.w;
}

function readSnapshot(dir: string, name: string, state: ReplayState): number {
  const file = join(dir, name);
  const buf = readFileSync(file);
  const { frames } = scanFrames(buf, file, false);
  if (!frames[0]) throw new StateCorruptError(file, 0, 'not a compsim state snapshot');
  const head = checkedFrame<SnapshotHeader>(frames[0], file, snapshotHeaderProblem);
  if (head.version > FORMAT_VERSION) throw new StateCorruptError(file, 0, `snapshot version ${head.version} is newer than ${FORMAT_VERSION}`);
  const images = new Map<string, StoreImage>([['', emptyImage()]]);
  for (const id of head.named) images.set(id, emptyImage());
  let ended = false;
  for (const f of frames.slice(1)) {
    const rec = checkedFrame<SnapshotFrame>(f, file, snapshotFrameProblem);
    if (ended) throw new StateCorruptError(file, f.offset, 'data after the end frame');
    if (rec.k === 'end') {
      if (rec.frames !== frames.length) throw new StateCorruptError(file, f.offset, `the end frame counts ${rec.frames} frames, the file holds ${frames.length}`);
      ended = true;
      continue;
    }
    const img = images.get(rec.s);
    if (!img) throw new StateCorruptError(file, f.offset, `unknown section ${JSON.stringify(rec.s)}`);
    if (rec.k === 'rows') {
      let m = img.tables.get(rec.t);
      if (!m) img.tables.set(rec.t, (m = new Map<Id, unknown>()));
      for (const r of rec.rows) m.set(r.id, r);
    } else if (rec.k === 'seqs') img.seqs = new Map(Object.entries(rec.seqs));
    else img.aux = new Map(Object.entries(rec.aux));
  }
  if (!ended) throw new StateCorruptError(file, buf.length, 'the snapshot has no end frame (incomplete)');
  state.main = images.get('')!;
  state.meta = head.meta;
  for (const id of head.named) state.named.set(id, dumpOf(images.get(id)!));
  state.seq = head.seq;
  state.lastWrite = head.w;
  return buf.length;
}

/**
 * Reads `dir` into a state: the newest snapshot, then the journal records after it. Records must
 * follow each other without a gap; only the end of the last journal file may be torn (reported,
 * not cut: the caller decides), and only past the file's mark (records never acknowledged).
 * Throws StateCorruptError naming the file and offset otherwise; `lenient` reports lost
 * acknowledged records in `report.missing` instead (for `state inspect`).
 */
export function readState(dir: string, files: StateFiles = listStateFiles(dir), lenient = false): { state: ReplayState; report: ReplayReport } {
  const state: ReplayState = { main: emptyImage(), meta: null, named: new Map(), seq: 0, lastWrite: null };
  const report: ReplayReport = { snapshot: null, journals: [], replayed: 0, torn: null, temps: files.temps, missing: null };
  /** Acknowledged records are gone: refused, or only reported for `state inspect`. */
  const lost = (file: string, offset: number, reason: string) => {
    const err = new StateCorruptError(file, offset, `${reason}. Run \`compsim state inspect ${dir}\` to see what the directory still holds`);
    if (!lenient) throw err;
    report.missing = `${file}: ${reason}`;
  };
  if (files.journals.length === 0 && files.snapshots.length === 0 && existsSync(join(dir, STATE_MARKER))) {
    lost(join(dir, STATE_MARKER), 0, 'the directory held a compsim state (this file says so) but every journal and snapshot file is gone: '
      + 'the records they held are missing');
  }
  const snap = files.snapshots.at(-1);
  if (snap) report.snapshot = { name: snap.name, seq: snap.seq, bytes: readSnapshot(dir, snap.name, state) };
  if (snap && state.seq !== snap.seq) throw new StateCorruptError(join(dir, snap.name), 0, `holds seq ${state.seq}, its name says ${snap.seq}`);
  files.journals.forEach((j, i) => {
    const next = files.journals[i + 1];
    if (next && next.base <= state.seq + 1) return; // every record in it is older than the snapshot
    const file = join(dir, j.name);
    const last = i === files.journals.length - 1;
    const { frames, torn } = scanFrames(readFileSync(file), file, last);
    if (torn) report.torn = { ...torn, file };
    const entry = { name: j.name, base: j.base, bytes: statSync(file).size, records: 0, lastSeq: j.base - 1, headerOk: false, marked: false };
    report.journals.push(entry);
    if (j.base > state.seq + 1) throw new StateCorruptError(file, 0, `records ${state.seq + 1}..${j.base - 1} are missing (no snapshot or journal holds them)`);
    // A journal file appears with its header complete (written aside, then linked into place), so a shorter one was cut.
    if (!frames[0]) return lost(file, entry.bytes, `the file has no complete header (${entry.bytes} bytes): it was truncated or emptied, and every record it held is missing`);
    // The mark frame (absent in files written before it existed) holds the last seq synced into this file.
    const mark = markOf(parseFrame(frames[0], file));
    const first = mark === null ? 0 : 1;
    if (!frames[first]) throw new StateCorruptError(file, 0, 'not a compsim journal (no header frame)');
    const head = checkedFrame<JournalHeader>(frames[first], file, (v) => journalHeaderProblem(v, j.base));
    entry.headerOk = true;
    entry.marked = mark !== null;
    if (j.base === state.seq + 1) for (const [n, v] of Object.entries(head.aux)) state.main.aux.set(n, v);
    for (const f of frames.slice(first + 1)) {
      const rec = checkedFrame<JournalRecord>(f, file, recordProblem);
      entry.records += 1;
      entry.lastSeq = rec.seq;
      if (rec.seq <= state.seq) continue;
      if (rec.seq !== state.seq + 1) throw new StateCorruptError(file, f.offset, `record ${rec.seq} follows record ${state.seq}: records are missing`);
      try {
        applyRecord(state, rec);
      } catch (err) {
        throw new StateCorruptError(file, f.offset, (err as Error).message);
      }
      report.replayed += 1;
    }
    // Only records after the mark (never acknowledged) may be torn off; fewer than it means acknowledged records were lost.
    if (mark !== null && entry.lastSeq < mark) {
      lost(file, entry.bytes, `the journal ends at record ${entry.lastSeq}, but records up to ${mark} were acknowledged: `
        + `records ${entry.lastSeq + 1}..${mark} are missing (the file was truncated)`);
    }
  });
  return { state, report };
}
