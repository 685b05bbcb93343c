// Request schemas of the partner routes.
import { PARTNER_SORT_FIELDS } from '../../../domain/competitions/partners.js';
import { nonEmpty, obj, pagingQuery, str, uuid } from '../shared/request.js';

const nStr = { type: ['string', 'null'] } as const;
const position = { type: 'integer', minimum: 0 } as const;

export const createPartnerBody = obj({ name: nonEmpty, url: nStr, logoUrl: nStr, details: nStr }, ['name']);
export const updatePartnerBody = obj({ name: nonEmpty, url: nStr, logoUrl: nStr, details: nStr });
export const listPartnersQuery = pagingQuery(50, PARTNER_SORT_FIELDS, 'name', { nameFilter: str });
export const partnerParams = obj({ partnerId: uuid }, ['partnerId']);
export const competitionPartnerParams = obj({ competitionId: uuid, partnerId: uuid }, ['competitionId', 'partnerId']);
export const addCompetitionPartnerBody = obj({ partnerId: uuid, position }, ['partnerId', 'position']);
export const replaceCompetitionPartnersBody = obj({ partners: { type: 'array', items: obj({ partnerId: uuid, position }, ['partnerId', 'position']) } }, ['partners']);
export const positionBody = obj({ position }, ['position']);
