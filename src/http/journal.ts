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
 * alone): a ring of entries, the newest taking the oldest one's slot once it is full.
 */
export class RequestJournal {
  private readonly entries: JournalEntry[] = [];
  /** Slot of the oldest entry (once the ring is full). */
  private head = 0;
  private seq = 0;

  constructor(private readonly capacity = JOURNAL_CAPACITY) {}

  /** Appends an answered request (the journal endpoint itself is skipped). */
  record(e: { method: string; path: string; status: number; at: number; principal: Principal; routeId: string | null }): void {
    this.recordAt(e, e.at);
  }

  /** {@link record} of a request answered at virtual instant `at`. */
  recordAt(e: { method: string; path: string; status: number; principal: Principal; routeId: string | null }, at: number): void {
    if (e.path === JOURNAL_PATH || e.path === JOURNAL_PATH_SLASH) return;
    const p = e.principal;
    const entry: JournalEntry = {
      seq: ++this.seq, method: e.method.toUpperCase(), path: e.path, status: e.status, at,
      principal: p.kind, agentId: p.kind === 'agent' ? p.agentId : null, routeId: e.routeId,
    };
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
    } else {
      this.entries[this.head] = entry;
      this.head = (this.head + 1) % this.capacity;
    }
  }

  /** Matching entries (copies), oldest first. */
  list(f: JournalFilter = {}): JournalEntry[] {
    const method = f.method?.toUpperCase();
    const out: JournalEntry[] = [];
    const n = this.entries.length;
    for (let i = 0; i < n; i++) {
      const e = this.entries[(this.head + i) % n]!;
      if (method !== undefined && e.method !== method) continue;
      if (f.path !== undefined && !e.path.startsWith(f.path)) continue;
      if (f.status !== undefined && e.status !== f.status) continue;
      if (f.agentId !== undefined && e.agentId !== f.agentId) continue;
      if (f.sinceSeq !== undefined && e.seq <= f.sinceSeq) continue;
      if (f.sinceTime !== undefined && e.at < f.sinceTime) continue;
      out.push({ ...e });
    }
    return f.limit !== undefined && out.length > f.limit ? out.slice(out.length - f.limit) : out;
  }

  /** Forgets everything; the next entry is seq 1 again (a world reset starts a new run). */
  clear(): void {
    this.entries.length = 0;
    this.head = 0;
    this.seq = 0;
  }
}
