// The frames of the state files as types: journal records (one union the writer builds and recovery reads), file headers and snapshot sections, with the checks recovery applies.

/** A row id. */
export type Id = string | number;

/** A stored row (rows are JSON objects with an id). */
export interface StoredRow { id: Id; [field: string]: unknown }

/** One row write of a transaction: put (insert or replace) or delete. */
export type RowOp = ['p', string, StoredRow] | ['d', string, Id];

/** Rows per table, sequences and aux states: the whole state of a store as a journal record carries it. */
export interface StateBody { tables: Record<string, StoredRow[]>; seqs: Record<string, number>; aux: Record<string, unknown> }

/** A committed transaction: its row writes, the sequences it advanced, the aux states whose capture changed and the reported changes of the others. */
export interface TxRecord {
  k: 'tx';
  ops: RowOp[];
  seqs?: Record<string, number>;
  aux?: Record<string, unknown>;
  /** Per aux state, `[key, ...values]` entries set, or `[key]` entries removed (see `AuxState.takeChanges`). */
  auxChanges?: Record<string, unknown[][]>;
}

/** The whole state (a restore, load or activation), optionally with new owner metadata and dropping the named snapshots. */
export interface StateRecord extends StateBody { k: 'state'; meta?: unknown; clearNamed?: true }

/** A named snapshot, whole. */
export interface NamedRecord extends StateBody { k: 'named'; id: string }

/** What a store appends; the state directory adds the seq and the wall time. */
export type RecordBody = TxRecord | StateRecord | NamedRecord;

/** Fields every journal record carries. */
export interface RecordBase {
  /** 1, 2, 3 ... without a gap across files. */
  seq: number;
  /** Wall time of the append, epoch ms. */
  w: number;
}

/** A journal record as stored. */
export type JournalRecord = RecordBase & RecordBody;

/** First frame of a journal file: the last seq synced into it (fixed width, rewritten in place). */
export interface MarkFrame { k: 'mark'; synced: number }

/** The frame after the mark: where the file starts and the aux captures at that point. */
export interface JournalHeader { k: 'journal'; format: 'compsim-journal'; version: number; base: number; aux: Record<string, unknown> }

/** First frame of a snapshot file. */
export interface SnapshotHeader {
  k: 'snapshot'; format: 'compsim-state-snapshot'; version: number;
  /** Last record the snapshot contains. */
  seq: number; w: number; meta: unknown;
  /** Ids of the named snapshots, each a section after the main one. */
  named: string[];
}

/** The frames of a snapshot file after its header; `s` names the section ('' = the main state, else a named snapshot). */
export type SnapshotFrame =
  | { k: 'rows'; s: string; t: string; rows: StoredRow[] }
  | { k: 'seqs'; s: string; seqs: Record<string, number> }
  | { k: 'aux'; s: string; aux: Record<string, unknown> }
  | { k: 'end'; frames: number };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is Id => typeof v === 'string' || typeof v === 'number';
const isRow = (v: unknown): v is StoredRow => isObject(v) && isId(v.id);
const isSeqNumber = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

function seqsProblem(v: unknown, where: string): string | null {
  if (!isObject(v)) return `${where} is not an object of sequences`;
  for (const [n, x] of Object.entries(v)) if (!Number.isSafeInteger(x)) return `${where}.${n} is not an integer`;
  return null;
}

function tablesProblem(v: unknown): string | null {
  if (!isObject(v)) return 'tables is not an object of row arrays';
  for (const [t, rows] of Object.entries(v)) {
    if (!Array.isArray(rows)) return `tables.${t} is not an array`;
    const bad = rows.findIndex((r) => !isRow(r));
    if (bad >= 0) return `tables.${t}[${bad}] is not a row with an id`;
  }
  return null;
}

function stateProblem(v: Record<string, unknown>): string | null {
  return tablesProblem(v.tables) ?? seqsProblem(v.seqs, 'seqs') ?? (isObject(v.aux) ? null : 'aux is not an object');
}

function opsProblem(ops: unknown): string | null {
  if (!Array.isArray(ops)) return 'ops is not an array';
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i] as unknown[];
    const ok = Array.isArray(op) && op.length === 3 && typeof op[1] === 'string'
      && ((op[0] === 'p' && isRow(op[2])) || (op[0] === 'd' && isId(op[2])));
    if (!ok) return `ops[${i}] is not ["p", table, row] or ["d", table, id]`;
  }
  return null;
}

function txProblem(v: Record<string, unknown>): string | null {
  const bad = opsProblem(v.ops) ?? (v.seqs === undefined ? null : seqsProblem(v.seqs, 'seqs'));
  if (bad) return bad;
  if (v.aux !== undefined && !isObject(v.aux)) return 'aux is not an object';
  if (v.auxChanges === undefined) return null;
  if (!isObject(v.auxChanges)) return 'auxChanges is not an object';
  for (const [n, d] of Object.entries(v.auxChanges)) {
    if (!Array.isArray(d) || !d.every((e) => Array.isArray(e) && e.length > 0)) return `auxChanges.${n} is not a list of [key, ...values] entries`;
  }
  return null;
}

/** Why a parsed journal frame is not a record, or null when it is one (its fields have the types the union says). */
export function recordProblem(v: unknown): string | null {
  if (!isObject(v)) return 'the record is not an object';
  if (!isSeqNumber(v.seq) || v.seq === 0) return 'the record has no seq';
  if (typeof v.w !== 'number') return 'the record has no write time';
  switch (v.k) {
    case 'tx': return txProblem(v);
    case 'state': return stateProblem(v);
    case 'named': return typeof v.id === 'string' ? stateProblem(v) : 'a named snapshot record has no id';
    default: return `unknown record kind ${JSON.stringify(v.k ?? null)}`;
  }
}

/** Why a parsed frame is not a journal file's header, or null. */
export function journalHeaderProblem(v: unknown, base: number): string | null {
  if (!isObject(v) || v.k !== 'journal' || v.format !== 'compsim-journal') return 'not a compsim journal (bad header frame)';
  if (v.base !== base) return `the header says the file starts at record ${String(v.base)}, its name says ${base}`;
  return isObject(v.aux) ? null : 'the header frame has no aux states';
}

/** The mark frame's synced seq, or null when `v` is not a mark (files written before marks existed start with the header). */
export function markOf(v: unknown): number | null {
  return isObject(v) && v.k === 'mark' && isSeqNumber(v.synced) ? v.synced : null;
}

/** Why a parsed frame is not a snapshot file's header, or null. */
export function snapshotHeaderProblem(v: unknown): string | null {
  if (!isObject(v) || v.k !== 'snapshot' || v.format !== 'compsim-state-snapshot') return 'not a compsim state snapshot';
  if (!isSeqNumber(v.seq) || typeof v.w !== 'number') return 'the snapshot header has no seq or write time';
  if (!Array.isArray(v.named) || !v.named.every((n) => typeof n === 'string')) return 'the snapshot header has no list of named snapshots';
  return null;
}

/** Why a parsed frame of a snapshot file's body is not one, or null. */
export function snapshotFrameProblem(v: unknown): string | null {
  if (!isObject(v)) return 'the frame is not an object';
  switch (v.k) {
    case 'rows':
      if (typeof v.s !== 'string' || typeof v.t !== 'string' || !Array.isArray(v.rows)) return 'a rows frame needs a section, a table and rows';
      return v.rows.every(isRow) ? null : `a rows frame of ${v.t} holds a row without an id`;
    case 'seqs': return typeof v.s === 'string' ? seqsProblem(v.seqs, 'seqs') : 'a seqs frame needs a section';
    case 'aux': return typeof v.s === 'string' && isObject(v.aux) ? null : 'an aux frame needs a section and an object';
    case 'end': return Number.isSafeInteger(v.frames) ? null : 'the end frame has no frame count';
    default: return `unexpected ${JSON.stringify(v.k ?? null)} frame`;
  }
}
