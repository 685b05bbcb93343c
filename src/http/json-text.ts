// Response bodies as JSON bytes: the text JSON.stringify gives, with the text of big shared lists kept per list, so an unchanged leaderboard is serialised once.

/** Lists whose JSON text may be kept: frozen, with frozen rows, so their text never goes stale. */
const shared = new WeakSet<object>();

/**
 * What is kept of a shared list: the UTF-8 JSON text of the list, and the last whole body it was
 * sent in (the text around the list, and the bytes of the whole).
 */
interface Kept { bytes: Buffer; around?: { before: string; after: string; whole: Buffer } }
const kept = new WeakMap<object, Kept>();

/**
 * Marks a list of wire rows as immutable and shared between responses (a route hands out the
 * same list while the standings behind it are unchanged). Freezes the list and its rows: a later
 * mutation throws instead of leaving a kept text stale. Returns the list.
 */
export function shareJson<T extends readonly object[]>(list: T): T {
  for (const row of list) Object.freeze(row);
  Object.freeze(list);
  shared.add(list);
  return list;
}

/** True when JSON.stringify would call `v.toJSON` (which could write `v` differently in place). */
function hasToJson(v: object): boolean {
  return typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

function keptOf(list: object): Kept {
  let k = kept.get(list);
  if (k === undefined) {
    k = { bytes: Buffer.from(JSON.stringify(list)) };
    kept.set(list, k);
  }
  return k;
}

/**
 * The bytes of `JSON.stringify(body)` when `body` is a plain object holding a shared list at its
 * top level, otherwise null (the caller then sends the body as it would anyway). The kept text of
 * each shared list is reused; a body with one shared list whose other members write the same text
 * as last time gets the very same bytes again, so an unchanged leaderboard costs no copy.
 */
export function sharedJsonBytes(body: unknown): Buffer | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || hasToJson(body)) return null;
  const values = body as Record<string, unknown>;
  const keys = Object.keys(values);
  let lists = 0;
  for (const k of keys) {
    const v = values[k];
    if (v !== null && typeof v === 'object') {
      if (hasToJson(v)) return null;
      if (shared.has(v)) lists += 1;
    }
  }
  if (lists === 0) return null;
  // Text between the lists (the members JSON.stringify writes, in key order) and the lists between them.
  const texts: string[] = [];
  const between: object[] = [];
  let text = '{';
  let first = true;
  for (const k of keys) {
    const v = values[k];
    const isList = v !== null && typeof v === 'object' && shared.has(v);
    // JSON.stringify leaves out members whose value has no JSON form (undefined, functions, symbols).
    const own = isList ? undefined : JSON.stringify(v);
    if (!isList && own === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(k)}:`;
    first = false;
    if (isList) {
      texts.push(text);
      between.push(v);
      text = '';
    } else {
      text += own;
    }
  }
  texts.push(`${text}}`);
  if (lists === 1) {
    const k = keptOf(between[0]!);
    const [before, after] = texts as [string, string];
    if (k.around?.before !== before || k.around.after !== after) {
      k.around = { before, after, whole: Buffer.concat([Buffer.from(before), k.bytes, Buffer.from(after)]) };
    }
    return k.around.whole;
  }
  const parts: Buffer[] = [];
  between.forEach((list, i) => parts.push(Buffer.from(texts[i]!), keptOf(list).bytes));
  parts.push(Buffer.from(texts[texts.length - 1]!));
  return Buffer.concat(parts);
}
