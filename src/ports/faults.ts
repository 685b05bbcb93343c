// Fault injection types: price faults (applied by the price source) and path faults (applied at the HTTP edge).
import type { SpecificChain } from './prices.js';

/** Metadata metrics a `constraintFail` fault can break (`all` removes every metric). */
export const CONSTRAINT_METRICS = ['pairAge', 'volume', 'liquidity', 'fdv', 'all'] as const;
/** One of {@link CONSTRAINT_METRICS}. */
export type ConstraintMetric = (typeof CONSTRAINT_METRICS)[number];

/** Every fault kind, in documentation order. */
export const FAULT_KINDS = ['priceMissing', 'priceZero', 'priceStale', 'constraintFail', 'rateLimit', 'latency'] as const;
/** One of {@link FAULT_KINDS}. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Which token a price fault hits; without `specificChain`, every chain of the token's family (0x = EVM, else svm). */
interface TokenTarget { token: string; specificChain?: SpecificChain }

/** A fault as requested (times in epoch ms). */
export type FaultSpec =
  | ({ kind: 'priceMissing' | 'priceZero' } & TokenTarget)
  | ({ kind: 'priceStale'; at: number } & TokenTarget)
  | ({ kind: 'constraintFail'; metric: ConstraintMetric } & TokenTarget)
  /** `remaining` null = every request while the fault exists. */
  | { kind: 'rateLimit'; path: string; remaining: number | null; retryAfter: number }
  | { kind: 'latency'; path: string; ms: number };

/** A stored fault. */
export type Fault = FaultSpec & { id: string };

/** A fault that changes what the price source answers. */
export type PriceFault = Extract<Fault, { token: string }>;

/** A fault applied to requests under a path prefix. */
export type PathFault = Extract<Fault, { path: string }>;

/** What the price source needs to know about faults. */
export interface PriceFaultLookup {
  /** Price faults hitting `address` on `chain`, in the order they were added. */
  priceFaults(address: string, chain: SpecificChain): readonly PriceFault[];
}
