// An arena as the API shows it.
import type { Arena } from '../../../domain/model.js';
import { iso } from '../shared/time.js';

/** Arena object (stored fields verbatim). */
export function apiArena(a: Arena) {
  return { ...a, createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt) };
}
