// Response schemas of the health checks.
import { API_VERSIONS } from '../../../domain/versions.js';
import { dateTime, shape, string, type Responses } from '../shared/response.js';

const health = {
  status: { type: 'string', const: 'ok' }, timestamp: dateTime, uptime: { type: 'number', description: 'Seconds of virtual time since the world was created' },
  version: string,
};

export const healthResponses: Responses = {
  200: { ...shape(health), examples: [{ status: 'ok', timestamp: '2025-06-02T12:00:00.000Z', uptime: 0, version: '0.1.0' }] },
};
export const healthDetailedResponses: Responses = {
  200: shape({
    ...health, services: { type: 'object', additionalProperties: { type: 'string', const: 'ok' } },
    apiVersion: { type: 'string', enum: [...API_VERSIONS], description: 'The API version the world speaks (compsim only).' },
    unknownTokens: { type: 'string', enum: ['refuse', 'synthetic'], description: 'How tokens outside the catalogue are priced (compsim only).' },
  }),
};
