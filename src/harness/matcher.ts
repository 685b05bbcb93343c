// Subset matcher of `expect.body`: plain values match by subset, $-operator objects by rule; mismatches carry JSON paths.
import type { Json } from './types.js';

/** The operators an expectation object may use. */
export const OPERATORS = ['$approx', '$tol', '$rel', '$type', '$regex', '$any', '$absent', '$len', '$gt', '$gte', '$lt', '$lte'] as const;

const OPS = new Set<string>(OPERATORS);
const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];
const NUMERIC_OPS = ['$approx', '$tol', '$rel', '$gt', '$gte', '$lt', '$lte'] as const;
const COMPARE: Record<string, [string, (a: number, b: number) => boolean]> = {
  $gt: ['>', (a, b) => a > b], $gte: ['>=', (a, b) => a >= b], $lt: ['<', (a, b) => a < b], $lte: ['<=', (a, b) => a <= b],
};

/** Default absolute tolerance of `$approx` when neither `$tol` nor `$rel` is given. */
export const DEFAULT_TOLERANCE = 1e-6;

/** Marks a key that is absent from the actual value. */
export const ABSENT: unique symbol = Symbol('absent');

/** One failed expectation. */
export interface Mismatch {
  /** Where, e.g. `body.agent.name` or `body.agents[2]`. */
  path: string;
  /** Human-readable reason, e.g. `expected "x", got "y"`. */
  message: string;
}

/** True for a non-empty object whose keys all start with `$`. */
export function isOperatorObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && operatorKeysOnly(v);
}

/** True for an object whose own enumerable keys, at least one, all start with `$`. */
function operatorKeysOnly(v: object): boolean {
  let any = false;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    if (k.charCodeAt(0) !== 0x24) return false;
    any = true;
  }
  return any;
}

/** A member a JSON text would hold: own and enumerable (a parsed body has no other kind). */
export function isMember(o: object, k: string): boolean {
  return Object.prototype.propertyIsEnumerable.call(o, k);
}

function child(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Short JSON rendering for messages. */
export function show(v: unknown): string {
  if (v === ABSENT) return '(absent)';
  if (v === undefined) return '(no body)';
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

const isInterpolated = (v: unknown) => typeof v === 'string' && /^\$\{[^}]+\}$/.test(v);

/**
 * Static check of an expectation before running (unknown or misused operators, bad regexes).
 * Returns messages prefixed with their path.
 */
export function checkMatcher(expected: unknown, path: string): string[] {
  if (Array.isArray(expected)) return expected.flatMap((e, i) => checkMatcher(e, child(path, i)));
  if (expected === null || typeof expected !== 'object') return [];
  const keys = Object.keys(expected);
  const dollar = keys.filter((k) => k.startsWith('$'));
  if (dollar.length === 0) return keys.flatMap((k) => checkMatcher((expected as Record<string, unknown>)[k], child(path, k)));
  const errors: string[] = [];
  const o = expected as Record<string, unknown>;
  if (dollar.length !== keys.length) errors.push(`${path}: mixes operators (${dollar.join(', ')}) with plain keys (${keys.filter((k) => !k.startsWith('$')).join(', ')})`);
  for (const k of dollar) if (!OPS.has(k)) errors.push(`${path}: unknown matcher operator '${k}' (known: ${OPERATORS.join(', ')})`);
  for (const k of NUMERIC_OPS) if (k in o && typeof o[k] !== 'number' && !isInterpolated(o[k])) errors.push(`${path}.${k}: must be a number`);
  if (('$tol' in o || '$rel' in o) && !('$approx' in o)) errors.push(`${path}: $tol and $rel only go with $approx`);
  if ('$type' in o) {
    const ts = Array.isArray(o.$type) ? o.$type : [o.$type];
    for (const t of ts) if (typeof t !== 'string' || !TYPES.includes(t)) errors.push(`${path}.$type: unknown type ${show(t)} (known: ${TYPES.join(', ')})`);
  }
  if ('$regex' in o) {
    if (typeof o.$regex !== 'string') errors.push(`${path}.$regex: must be a string`);
    else if (!o.$regex.includes('${')) {
      try {
        new RegExp(o.$regex);
      } catch (err) {
        errors.push(`${path}.$regex: ${(err as Error).message}`);
      }
    }
  }
  if ('$any' in o) {
    if (Array.isArray(o.$any) && o.$any.length > 0) errors.push(...o.$any.flatMap((e, i) => checkMatcher(e, `${path}.$any[${i}]`)));
    else if (o.$any !== true) errors.push(`${path}.$any: must be true or a non-empty list of matchers`);
  }
  if ('$absent' in o) {
    if (o.$absent !== true) errors.push(`${path}.$absent: must be true`);
    else if (keys.length > 1) errors.push(`${path}.$absent: goes alone (an absent key has no value to test)`);
  }
  if ('$len' in o) errors.push(...checkMatcher(o.$len, `${path}.$len`));
  return errors;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function typeMatches(t: string, v: unknown): boolean {
  if (t === 'integer') return Number.isInteger(v);
  return typeName(v) === t;
}

/** Checks one operator object; returns the failure messages (empty = match). */
function matchOperators(o: Record<string, Json>, actual: unknown, path: string): Mismatch[] {
  const fail = (message: string): Mismatch[] => [{ path, message }];
  if (o.$absent === true) return actual === ABSENT ? [] : fail(`expected the key to be absent, got ${show(actual)}`);
  if (o.$any === true) {
    if (actual === ABSENT) return fail('expected a value, got (absent)');
  } else if (Array.isArray(o.$any)) {
    if (!o.$any.some((alt) => match(alt, actual, path).length === 0)) return fail(`expected any of ${show(o.$any)}, got ${show(actual)}`);
  }
  if (actual === ABSENT) return fail(`expected ${show(o)}, got (absent)`);
  if ('$type' in o) {
    const ts = (Array.isArray(o.$type) ? o.$type : [o.$type]) as string[];
    if (!ts.some((t) => typeMatches(t, actual))) return fail(`expected type ${ts.join(' or ')}, got ${typeName(actual)} ${show(actual)}`);
  }
  if ('$regex' in o) {
    if (typeof actual !== 'string') return fail(`expected a string matching /${String(o.$regex)}/, got ${show(actual)}`);
    if (!new RegExp(String(o.$regex)).test(actual)) return fail(`expected a string matching /${String(o.$regex)}/, got ${show(actual)}`);
  }
  if ('$len' in o) {
    if (typeof actual !== 'string' && !Array.isArray(actual)) return fail(`expected an array or string for $len, got ${typeName(actual)}`);
    const inner = match(o.$len, actual.length, `${path}.length`);
    if (inner.length > 0) return fail(`expected length ${show(o.$len)}, got ${actual.length}`);
  }
  if ('$approx' in o) {
    const want = o.$approx;
    if (typeof want !== 'number') return fail(`$approx operand is not a number: ${show(want)}`);
    if (typeof actual !== 'number') return fail(`expected a number near ${want}, got ${show(actual)}`);
    const tol = typeof o.$tol === 'number' ? o.$tol : undefined;
    const rel = typeof o.$rel === 'number' ? o.$rel : undefined;
    const diff = Math.abs(actual - want);
    const ok = (tol === undefined && rel === undefined && diff <= DEFAULT_TOLERANCE)
      || (tol !== undefined && diff <= tol) || (rel !== undefined && diff <= rel * Math.abs(want));
    if (!ok) {
      const within = [tol !== undefined || rel === undefined ? `±${tol ?? DEFAULT_TOLERANCE}` : '', rel !== undefined ? `±${rel * 100}%` : ''].filter(Boolean).join(' or ');
      return fail(`expected ${want} ${within}, got ${actual} (off by ${diff})`);
    }
  }
  for (const [op, [sym, cmp]] of Object.entries(COMPARE)) {
    if (!(op in o)) continue;
    const bound = o[op];
    if (typeof bound !== 'number') return fail(`${op} operand is not a number: ${show(bound)}`);
    if (typeof actual !== 'number' || !cmp(actual, bound)) return fail(`expected a number ${sym} ${bound}, got ${show(actual)}`);
  }
  return [];
}

/**
 * True when {@link match} would find no mismatch: the same walk without paths, messages or lists,
 * for the common case of an expectation that holds (a runner checks one per step).
 */
export function matches(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    for (let i = 0; i < expected.length; i++) if (!matches(expected[i], actual[i])) return false;
    return true;
  }
  if (expected !== null && typeof expected === 'object') {
    if (operatorKeysOnly(expected)) return matchOperators(expected as Record<string, Json>, actual, '').length === 0;
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    for (const k in expected) {
      if (!Object.hasOwn(expected, k)) continue;
      if (!matches((expected as Record<string, unknown>)[k], isMember(actual, k) ? (actual as Record<string, unknown>)[k] : ABSENT)) return false;
    }
    return true;
  }
  return actual === expected;
}

/**
 * Matches `actual` against `expected` (already interpolated). Objects: subset; arrays: same
 * length, element-wise; scalars: strict equality; operator objects: see {@link OPERATORS}.
 */
export function match(expected: unknown, actual: unknown, path = 'body'): Mismatch[] {
  if (isOperatorObject(expected)) return matchOperators(expected, actual, path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, message: `expected an array, got ${actual === ABSENT ? '(absent)' : `${typeName(actual)} ${show(actual)}`}` }];
    const out: Mismatch[] = [];
    if (actual.length !== expected.length) out.push({ path, message: `expected ${expected.length} elements, got ${actual.length}` });
    expected.forEach((e, i) => out.push(...match(e, i < actual.length ? actual[i] : ABSENT, child(path, i))));
    return out;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [{ path, message: `expected an object, got ${actual === ABSENT ? '(absent)' : `${typeName(actual)} ${show(actual)}`}` }];
    }
    return Object.entries(expected).flatMap(([k, e]) => match(e, isMember(actual, k) ? (actual as Record<string, unknown>)[k] : ABSENT, child(path, k)));
  }
  if (actual === expected) return [];
  return [{ path, message: `expected ${show(expected)}, got ${show(actual)}` }];
}
