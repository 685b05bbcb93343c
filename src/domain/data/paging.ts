// Sorting and pagination helpers shared by list use cases (upstream's comma-separated sort syntax).
import { DomainError } from '../errors.js';

/** Parsed sort: field names with direction, applied left to right. */
export type SortSpec = { field: string; desc: boolean }[];

/** Parses `"-createdAt,name"`; unknown fields -> 400 `cannot sort by field: '<x>'`. */
export function parseSort(sort: string | undefined, allowed: readonly string[]): SortSpec {
  if (!sort) return [];
  return sort.split(',').filter((s) => s !== '').slice(0, 3).map((part) => {
    const desc = part.startsWith('-');
    const field = desc ? part.slice(1) : part;
    if (!allowed.includes(field)) throw new DomainError('BAD_SORT', { field });
    return { field, desc };
  });
}

function cmp(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return a < b ? -1 : 1;
}

/** Stable sort of rows by a spec (ties keep storage order). */
export function sortRows<R>(rows: readonly R[], spec: SortSpec): R[] {
  if (spec.length === 0) return [...rows];
  return [...rows].sort((x, y) => {
    for (const { field, desc } of spec) {
      const c = cmp((x as Record<string, unknown>)[field], (y as Record<string, unknown>)[field]);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}

/** Upstream pagination object. */
export function pagination(total: number, limit: number, offset: number): { total: number; limit: number; offset: number; hasMore: boolean } {
  return { total, limit, offset, hasMore: offset + limit < total };
}
