// Health endpoints: status, virtual-clock uptime, package version; detailed adds the services map (current + legacy keys).
import type { HandlerRequest, RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { iso } from '../shared/time.js';
import { healthDetailedResponses, healthResponses } from './response.js';

const SERVICES = [
  'priceTrackerService', 'balanceService', 'tradeSimulatorService', 'competitionService', 'userService', 'agentService',
  'priceTracker', 'balanceManager', 'tradeSimulator', 'competitionManager', 'teamManager', 'userManager', 'agentManager',
];

function basic({ world }: HandlerRequest) {
  const now = world.deps.clock.now();
  return { status: 'ok', timestamp: iso(now), uptime: (now - world.createdAt) / 1000, version: world.deps.config.version };
}

/** `GET /api/health`, `GET /api/health/detailed` (no `success` field, as upstream). */
export const HEALTH_ROUTES: RouteDef[] = [
  route({
    id: 'health.get', method: 'GET', path: '/api/health', auth: 'public', generation: 'shared', tag: 'health',
    summary: 'Service health', schemas: { responses: healthResponses }, handler: async (req) => ({ body: basic(req) }),
  }),
  route({
    id: 'health.detailed', method: 'GET', path: '/api/health/detailed', auth: 'public', generation: 'shared', tag: 'health',
    summary: 'Service health with per-service status',
    schemas: { responses: healthDetailedResponses },
    // `apiVersion` and `unknownTokens` are compsim's: which API version the world speaks and how it prices tokens outside the catalogue.
    handler: async (req) => ({
      body: {
        ...basic(req), services: Object.fromEntries(SERVICES.map((s) => [s, 'ok'])),
        apiVersion: req.world.deps.config.apiVersion, unknownTokens: req.world.deps.config.unknownTokens,
      },
    }),
  }),
];
