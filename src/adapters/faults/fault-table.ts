// FaultTable: the injected faults of a world (price and path faults) with deterministic ids; a store aux state.
import type { AuxState } from '../../ports/store.js';
import type { Fault, FaultSpec, PathFault, PriceFault, PriceFaultLookup } from '../../ports/faults.js';
import type { SpecificChain } from '../../ports/prices.js';

interface Captured { next: number; faults: Fault[] }

/** The answer of {@link FaultTable.priceFaults} without faults (shared: prices are looked up millions of times). */
const NO_FAULTS: readonly PriceFault[] = Object.freeze([]);

/** True when `address` on `chain` is what a token fault targets (EVM addresses compare case-insensitively). */
function hits(f: PriceFault, address: string, chain: SpecificChain): boolean {
  const evm = chain !== 'svm';
  if (f.specificChain !== undefined ? f.specificChain !== chain : f.token.startsWith('0x') !== evm) return false;
  return evm ? f.token.toLowerCase() === address.toLowerCase() : f.token === address;
}

/**
 * Faults in insertion order. Ids are `fault-1`, `fault-2`, ...; the counter is part of the captured
 * state, so a restored snapshot hands out the same ids again. Mutations must run inside a store
 * transaction (the World does that), so a concurrent rollback never undoes them.
 */
export class FaultTable implements AuxState, PriceFaultLookup {
  private list: Fault[] = [];
  private next = 1;
  /** Change counter (AuxState.version): the store reuses its last capture until it moves. */
  private changes = 0;

  version(): number {
    return this.changes;
  }

  /** Adds a fault and returns it with its id. */
  add(spec: FaultSpec): Fault {
    const fault = { ...spec, id: `fault-${this.next++}` } as Fault;
    this.list.push(fault);
    this.changes += 1;
    return { ...fault };
  }

  /** Removes a fault; false when there is none with that id. */
  remove(id: string): boolean {
    const before = this.list.length;
    this.list = this.list.filter((f) => f.id !== id);
    this.changes += 1;
    return this.list.length !== before;
  }

  /** Every fault, oldest first (copies). */
  all(): Fault[] {
    return this.list.map((f) => ({ ...f }));
  }

  /** Number of faults. */
  get size(): number {
    return this.list.length;
  }

  priceFaults(address: string, chain: SpecificChain): readonly PriceFault[] {
    if (this.list.length === 0) return NO_FAULTS;
    return this.list.filter((f): f is PriceFault => 'token' in f && hits(f, address, chain));
  }

  /** Path faults of one kind whose prefix matches `path`, oldest first. */
  pathFaults<K extends PathFault['kind']>(kind: K, path: string): Extract<PathFault, { kind: K }>[] {
    return this.list.filter((f): f is Extract<PathFault, { kind: K }> => f.kind === kind && path.startsWith(f.path));
  }

  /**
   * The first active `rateLimit` fault for `path`, using up one of its counted requests; an
   * exhausted fault stays listed with `remaining: 0` until it is removed.
   */
  takeRateLimit(path: string): Extract<PathFault, { kind: 'rateLimit' }> | null {
    const i = this.list.findIndex((f) => f.kind === 'rateLimit' && path.startsWith(f.path) && f.remaining !== 0);
    if (i < 0) return null;
    const f = this.list[i] as Extract<PathFault, { kind: 'rateLimit' }>;
    const used = f.remaining === null ? f : { ...f, remaining: f.remaining - 1 };
    this.list[i] = used;
    if (used !== f) this.changes += 1;
    return { ...used };
  }

  capture(): unknown {
    return { next: this.next, faults: this.all() } satisfies Captured;
  }

  apply(v: unknown): void {
    const c = v as Captured | undefined;
    if (!c || typeof c !== 'object' || !Array.isArray(c.faults) || !Number.isInteger(c.next)) {
      throw new Error('faults: expected {next, faults[]}');
    }
    for (const f of c.faults) {
      if (!f || typeof f !== 'object' || typeof f.id !== 'string' || typeof f.kind !== 'string') throw new Error('faults: every fault needs an id and a kind');
    }
    this.list = c.faults.map((f) => ({ ...f }));
    this.next = c.next;
    this.changes += 1;
  }
}
