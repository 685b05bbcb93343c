// ISO-8601 conversion of domain instants at the HTTP edge.

/** Epoch ms -> ISO string (null stays null; an invalid instant throws, as `toISOString` does). */
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
