// A sweep's inputs: seed lists and varied settings, checked against their bounds before anything is expanded, and the scenario of each variant.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../harness/log.js';
import type { Json, ScenarioDoc } from '../harness/types.js';

/** A bad seed list or `--vary` setting (the CLI turns it into a usage error). */
export class SweepInputError extends Error {}

/** Most seeds a sweep takes. */
export const MAX_SEEDS = 100_000;
/** Most runs (seeds × variants) a sweep makes: each run's standings are kept until the sweep writes its files. */
export const MAX_RUNS = 100_000;

/** How a varied setting's values are read and checked (`describe`: its line in `compsim sweep --help`). */
export interface VaryKey { describe: string; parse: (v: string) => Json; needsRandomWalk?: boolean }

function number(key: string, v: string, ok: (x: number) => boolean, what: string): number {
  const x = /^-?(\d+(\.\d*)?|\.\d+)(e-?\d+)?$/i.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(x) || !ok(x)) throw new SweepInputError(`${key} must be ${what}, got '${v}'`);
  return x;
}

/**
 * World settings a sweep can vary, with how each value is read and checked. The table has no
 * prototype, so a key such as `constructor` or `__proto__` is simply unknown.
 */
export const VARY_KEYS: Readonly<Record<string, VaryKey>> = Object.assign(Object.create(null) as Record<string, VaryKey>, {
  slippage: {
    describe: 'upstream, expected or none',
    parse: (v: string) => {
      if (!['upstream', 'expected', 'none'].includes(v)) throw new SweepInputError(`slippage must be upstream, expected or none, got '${v}'`);
      return v;
    },
  },
  'prices.volatility': {
    describe: 'random-walk log-return sd per step (> 0, <= 1)', needsRandomWalk: true,
    parse: (v: string) => number('prices.volatility', v, (x) => x > 0 && x <= 1, 'a number > 0 and <= 1'),
  },
  'prices.stepMs': {
    describe: 'random-walk step in ms (integer >= 1)', needsRandomWalk: true,
    parse: (v: string) => number('prices.stepMs', v, (x) => Number.isInteger(x) && x >= 1, 'an integer >= 1'),
  },
  maxTradePercentage: {
    describe: 'largest trade, % of the portfolio (1-100)',
    parse: (v: string) => number('maxTradePercentage', v, (x) => x >= 1 && x <= 100, 'a number from 1 to 100'),
  },
  snapshotIntervalMs: {
    describe: 'virtual ms between snapshots (integer >= 1000)',
    parse: (v: string) => number('snapshotIntervalMs', v, (x) => Number.isInteger(x) && x >= 1000, 'an integer >= 1000'),
  },
});

/** One varied setting: a key and the values it takes. */
export interface Vary { key: string; values: Json[] }

/** Parses `key=v1,v2,...`; an unknown key, a repeated value or a bad value is refused. */
export function parseVary(spec: string): Vary {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new SweepInputError(`--vary must be key=value1,value2,... , got '${spec}'`);
  const key = spec.slice(0, eq);
  const def = VARY_KEYS[key];
  if (!def) throw new SweepInputError(`--vary: unknown key '${key}' (known: ${Object.keys(VARY_KEYS).join(', ')})`);
  const raw = spec.slice(eq + 1).split(',');
  if (raw.some((r) => r === '')) throw new SweepInputError(`--vary ${key}: empty value in '${spec.slice(eq + 1)}'`);
  if (raw.length > MAX_RUNS) throw new SweepInputError(`--vary ${key}: more than ${MAX_RUNS} values`);
  const values = raw.map((r) => def.parse(r));
  const seen = new Set(values.map((v) => String(v)));
  if (seen.size !== values.length) throw new SweepInputError(`--vary ${key}: a value is repeated in '${spec.slice(eq + 1)}'`);
  return { key, values };
}

/**
 * Parses a seed list: `1..200`, `3,7,11`, or both (`1..10,50`); safe integers, each once, at most
 * {@link MAX_SEEDS}. Every part is checked and counted before any range is expanded.
 */
export function parseSeeds(spec: string): number[] {
  const parts: [number, number][] = [];
  let count = 0;
  for (const part of spec.split(',')) {
    const range = /^(-?\d+)\.\.(-?\d+)$/.exec(part);
    const single = /^-?\d+$/.test(part) ? part : undefined;
    if (!range && single === undefined) throw new SweepInputError(`--seeds must be integers and ranges such as 1..200 or 1,5,9, got '${spec}'`);
    const [a, b] = range ? [Number(range[1]), Number(range[2])] : [Number(single), Number(single)];
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) throw new SweepInputError(`--seeds: seeds must be safe integers (at most ${Number.MAX_SAFE_INTEGER} either side of 0), got '${part}'`);
    if (b < a) throw new SweepInputError(`--seeds: the range ${part} runs backwards`);
    count += b - a + 1;
    if (count > MAX_SEEDS) throw new SweepInputError(`--seeds: at most ${MAX_SEEDS} seeds`);
    parts.push([a, b]);
  }
  const out: number[] = [];
  for (const [a, b] of parts) for (let s = a; s <= b; s++) out.push(s);
  if (new Set(out).size !== out.length) throw new SweepInputError(`--seeds: a seed is listed twice in '${spec}'`);
  return out;
}

/** How many variants `vary` makes (the product of the value counts; 1 without `--vary`). */
export function variantCount(vary: readonly Vary[]): number {
  return vary.reduce((n, v) => n * v.values.length, 1);
}

/** Refuses a key varied twice (its labels would conflict and its runs multiply). */
export function checkDistinctKeys(vary: readonly Vary[]): void {
  const repeated = vary.find((x, i) => vary.findIndex((y) => y.key === x.key) !== i);
  if (repeated) throw new SweepInputError(`--vary ${repeated.key} is given twice`);
}

/** Refuses more than {@link MAX_RUNS} runs, naming seeds × variants, before anything is built. */
export function checkRunCount(seeds: number, vary: readonly Vary[]): void {
  const n = variantCount(vary);
  if (seeds * n > MAX_RUNS) {
    throw new SweepInputError(`${seeds} seeds × ${n} variants = ${seeds * n} runs, more than the ${MAX_RUNS} a sweep makes: use fewer seeds or --vary values, or --shard`);
  }
}

/** One combination of varied values (in `--vary` order). */
export interface Variant { index: number; label: string; values: Json[] }

/** Variant `index` of `vary`: the first key varying slowest; `base` without `--vary`. */
export function variantAt(vary: readonly Vary[], index: number): Variant {
  const values: Json[] = new Array<Json>(vary.length);
  let rest = index;
  for (let k = vary.length - 1; k >= 0; k--) {
    const n = vary[k]!.values.length;
    values[k] = vary[k]!.values[rest % n]!;
    rest = Math.floor(rest / n);
  }
  return { index, values, label: vary.length === 0 ? 'base' : vary.map((v, k) => `${v.key}=${String(values[k])}`).join(' ') };
}

/** Every combination of the varied values, the first key varying slowest; one variant `base` without `--vary`. */
export function variants(vary: readonly Vary[]): Variant[] {
  return Array.from({ length: variantCount(vary) }, (_, i) => variantAt(vary, i));
}

/** Refuses settings the scenario cannot take (a random-walk key on another price feed). */
export function checkVary(doc: ScenarioDoc, vary: readonly Vary[]): void {
  const kind = (doc.world?.prices as { kind?: unknown } | undefined)?.kind;
  for (const v of vary) {
    if (VARY_KEYS[v.key]?.needsRandomWalk && kind !== 'randomWalk') {
      throw new SweepInputError(`--vary ${v.key} needs a randomWalk price feed, and the scenario's world has ${kind === undefined ? 'none (constant prices)' : `a ${String(kind)} feed`}`);
    }
  }
}

/** The scenario document of one run: the seed replaced and each varied world setting set. */
export function variantDoc(doc: ScenarioDoc, seed: number | string, vary: readonly Vary[], values: readonly Json[]): ScenarioDoc {
  const world = { ...doc.world } as Record<string, Json>;
  vary.forEach((v, k) => {
    const path = v.key.split('.');
    if (path.length === 1) world[path[0]!] = values[k]!;
    else world[path[0]!] = { ...(world[path[0]!] as Record<string, Json>), [path[1]!]: values[k]! };
  });
  return { ...doc, seed, world: world as ScenarioDoc['world'] };
}

/** SHA-256 of a scenario document's canonical JSON (what a sweep's shards must agree on). */
export function docHash(doc: ScenarioDoc): string {
  return createHash('sha256').update(canonicalJson(doc)).digest('hex');
}
