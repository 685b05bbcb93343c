// ISO-8601 conversion of domain instants at the HTTP edge.

/** The last instant converted and its text: a virtual clock answers many requests at the same instant. */
let lastMs: number | undefined;
let lastIso = '';

/** Epoch ms -> ISO string (null stays null; an invalid instant throws, as `toISOString` does). */
export function iso(ms: number | null): string | null {
  if (ms === null) return null;
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
