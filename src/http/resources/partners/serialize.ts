// Wire shapes of partners and their places in competitions.
import type { PlacedPartner } from '../../../domain/competitions/partners.js';
import type { CompetitionPartner, Partner } from '../../../domain/model.js';
import { iso } from '../shared/time.js';

/** A partner. */
export function apiPartner(p: Partner) {
  return { id: p.id, name: p.name, url: p.url, logoUrl: p.logoUrl, details: p.details, createdAt: iso(p.createdAt), updatedAt: iso(p.updatedAt) };
}

/** A partner's place in a competition. */
export function apiAssociation(l: CompetitionPartner) {
  return { competitionId: l.competitionId, partnerId: l.partnerId, position: l.position, createdAt: iso(l.createdAt) };
}

/** A partner of a competition's list, with its position. */
export function apiPlacedPartner(p: PlacedPartner) {
  return { ...apiPartner(p.partner), position: p.link.position };
}
