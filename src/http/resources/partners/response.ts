// Response schemas of the partner routes.
import { arrayOf, component, dateTime, errors, integer, nullable, ok, okMessage, Pagination, shape, string, type Responses } from '../shared/response.js';

const nString = nullable(string);
export const Partner = component('Partner', shape({ id: string, name: string, url: nString, logoUrl: nString, details: nString, createdAt: dateTime, updatedAt: dateTime }));
const Association = shape({ competitionId: string, partnerId: string, position: integer, createdAt: dateTime });
const PlacedPartner = shape({ id: string, name: string, url: nString, logoUrl: nString, details: nString, createdAt: dateTime, updatedAt: dateTime, position: integer });

export const partnerCreateResponses: Responses = { 201: ok({ partner: Partner }), ...errors(400) };
export const partnerResponses: Responses = { 200: ok({ partner: Partner }), ...errors(400, 404) };
export const partnerListResponses: Responses = { 200: ok({ partners: arrayOf(Partner), pagination: Pagination }), ...errors(400) };
export const partnerDeleteResponses: Responses = { 200: okMessage, ...errors(400, 404) };
export const competitionPartnersResponses: Responses = { 200: ok({ partners: arrayOf(PlacedPartner) }), ...errors(400, 404, 409) };
export const associationCreateResponses: Responses = { 201: ok({ association: Association }), ...errors(400, 404, 409) };
export const associationResponses: Responses = { 200: ok({ association: Association }), ...errors(400, 404) };
