// An arena as the API shows it.
import type { Arena } from '../../../domain/model.js';
import { iso } from '../shared/time.js';

/** Arena object (stored fields verbatim). */
export function apiArena(a: Arena) {
  // Fields by name: a loaded row's extra keys stay out of the answer.
  return {
    id: a.id, name: a.name, createdBy: a.createdBy, category: a.category, skill: a.skill, venues: a.venues, chains: a.chains, kind: a.kind,
    createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt),
  };
}
