// Partner routes (the newest service's admin API): partner CRUD and each competition's ordered partner list.
import { pagination, parseSort } from '../../../domain/data/paging.js';
import {
  addCompetitionPartner, competitionPartners, createPartner, deletePartner, getPartner, listPartners, moveCompetitionPartner,
  PARTNER_SORT_FIELDS, removeCompetitionPartner, replaceCompetitionPartners, updatePartner,
} from '../../../domain/competitions/partners.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { uuidParams } from '../shared/request.js';
import {
  addCompetitionPartnerBody, competitionPartnerParams, createPartnerBody, listPartnersQuery, partnerParams, positionBody,
  replaceCompetitionPartnersBody, updatePartnerBody,
} from './request.js';
import {
  associationCreateResponses, associationResponses, competitionPartnersResponses, partnerCreateResponses, partnerDeleteResponses,
  partnerListResponses, partnerResponses,
} from './response.js';
import { apiAssociation, apiPartner, apiPlacedPartner } from './serialize.js';

const base = { generation: 'current', tag: 'admin', auth: 'admin' } as const;

/** `/api/admin/partners*` and `/api/admin/competitions/{competitionId}/partners*`. */
export const PARTNER_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'admin.partners.create', method: 'POST', path: '/api/admin/partners', summary: 'Create a partner',
    schemas: { responses: partnerCreateResponses, body: createPartnerBody },
    handler: async ({ world, body }) => ({ status: 201, body: { success: true, partner: apiPartner(await createPartner(world.deps, body)) } }),
  }),
  route({
    ...base, id: 'admin.partners.list', method: 'GET', path: '/api/admin/partners', summary: 'List partners',
    schemas: { responses: partnerListResponses, query: listPartnersQuery },
    handler: async ({ world, query }) => {
      const r = await listPartners(world.deps, {
        limit: query.limit, offset: query.offset, sort: parseSort(query.sort, PARTNER_SORT_FIELDS), ...(query.nameFilter ? { nameFilter: query.nameFilter } : {}),
      });
      return { body: { success: true, partners: r.partners.map(apiPartner), pagination: pagination(r.total, query.limit, query.offset) } };
    },
  }),
  route({
    ...base, id: 'admin.partners.get', method: 'GET', path: '/api/admin/partners/{partnerId}', summary: 'Get a partner',
    schemas: { responses: partnerResponses, params: partnerParams },
    handler: async ({ world, params }) => ({ body: { success: true, partner: apiPartner(await getPartner(world.deps, params.partnerId!)) } }),
  }),
  route({
    ...base, id: 'admin.partners.update', method: 'PUT', path: '/api/admin/partners/{partnerId}', summary: 'Update a partner',
    schemas: { responses: partnerResponses, params: partnerParams, body: updatePartnerBody },
    handler: async ({ world, params, body }) => ({ body: { success: true, partner: apiPartner(await updatePartner(world.deps, params.partnerId!, body)) } }),
  }),
  route({
    ...base, id: 'admin.partners.delete', method: 'DELETE', path: '/api/admin/partners/{partnerId}', summary: 'Delete a partner',
    schemas: { responses: partnerDeleteResponses, params: partnerParams },
    handler: async ({ world, params }) => {
      await deletePartner(world.deps, params.partnerId!);
      return { body: { success: true, message: `Partner ${params.partnerId} deleted successfully` } };
    },
  }),
  route({
    ...base, id: 'admin.partners.competition.list', method: 'GET', path: '/api/admin/competitions/{competitionId}/partners', summary: "A competition's partners",
    schemas: { responses: competitionPartnersResponses, params: uuidParams('competitionId') },
    handler: async ({ world, params }) => ({ body: { success: true, partners: (await competitionPartners(world.deps, params.competitionId!)).map(apiPlacedPartner) } }),
  }),
  route({
    ...base, id: 'admin.partners.competition.add', method: 'POST', path: '/api/admin/competitions/{competitionId}/partners', summary: 'Add a partner to a competition',
    schemas: { responses: associationCreateResponses, params: uuidParams('competitionId'), body: addCompetitionPartnerBody },
    handler: async ({ world, params, body }) => ({
      status: 201, body: { success: true, association: apiAssociation(await addCompetitionPartner(world.deps, params.competitionId!, body.partnerId, body.position)) },
    }),
  }),
  route({
    ...base, id: 'admin.partners.competition.replace', method: 'PUT', path: '/api/admin/competitions/{competitionId}/partners/replace', summary: "Replace a competition's partners",
    schemas: { responses: competitionPartnersResponses, params: uuidParams('competitionId'), body: replaceCompetitionPartnersBody },
    handler: async ({ world, params, body }) => ({
      body: { success: true, partners: (await replaceCompetitionPartners(world.deps, params.competitionId!, body.partners)).map(apiPlacedPartner) },
    }),
  }),
  route({
    ...base, id: 'admin.partners.competition.move', method: 'PUT', path: '/api/admin/competitions/{competitionId}/partners/{partnerId}', summary: "Change a partner's position",
    schemas: { responses: associationResponses, params: competitionPartnerParams, body: positionBody },
    handler: async ({ world, params, body }) => ({
      body: { success: true, association: apiAssociation(await moveCompetitionPartner(world.deps, params.competitionId!, params.partnerId!, body.position)) },
    }),
  }),
  route({
    ...base, id: 'admin.partners.competition.remove', method: 'DELETE', path: '/api/admin/competitions/{competitionId}/partners/{partnerId}', summary: 'Remove a partner from a competition',
    schemas: { responses: partnerDeleteResponses, params: competitionPartnerParams },
    handler: async ({ world, params }) => {
      await removeCompetitionPartner(world.deps, params.competitionId!, params.partnerId!);
      return { body: { success: true, message: 'Partner removed from competition successfully' } };
    },
  }),
];
