// Partners (admin CRUD) and each competition's ordered partner list.
import type { ReadTx, WriteTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { CompetitionPartner, Partner } from '../model.js';
import { sortRows, type SortSpec } from '../data/paging.js';
import type { Tables } from '../tables.js';
import { requireCompetition } from './create.js';

/** Fields an admin gives a partner. */
export interface PartnerInput { name?: string; url?: string | null; logoUrl?: string | null; details?: string | null }

/** Sort fields of the partner list. */
export const PARTNER_SORT_FIELDS = ['name', 'createdAt', 'updatedAt'] as const;

function requirePartner(tx: ReadTx<Tables>, id: string): Partner {
  const p = tx.get('partners', id);
  if (!p) throw new DomainError('PARTNER_NOT_FOUND');
  return p;
}

const linkId = (competitionId: string, partnerId: string) => `${competitionId}:${partnerId}`;

/** `POST /api/admin/partners`. */
export async function createPartner(deps: Deps, input: PartnerInput & { name: string }): Promise<Partner> {
  return deps.store.transact((tx) => {
    const now = deps.clock.now();
    return tx.insert('partners', {
      id: deps.ids.uuid(), name: input.name, url: input.url ?? null, logoUrl: input.logoUrl ?? null, details: input.details ?? null, createdAt: now, updatedAt: now,
    });
  });
}

/** `GET /api/admin/partners`: case-insensitive name filter, sorted, one page plus the total. */
export async function listPartners(deps: Deps, q: { limit: number; offset: number; sort: SortSpec; nameFilter?: string }): Promise<{ partners: Partner[]; total: number }> {
  return deps.store.read((tx) => {
    const needle = q.nameFilter?.toLowerCase();
    const rows = tx.all('partners').filter((p) => !needle || p.name.toLowerCase().includes(needle));
    return { partners: sortRows(rows, q.sort).slice(q.offset, q.offset + q.limit), total: rows.length };
  });
}

/** `GET /api/admin/partners/{id}`. */
export async function getPartner(deps: Deps, id: string): Promise<Partner> {
  return deps.store.read((tx) => requirePartner(tx, id));
}

/** `PUT /api/admin/partners/{id}`: the given fields replace the stored ones. */
export async function updatePartner(deps: Deps, id: string, input: PartnerInput): Promise<Partner> {
  return deps.store.transact((tx) => {
    const p = requirePartner(tx, id);
    const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    return tx.put('partners', { ...p, ...defined, updatedAt: deps.clock.now() });
  });
}

/** `DELETE /api/admin/partners/{id}`: the partner leaves every competition's list too. */
export async function deletePartner(deps: Deps, id: string): Promise<void> {
  await deps.store.transact((tx) => {
    requirePartner(tx, id);
    for (const link of tx.find('competitionPartners', 'partner', id)) tx.delete('competitionPartners', link.id);
    tx.delete('partners', id);
  });
}

/** A competition's partners with their positions, by position. */
export interface PlacedPartner { partner: Partner; link: CompetitionPartner }

function placed(tx: ReadTx<Tables>, competitionId: string): PlacedPartner[] {
  return tx.find('competitionPartners', 'competition', competitionId)
    .map((link) => ({ link, partner: tx.get('partners', link.partnerId)! }))
    .filter((p) => p.partner !== undefined)
    .sort((a, b) => a.link.position - b.link.position);
}

/** `GET /api/admin/competitions/{competitionId}/partners`. */
export async function competitionPartners(deps: Deps, competitionId: string): Promise<PlacedPartner[]> {
  return deps.store.read((tx) => {
    requireCompetition(tx, competitionId);
    return placed(tx, competitionId);
  });
}

function linkTx(deps: Deps, tx: WriteTx<Tables>, competitionId: string, partnerId: string, position: number): CompetitionPartner {
  requirePartner(tx, partnerId);
  if (tx.get('competitionPartners', linkId(competitionId, partnerId))) throw new DomainError('PARTNER_ALREADY_IN_COMPETITION');
  return tx.insert('competitionPartners', { id: linkId(competitionId, partnerId), competitionId, partnerId, position, createdAt: deps.clock.now() });
}

/** `POST /api/admin/competitions/{competitionId}/partners`: 409 when the partner is already there. */
export async function addCompetitionPartner(deps: Deps, competitionId: string, partnerId: string, position: number): Promise<CompetitionPartner> {
  return deps.store.transact((tx) => {
    requireCompetition(tx, competitionId);
    return linkTx(deps, tx, competitionId, partnerId, position);
  });
}

/** `PUT /api/admin/competitions/{competitionId}/partners/replace`: the whole list at once. */
export async function replaceCompetitionPartners(deps: Deps, competitionId: string, list: { partnerId: string; position: number }[]): Promise<PlacedPartner[]> {
  return deps.store.transact((tx) => {
    requireCompetition(tx, competitionId);
    for (const link of tx.find('competitionPartners', 'competition', competitionId)) tx.delete('competitionPartners', link.id);
    for (const p of list) linkTx(deps, tx, competitionId, p.partnerId, p.position);
    return placed(tx, competitionId);
  });
}

function requireLink(tx: ReadTx<Tables>, competitionId: string, partnerId: string): CompetitionPartner {
  requireCompetition(tx, competitionId);
  const link = tx.get('competitionPartners', linkId(competitionId, partnerId));
  if (!link) throw new DomainError('PARTNER_NOT_IN_COMPETITION');
  return link;
}

/** `PUT /api/admin/competitions/{competitionId}/partners/{partnerId}`: a new position. */
export async function moveCompetitionPartner(deps: Deps, competitionId: string, partnerId: string, position: number): Promise<CompetitionPartner> {
  return deps.store.transact((tx) => tx.put('competitionPartners', { ...requireLink(tx, competitionId, partnerId), position }));
}

/** `DELETE /api/admin/competitions/{competitionId}/partners/{partnerId}`. */
export async function removeCompetitionPartner(deps: Deps, competitionId: string, partnerId: string): Promise<void> {
  await deps.store.transact((tx) => {
    tx.delete('competitionPartners', requireLink(tx, competitionId, partnerId).id);
  });
}
