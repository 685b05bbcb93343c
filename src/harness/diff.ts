// Readable expected-vs-actual body diff: both sides projected onto the expected keys, then a line diff of the pretty JSON.
import { ABSENT, isMember, isOperatorObject, match } from './matcher.js';

/** Omitted from the rendered side (a key missing there). */
const OMIT = Symbol('omit');

/** Projects expected and actual onto the expected keys; operators that hold show the actual value on both sides. */
function project(expected: unknown, actual: unknown): [unknown, unknown] {
  const act = actual === ABSENT ? OMIT : actual;
  if (isOperatorObject(expected)) {
    if (match(expected, actual).length === 0) return [act, act];
    // A length check against a long array reads better as two lengths.
    const lenOnly = Object.keys(expected).length === 1 && '$len' in expected && (Array.isArray(actual) || typeof actual === 'string');
    return [expected, lenOnly ? { $len: (actual as unknown[] | string).length } : act];
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const e: unknown[] = [];
    const a: unknown[] = [];
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const [pe, pa] = i < expected.length ? project(expected[i], i < actual.length ? actual[i] : ABSENT) : [OMIT, actual[i]];
      e.push(pe);
      a.push(pa);
    }
    return [e, a];
  }
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)
    && actual !== null && typeof actual === 'object' && !Array.isArray(actual)) {
    const e: Record<string, unknown> = {};
    const a: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(expected)) {
      [e[k], a[k]] = project(v, isMember(actual, k) ? (actual as Record<string, unknown>)[k] : ABSENT);
    }
    return [e, a];
  }
  return [expected, act];
}

/** JSON.stringify with 2-space indent that leaves out OMIT entries. */
function pretty(v: unknown): string {
  const strip = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.filter((y) => y !== OMIT).map(strip);
    if (x !== null && typeof x === 'object') {
      return Object.fromEntries(Object.entries(x).filter(([, y]) => y !== OMIT).map(([k, y]) => [k, strip(y)]));
    }
    return x;
  };
  if (v === OMIT) return '(absent)';
  if (v === undefined) return '(no body)';
  return JSON.stringify(strip(v), null, 2);
}

/** Line diff (LCS) of two texts: `  ` same, `- ` only in `a`, `+ ` only in `b`. */
export function lineDiff(a: string, b: string): string[] {
  const x = a.split('\n');
  const y = b.split('\n');
  if (x.length * y.length > 4_000_000) return [...x.map((l) => `- ${l}`), ...y.map((l) => `+ ${l}`)];
  const n = x.length;
  const m = y.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      out.push(`  ${x[i++]}`);
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push(`- ${x[i++]}`);
    else out.push(`+ ${y[j++]}`);
  }
  while (i < n) out.push(`- ${x[i++]}`);
  while (j < m) out.push(`+ ${y[j++]}`);
  return out;
}

/**
 * The expected body against the actual one as diff lines (`- expected`, `+ actual`). Keys the
 * expectation does not mention are left out; matched operators show the actual value on both sides.
 */
export function bodyDiff(expected: unknown, actual: unknown): string[] {
  if (actual === undefined) return lineDiff(pretty(expected), '(no body)');
  const [e, a] = project(expected, actual);
  return lineDiff(pretty(e), pretty(a));
}
