// Types of a scenario document (*.scenario.json), mirroring scenario.schema.json.

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** World options sent with `POST /api/sim/reset` (the schema's `world`). */
export interface ScenarioWorld {
  prices?: Json;
  slippage?: 'upstream' | 'expected' | 'none';
  snapshotIntervalMs?: number;
  maxTradePercentage?: number;
  evmChains?: string[];
  defaultInitialBalances?: { specificChain: string; tokenSymbol: string; amount: number }[];
  defaultTradingConstraints?: Record<string, number | null>;
  leaderboardAccess?: 'participants' | 'admin';
  rateLimits?: Json;
  apiVersion?: 'spec' | '2026-08' | '2025-10';
  unknownTokens?: 'refuse' | 'synthetic';
  /** A fixture document, or a bundled world's name (`demo`). */
  fixture?: Json;
}

/** An actor declared up front: registered through the admin API, or a known key. */
export interface ActorDef {
  register?: Record<string, Json>;
  key?: string;
}

/** `call`: one HTTP request checked against `expect`. */
export interface CallStep {
  call: string;
  as?: string;
  /** Virtual time of the call: the clock moves to this ISO instant first (as `setTime` does), then the request goes out. */
  at?: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  body?: Json;
  expect?: { status?: number | number[]; body?: Json };
  save?: Record<string, string>;
  actor?: { name: string; key: string; id?: string; userId?: string };
}

/** One price override of `setPrice`. */
export interface PriceOverride { token: string; specificChain?: string; price: number | string }

/** One balance of `setBalance`: what the agent holds afterwards. */
export interface BalanceSetting { token: string; specificChain?: string; amount: number | string }

/** A fault definition (`kind` plus the kind's parameters). */
export interface FaultDef { kind: string; [param: string]: Json }

/** Any step; exactly one verb key is present. */
export type Step =
  | CallStep
  | { advance: number | string }
  | { setTime: string }
  | { setPrice: PriceOverride | PriceOverride[] | 'clear' }
  | { setBalance: { agentId: string; competitionId: string; balances: BalanceSetting[] } }
  | { fault: FaultDef | { remove: string }; name?: string }
  | { snapshot: string }
  | { restore: string }
  | { note: string };

/** The verbs of the closed step vocabulary, in schema order. */
export const VERBS = ['call', 'advance', 'setTime', 'setPrice', 'setBalance', 'fault', 'snapshot', 'restore', 'note'] as const;

/** One verb. */
export type Verb = (typeof VERBS)[number];

/** A scenario document. */
export interface ScenarioDoc {
  $schema?: string;
  description?: string;
  seed: number | string;
  startTime: string;
  /** Optional: every option defaults as in `createWorld`. */
  world?: ScenarioWorld;
  actors?: Record<string, ActorDef>;
  steps: Step[];
}

/** A validated scenario with where it came from. */
export interface Scenario {
  /** File path as given (used in every message). */
  file: string;
  /** Short name: the file name without `.scenario.json`. */
  name: string;
  doc: ScenarioDoc;
}

/** The verb of a step (the schema guarantees exactly one). */
export function verbOf(step: Step): Verb {
  for (const v of VERBS) if (v in step) return v;
  throw new Error('step without a verb');
}
