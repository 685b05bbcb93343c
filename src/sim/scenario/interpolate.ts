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

function lookup(expr: string, vars: Vars, source: string): Json {
  const m = /^([A-Za-z_][A-Za-z0-9_-]*)(.*)$/.exec(expr.trim());
  if (!m) throw new StepInputError(`bad interpolation '\${${expr}}' in "${source}"`);
  const [, name, rest] = m;
  if (!vars.has(name!)) {
    const known = [...vars.keys()].sort().join(', ') || 'none';
    throw new StepInputError(`unknown variable '${name}' in "${source}" (known: ${known})`);
  }
  const tail = rest!.startsWith('.') ? rest!.slice(1) : rest!;
  const hit = getPath(vars.get(name!), parsePath(tail));
  if (!hit.found) throw new StepInputError(`'\${${expr}}' in "${source}": ${name} has no '${tail}'`);
  return hit.value as Json;
}

/**
 * Replaces `${name.path}` in one string. A string that is exactly one `${...}` becomes the value
 * itself (a number stays a number); inside longer text values are stringified (objects as JSON).
 * `$${` stands for a literal `${`.
 */
export function interpolateString(s: string, vars: Vars): Json {
  if (!s.includes('${')) return s;
  const whole = WHOLE.exec(s);
  if (whole) return lookup(whole[1]!, vars, s);
  return s.replace(PART, (m, expr: string | undefined) => {
    if (m === '$${') return '${';
    const v = lookup(expr!, vars, s);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

/** Interpolates every string value (not object keys) of a JSON value; returns a fresh copy. */
export function interpolate<T>(value: T, vars: Vars): T {
  if (typeof value === 'string') return interpolateString(value, vars) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => interpolate(v, vars)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolate(v, vars);
    return out as T;
  }
  return value;
}
