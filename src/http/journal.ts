// Request journal: the last N requests the server answered (virtual time, principal, route), with AND-ed filters.
import type { Principal } from '../domain/model.js';

/** One answered request. */
export interface JournalEntry {
  seq: number;
  method: string;
  path: string;
  status: number;
  /** Virtual instant of the answer (epoch ms). */
  at: number;
  principal: Principal['kind'];
  agentId: string | null;
  routeId: string | null;
}

/** Filters of {@link RequestJournal.list}; all given ones must match. */
export interface JournalFilter {
  method?: string;
  /** Path prefix. */
  path?: string;
  status?: number;
  agentId?: string;
  /** Entries after this seq (a number), or at or after this virtual instant (epoch ms, `sinceTime`). */
  sinceSeq?: number;
  sinceTime?: number;
  /** Keep only the most recent `limit` matching entries. */
  limit?: number;
}

/** Journal capacity: older entries are dropped first. */
export const JOURNAL_CAPACITY = 10_000;

/** The path of the journal's own endpoint, which is never journaled. */
export const JOURNAL_PATH = '/api/sim/requests';

const JOURNAL_PATH_SLASH = `${JOURNAL_PATH}/`;

/**
 * A bounded, append-only log of answered requests (not world state: snapshots and loads leave it
 * alone). A ring of parallel arrays: recording a request stores its fields in place (no object per
 * request, nothing to trim); {@link list} builds the entries it returns.
 */
export class RequestJournal {
  private readonly seqs: number[] = [];
  private readonly methods: string[] = [];
  private readonly paths: string[] = [];
  private readonly statuses: number[] = [];
  private readonly ats: number[] = [];
  private readonly kinds: Principal['kind'][] = [];
  private readonly agentIds: (string | null)[] = [];
  private readonly routeIds: (string | null)[] = [];
  /** Slot of the oldest entry, and how many are held. */
  private head = 0;
  private size = 0;
  private seq = 0;

  constructor(private readonly capacity = JOURNAL_CAPACITY) {}

  /** Appends an answered request (the journal endpoint itself is skipped). */
  record(e: { method: string; path: string; status: number; at: number; principal: Principal; routeId: string | null }): void {
    this.recordAt(e, e.at);
  }

  /** {@link record} of a request answered at virtual instant `at`. */
  recordAt(e: { method: string; path: string; status: number; principal: Principal; routeId: string | null }, at: number): void {
    if (e.path === JOURNAL_PATH || e.path === JOURNAL_PATH_SLASH) return;
    let slot: number;
    if (this.size < this.capacity) {
      slot = (this.head + this.size) % this.capacity;
      this.size += 1;
    } else {
      // Full: the newest takes the oldest one's slot.
      slot = this.head;
      this.head = (this.head + 1) % this.capacity;
    }
    const p = e.principal;
    this.seqs[slot] = ++this.seq;
    this.methods[slot] = e.method.toUpperCase();
    this.paths[slot] = e.path;
    this.statuses[slot] = e.status;
    this.ats[slot] = at;
    this.kinds[slot] = p.kind;
    this.agentIds[slot] = p.kind === 'agent' ? p.agentId : null;
    this.routeIds[slot] = e.routeId;
  }

  /** Matching entries, oldest first. */
  list(f: JournalFilter = {}): JournalEntry[] {
    const method = f.method?.toUpperCase();
    const out: JournalEntry[] = [];
    for (let i = 0; i < this.size; i++) {
      const k = (this.head + i) % this.capacity;
      if (method !== undefined && this.methods[k] !== method) continue;
      if (f.path !== undefined && !this.paths[k]!.startsWith(f.path)) continue;
      if (f.status !== undefined && this.statuses[k] !== f.status) continue;
      if (f.agentId !== undefined && this.agentIds[k] !== f.agentId) continue;
      if (f.sinceSeq !== undefined && this.seqs[k]! <= f.sinceSeq) continue;
      if (f.sinceTime !== undefined && this.ats[k]! < f.sinceTime) continue;
      out.push({
        seq: this.seqs[k]!, method: this.methods[k]!, path: this.paths[k]!, status: this.statuses[k]!, at: this.ats[k]!,
        principal: this.kinds[k]!, agentId: this.agentIds[k]!, routeId: this.routeIds[k]!,
      });
    }
    return f.limit !== undefined && out.length > f.limit ? out.slice(out.length - f.limit) : out;
  }

  /** Forgets everything; the next entry is seq 1 again (a world reset starts a new run). */
  clear(): void {
    for (const a of [this.seqs, this.methods, this.paths, this.statuses, this.ats, this.kinds, this.agentIds, this.routeIds]) a.length = 0;
    this.head = 0;
    this.size = 0;
    this.seq = 0;
  }
}
