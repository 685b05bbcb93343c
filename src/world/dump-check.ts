// Checks the contents of a world document before it is loaded: rows against their table's schema, ids and sequences, and the aux states.
import { API_VERSIONS } from '../domain/versions.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from '../http/ajv.js';
import { MAX_TIME, MIN_TIME, ROW_SCHEMAS, COMPOSED_IDS, SEQUENCED_TABLES, type RowSchema } from '../domain/data/row-schemas.js';
import type { Tables } from '../domain/tables.js';
import { MAX_LATENCY_MS } from '../http/resources/sim/request.js';
import { CONSTRAINT_METRICS, FAULT_KINDS, type FaultKind } from '../ports/faults.js';
import type { Secrets } from '../ports/crypto.js';
import { MAX_PRICE, SPECIFIC_CHAINS } from '../ports/prices.js';

type Checker = ValidateFunction<unknown>;

/** One Ajv for world documents: first error only (a load wants the first problem, fast), NaN and infinities are not numbers. */
const ajv = createAjv('document');

const time = { type: 'number', minimum: MIN_TIME, maximum: MAX_TIME };
const specificChain = { enum: [...SPECIFIC_CHAINS] };
/** A price the world accepts anywhere else (a tape, an override): finite, from 0 to MAX_PRICE. */
const price = { type: 'number', minimum: 0, maximum: MAX_PRICE };
const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required });

/** Aux states as the adapters capture them (see their `capture`/`apply`); `ids` is checked in two steps to keep its message. */
const AUX_SCHEMAS: Record<string, RowSchema> = {
  // ManualClock: the virtual now; SystemClock: its offset from the wall clock (both epoch-ms sized).
  clock: time,
  ids: object({ algorithm: { const: 'sfc32' }, state: { type: 'array', minItems: 4, maxItems: 4, items: { type: 'integer' } } }),
  priceOverrides: { type: 'array', items: object({ address: { type: 'string' }, specificChain, price, symbol: { type: 'string' } }, ['address', 'specificChain', 'price']) },
  priceTapes: {
    type: 'object',
    additionalProperties: { type: 'array', minItems: 1, items: { type: 'array', minItems: 2, maxItems: 2, items: [{ type: 'number' }, price] } },
  },
  faults: object({ next: { type: 'integer' }, faults: { type: 'array', items: object({ id: { type: 'string' }, kind: { enum: [...FAULT_KINDS] } }) } }),
  // RateLimiter windows: [bucketKey, count, resetAt].
  rateLimits: { type: 'array', items: { type: 'array', minItems: 3, maxItems: 3, items: [{ type: 'string' }, { type: 'number' }, time] } },
  // The world's API version and unknown-token mode (world.ts WorldMode).
  mode: object({ apiVersion: { enum: [...API_VERSIONS] }, unknownTokens: { enum: ['refuse', 'synthetic'] } }),
};

const token = { token: { type: 'string' }, specificChain };
/** Fields of a stored fault by kind (FaultSpec plus its id; the API's limits apply). */
const FAULT_SCHEMAS: Record<FaultKind, RowSchema> = {
  priceMissing: object(token, ['token']),
  priceZero: object(token, ['token']),
  priceStale: object({ ...token, at: time }, ['token', 'at']),
  constraintFail: object({ ...token, metric: { enum: [...CONSTRAINT_METRICS] } }, ['token', 'metric']),
  rateLimit: object({ path: { type: 'string' }, remaining: { type: ['integer', 'null'], minimum: 0 }, retryAfter: { type: 'integer', minimum: 1, maximum: 3600 } }),
  latency: object({ path: { type: 'string' }, ms: { type: 'number', minimum: 0, maximum: MAX_LATENCY_MS } }),
};

interface Compiled { rows: Record<string, Checker>; aux: Record<string, Checker>; faults: Record<string, Checker> }
let compiled: Compiled | undefined;

/** The validators, compiled on first use and kept (a table is checked with one call over all its rows). */
function validators(): Compiled {
  const each = (m: Record<string, RowSchema>, wrap: (s: RowSchema) => RowSchema = (s) => s) =>
    Object.fromEntries(Object.entries(m).map(([k, s]) => [k, ajv.compile(wrap(s))]));
  compiled ??= { rows: each(ROW_SCHEMAS, (s) => ({ type: 'array', items: s })), aux: each(AUX_SCHEMAS), faults: each(FAULT_SCHEMAS) };
  return compiled;
}

const NAME = /^[A-Za-z_$][\w$]*$/;

/** `base` plus an Ajv instance path, written as in JavaScript: `tables.competitions[3].status`, `aux.priceTapes["svm:So1..."][0]`. */
function place(base: string, path: string): string {
  let out = base;
  for (const raw of path.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : NAME.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  }
  return out;
}

const ARTICLE: Record<string, string> = {
  string: 'a string', number: 'a number', integer: 'an integer', boolean: 'true or false', array: 'an array', object: 'an object', null: 'null',
};

const limit = (n: number) => (n === MAX_TIME || n === MIN_TIME ? `${n < 0 ? '-' : ''}8.64e15 (the range of a Date)` : String(n));

/** The first Ajv error as `<place> <problem>`. */
function describe(base: string, e: ErrorObject): string {
  const at = place(base, e.instancePath);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return `${place(base, `${e.instancePath}/${String(p.missingProperty)}`)} is required`;
    case 'type': return `${at} must be ${String(p.type).split(',').map((t) => ARTICLE[t] ?? t).join(' or ')}`;
    case 'enum': return `${at} must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const': return `${at} must be ${JSON.stringify(p.allowedValue)}`;
    case 'minimum': return `${at} must be >= ${limit(p.limit as number)}`;
    case 'maximum': return `${at} must be <= ${limit(p.limit as number)}`;
    case 'minItems': return `${at} must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems': return `${at} must have at most ${String(p.limit)} items`;
    default: return `${at} ${e.message ?? 'is invalid'}`;
  }
}

/** `m[k]` when `k` is one of `m`'s own keys (document names such as `__proto__` or `toString` reach no inherited member). */
function own<V>(m: Partial<Record<string, V>>, k: string): V | undefined {
  return Object.hasOwn(m, k) ? m[k] : undefined;
}

function check(fn: Checker, value: unknown, base: string): string | null {
  return fn(value) ? null : describe(base, fn.errors![0]!);
}

/** Where the first row of a table repeats an earlier id, or null. */
function duplicateId(name: string, rows: { id: string | number }[]): string | null {
  const seen = new Map<string | number, number>();
  for (let i = 0; i < rows.length; i++) {
    const first = seen.get(rows[i]!.id);
    if (first !== undefined) return `tables.${name}[${i}].id ${JSON.stringify(rows[i]!.id)} is already the id of tables.${name}[${first}]`;
    seen.set(rows[i]!.id, i);
  }
  return null;
}

/** What the world loading a document offers to check it against (optional: without it those checks are skipped). */
export interface WorldChecks {
  /** The world's secrets: agents' stored keys must decrypt with its root key (admins read them back). */
  secrets?: Pick<Secrets, 'decrypt'>;
}

function decrypts(secrets: Pick<Secrets, 'decrypt'>, enc: string): boolean {
  try {
    secrets.decrypt(enc);
    return true;
  } catch {
    return false;
  }
}

/** Problems of the rows of one table (rows are objects with an id: the structural check ran first). */
function tableProblem(name: keyof Tables, rows: unknown[], world: WorldChecks): string | null {
  const fn = own(validators().rows, name);
  if (!fn) return `unknown table '${name}'`;
  const bad = check(fn, rows, `tables.${name}`);
  if (bad) return bad;
  if (name === 'agents' && world.secrets) {
    const agents = rows as { apiKeyEnc: string }[];
    for (let i = 0; i < agents.length; i++) {
      if (!decrypts(world.secrets, agents[i]!.apiKeyEnc)) return `tables.agents[${i}].apiKeyEnc does not decrypt with this world's root key`;
    }
  }
  const keyed = rows as { id: string | number }[];
  const composed = own(COMPOSED_IDS, name) as { form: string; id: (r: unknown) => string } | undefined;
  if (composed) {
    for (let i = 0; i < keyed.length; i++) {
      const want = composed.id(keyed[i]);
      if (keyed[i]!.id !== want) return `tables.${name}[${i}].id must be ${composed.form} (${JSON.stringify(want)}), got ${JSON.stringify(keyed[i]!.id)}`;
    }
  }
  return duplicateId(name, keyed);
}

/** The problem of one aux state's value, or null. */
function auxProblem(name: string, value: unknown): string | null {
  const base = `aux.${name}`;
  // A foreign generator keeps the message SeededIds itself gives.
  if (name === 'ids' && (!value || typeof value !== 'object' || (value as { algorithm?: unknown }).algorithm !== 'sfc32')) return 'SeededIds: unknown state';
  const fn = own(validators().aux, name);
  const bad = fn ? check(fn, value, base) : null;
  if (bad) return bad;
  if (name === 'priceTapes') {
    const chains = SPECIFIC_CHAINS as readonly string[];
    for (const k of Object.keys(value as object)) {
      const i = k.indexOf(':');
      if (i < 0 || !chains.includes(k.slice(0, i)) || i === k.length - 1) return `${base} key ${JSON.stringify(k)} must be "<specificChain>:<address>"`;
    }
  }
  if (name === 'faults') {
    const { faults } = value as { faults: { kind: FaultKind }[] };
    for (let i = 0; i < faults.length; i++) {
      const bad2 = check(validators().faults[faults[i]!.kind]!, faults[i], `${base}.faults[${i}]`);
      if (bad2) return bad2;
    }
  }
  return null;
}

/**
 * The first problem of a structurally sound world document's contents, or null: every row of
 * every table against its schema (required fields, types, enums, nullability), stored keys the
 * world cannot decrypt, composed ids, repeated ids, sequences behind the largest id they handed
 * out, then the aux states.
 */
export function contentProblem(
  tables: Record<string, unknown[]>, seqs: Record<string, number> | undefined, aux: Record<string, unknown> | undefined, world: WorldChecks = {},
): string | null {
  for (const [name, rows] of Object.entries(tables)) {
    const bad = tableProblem(name as keyof Tables, rows, world);
    if (bad) return bad;
  }
  for (const name of SEQUENCED_TABLES) {
    const rows = (tables[name] ?? []) as { id: number }[];
    let max = 0;
    for (const r of rows) if (r.id > max) max = r.id;
    // The next insert takes seq + 1: behind the largest id it would collide with a stored row.
    const seq = seqs?.[name];
    if ((seq ?? 0) < max) return `seqs.${name} must be at least ${max}, the largest id in tables.${name} (got ${seq ?? 'none'})`;
  }
  for (const [name, value] of Object.entries(aux ?? {})) {
    const bad = auxProblem(name, value);
    if (bad) return bad;
  }
  return null;
}
