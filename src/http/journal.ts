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

/** A bounded, append-only log of answered requests (not world state: snapshots and loads leave it alone). */
export class RequestJournal {
  private entries: JournalEntry[] = [];
  private start = 0;
  private seq = 0;

  constructor(private readonly capacity = JOURNAL_CAPACITY) {}

  /** Appends an answered request (the journal endpoint itself is skipped). */
  record(e: { method: string; path: string; status: number; at: number; principal: Principal; routeId: string | null }): void {
    if (e.path === JOURNAL_PATH || e.path === `${JOURNAL_PATH}/`) return;
    this.entries.push({
      seq: ++this.seq, method: e.method.toUpperCase(), path: e.path, status: e.status, at: e.at, principal: e.principal.kind,
      agentId: e.principal.kind === 'agent' ? e.principal.agentId : null, routeId: e.routeId,
    });
    // Drop in chunks so trimming stays O(1) amortised.
    if (this.entries.length - this.start > this.capacity) this.start += 1;
    if (this.start > this.capacity) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
  }

  /** Matching entries, oldest first. */
  list(f: JournalFilter = {}): JournalEntry[] {
    const method = f.method?.toUpperCase();
    const out: JournalEntry[] = [];
    for (let i = this.start; i < this.entries.length; i++) {
      const e = this.entries[i]!;
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
    this.entries = [];
    this.start = 0;
    this.seq = 0;
  }
}
