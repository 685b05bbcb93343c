// ISO-8601 conversion of domain instants at the HTTP edge.

const DAY = 86_400_000;
/** First instant `toISOString` writes with a six-digit year (+010000-01-01). */
const YEAR_10000 = 253_402_300_800_000;
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** The last instant converted and its text: a virtual clock answers many requests at the same instant. */
let lastMs: number | undefined;
let lastIso = '';
/** The UTC day of the last conversion that went through `toISOString`: its start and its `YYYY-MM-DDT`. */
let dayStart = -1;
let dayPrefix = '';

/**
 * `new Date(ms).toISOString()`, with the date part of the last day seen kept: a replay converts
 * hundreds of thousands of instants of the same few days. Instants before 1970 or from year 10000
 * on, and invalid ones (which throw), go through `toISOString`.
 */
function isoText(ms: number): string {
  // Date keeps whole milliseconds, truncated towards zero.
  const t = Math.trunc(ms);
  const r = t - dayStart;
  if (dayStart >= 0 && r >= 0 && r < DAY) {
    const s = Math.floor(r / 1000);
    return `${dayPrefix}${TWO[Math.floor(s / 3600)]}:${TWO[Math.floor(s / 60) % 60]}:${TWO[s % 60]}.${THREE[r % 1000]}Z`;
  }
  const text = new Date(ms).toISOString();
  if (t >= 0 && t < YEAR_10000) {
    dayStart = t - (t % DAY);
    dayPrefix = text.slice(0, 11);
  }
  return text;
}

/** Epoch ms -> ISO string (null stays null; an invalid instant throws, as `toISOString` does). */
export function iso(ms: number | null): string | null {
  if (ms === null) return null;
  if (ms !== lastMs) {
    lastIso = isoText(ms);
    lastMs = ms;
  }
  return lastIso;
}
