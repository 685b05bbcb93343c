// Dotted paths into JSON ("agents[0].id") and ${name.path} interpolation of saved values and actors.
import type { Json } from './types.js';

/** A step could not be prepared (unknown variable, missing path); the step fails with this message. */
export class StepInputError extends Error {}

/** Splits `"agents[0].id"` or `"agents.0.id"` into segments; `""` is the root. */
export function parsePath(path: string): (string | number)[] {
  if (path === '') return [];
  const out: (string | number)[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) throw new StepInputError(`bad path '${path}'`);
    if (m[1] !== '') out.push(/^\d+$/.test(m[1]!) ? Number(m[1]) : m[1]!);
    else if (m[2] === '') throw new StepInputError(`bad path '${path}' (empty segment)`);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** Looks a path up in a JSON value; `found: false` when any segment is missing. */
export function getPath(value: unknown, segments: readonly (string | number)[]): { found: boolean; value: unknown } {
  let cur: unknown = value;
  for (const seg of segments) {
    if (Array.isArray(cur) && typeof seg === 'number' && seg < cur.length) cur = cur[seg];
    else if (cur !== null && typeof cur === 'object' && !Array.isArray(cur) && Object.hasOwn(cur, String(seg))) cur = (cur as Record<string, unknown>)[String(seg)];
    else return { found: false, value: undefined };
  }
  return { found: true, value: cur };
}

/** Variables visible to interpolation: saved values and actors (`{name, key, id?, userId?}`). */
export type Vars = ReadonlyMap<string, Json>;

const WHOLE = /^\$\{([^}]+)\}$/;
const PART = /\$\$\{|\$\{([^}]*)\}/g;

/** A parsed `${...}`: the variable and the path after it (`segments` null when the path does not parse), or `bad`. */
type Reference = { expr: string; bad: true } | { expr: string; bad?: undefined; name: string; tail: string; segments: readonly (string | number)[] | null };

function parseReference(expr: string): Reference {
  const m = /^([A-Za-z_][A-Za-z0-9_-]*)(.*)$/.exec(expr.trim());
  if (!m) return { expr, bad: true };
  const [, name, rest] = m;
  const tail = rest!.startsWith('.') ? rest!.slice(1) : rest!;
  let segments: readonly (string | number)[] | null;
  try {
    segments = parsePath(tail);
  } catch {
    segments = null;
  }
  return { expr, name: name!, tail, segments };
}

function lookup(ref: Reference, vars: Vars, source: string): Json {
  if (ref.bad) throw new StepInputError(`bad interpolation '\${${ref.expr}}' in "${source}"`);
  const { name, tail } = ref;
  if (!vars.has(name)) {
    const known = [...vars.keys()].sort().join(', ') || 'none';
    throw new StepInputError(`unknown variable '${name}' in "${source}" (known: ${known})`);
  }
  const hit = getPath(vars.get(name), ref.segments ?? parsePath(tail)); // a bad path throws its own message here
  if (!hit.found) throw new StepInputError(`'\${${ref.expr}}' in "${source}": ${name} has no '${tail}'`);
  return hit.value as Json;
}

/** A string with references: exactly one reference (the value itself), or text pieces and references. */
type Template = { whole: Reference } | { pieces: readonly (string | Reference)[] };

function parseTemplate(s: string): Template {
  const whole = WHOLE.exec(s);
  if (whole) return { whole: parseReference(whole[1]!) };
  const pieces: (string | Reference)[] = [];
  let last = 0;
  for (const m of s.matchAll(PART)) {
    if (m.index > last) pieces.push(s.slice(last, m.index));
    pieces.push(m[0] === '$${' ? '${' : parseReference(m[1]!));
    last = m.index + m[0].length;
  }
  if (last < s.length) pieces.push(s.slice(last));
  return { pieces };
}

/**
 * Replaces `${name.path}` in one string. A string that is exactly one `${...}` becomes the value
 * itself (a number stays a number); inside longer text values are stringified (objects as JSON).
 * `$${` stands for a literal `${`.
 */
export function interpolateString(s: string, vars: Vars): Json {
  if (!s.includes('${')) return s;
  const template = parseTemplate(s);
  if ('whole' in template) return lookup(template.whole, vars, s);
  let out = '';
  for (const piece of template.pieces) {
    if (typeof piece === 'string') {
      out += piece;
    } else {
      const v = lookup(piece, vars, s);
      out += typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
  return out;
}

/**
 * `out[k] = v` as an own member, as JSON.parse and Object.fromEntries make it: a `__proto__` key
 * stays a member instead of setting the prototype.
 */
export function setOwn(out: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

/** Interpolates every string value (not object keys) of a JSON value; returns a fresh copy. */
export function interpolate<T>(value: T, vars: Vars): T {
  if (typeof value === 'string') return interpolateString(value, vars) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => interpolate(v, vars)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // Keys, not entries: no pair array per member (every step of a scenario comes through here).
    for (const k of Object.keys(value)) {
      const v = interpolate((value as Record<string, unknown>)[k], vars);
      setOwn(out, k, v);
    }
    return out as T;
  }
  return value;
}

/** True when some string in `value` (not an object key) holds `${`. */
function hasReference(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('${');
  if (Array.isArray(value)) return value.some(hasReference);
  if (value !== null && typeof value === 'object') {
    for (const k in value) if (Object.hasOwn(value, k) && hasReference((value as Record<string, unknown>)[k])) return true;
  }
  return false;
}

/**
 * {@link interpolate} for values only read: `value` itself when it refers to nothing (shared with
 * the step, so it must not be changed), else an interpolated copy.
 */
export function interpolateShared<T>(value: T, vars: Vars): T {
  return hasReference(value) ? interpolate(value, vars) : value;
}
