// Admin reads and reports: users list, user/agent search, transfer violations, reward allocation, self-funding alerts.
import { listUsers, parseSearchQuery, searchUsersAndAgents } from '../../../domain/agents/admin-reads.js';
import { allocateRewards, competitionAlerts, reviewAlert, transferViolations } from '../../../domain/competitions/admin-reports.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { obj, str, uuid, uuidParams } from '../shared/request.js';
import {
  alertReviewResponses, alertsResponses, allocateRewardsResponses, listUsersResponses, searchResponses, transferViolationsResponses,
} from './response.js';
import { apiListedUser, apiSearchAgent } from './serialize.js';
import { searchQuery } from './request.js';

const base = { generation: 'current', tag: 'admin', auth: 'admin' } as const;
const competitionParams = { params: uuidParams('competitionId') };
const alertParams = { params: obj({ competitionId: uuid, alertId: str }, ['competitionId', 'alertId']) };

/** Admin reads and reports (upstream's `GET /users`, `GET /search`, reports and alerts). */
export const ADMIN_READ_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'admin.users.list', method: 'GET', path: '/api/admin/users', summary: 'List every user (no paging)',
    schemas: { responses: listUsersResponses },
    handler: async ({ world }) => ({ body: { success: true, users: (await listUsers(world.deps)).map(apiListedUser) } }),
  }),
  route({
    ...base, id: 'admin.search', method: 'GET', path: '/api/admin/search', summary: 'Search users and agents (user.*, agent.*, join)',
    schemas: { responses: searchResponses, query: searchQuery },
    handler: async ({ world, query }) => {
      const q = parseSearchQuery(query);
      const r = await searchUsersAndAgents(world.deps, q);
      return { body: { success: true, join: q.join, results: { users: r.users.map(apiListedUser), agents: r.agents.map(apiSearchAgent) } } };
    },
  }),
  route({
    ...base, id: 'admin.competitions.transferViolations', method: 'GET', path: '/api/admin/competition/{competitionId}/transfer-violations',
    summary: 'Agents with wallet transfers during the competition (none are simulated)',
    schemas: { ...competitionParams, responses: transferViolationsResponses },
    handler: async ({ world, params }) => ({ body: { success: true, violations: await transferViolations(world.deps, params.competitionId!) } }),
  }),
  route({
    ...base, id: 'admin.rewards.allocate', method: 'POST', path: '/api/admin/rewards/allocate', summary: 'Allocate the rewards of a competition',
    schemas: { responses: allocateRewardsResponses, body: obj({ competitionId: uuid, startTimestamp: { description: 'Accepted and ignored (any JSON value)' } }, ['competitionId']) },
    handler: async ({ world, body }) => {
      await allocateRewards(world.deps, body.competitionId);
      return { body: { success: true, message: 'Rewards allocated successfully', competitionId: body.competitionId } };
    },
  }),
  route({
    ...base, id: 'admin.alerts.spotLive', method: 'GET', path: '/api/admin/competition/{competitionId}/spot-live/alerts',
    summary: 'Self-funding alerts of a spot-live competition (none are raised)', schemas: { ...competitionParams, responses: alertsResponses },
    handler: async ({ world, params }) => ({ body: { success: true, alerts: await competitionAlerts(world.deps, params.competitionId!) } }),
  }),
  route({
    ...base, id: 'admin.alerts.spotLive.review', method: 'PUT', path: '/api/admin/competition/{competitionId}/spot-live/alerts/{alertId}/review',
    summary: 'Review a spot-live alert', schemas: { ...alertParams, responses: alertReviewResponses },
    handler: async ({ world, params }) => reviewAlert(world.deps, params.competitionId!),
  }),
  route({
    ...base, id: 'admin.alerts.perps', method: 'GET', path: '/api/admin/competition/{competitionId}/perps/alerts',
    summary: 'Self-funding alerts of a perps competition (none are raised)', schemas: { ...competitionParams, responses: alertsResponses },
    handler: async ({ world, params }) => ({ body: { success: true, alerts: await competitionAlerts(world.deps, params.competitionId!) } }),
  }),
  route({
    ...base, id: 'admin.alerts.perps.review', method: 'PUT', path: '/api/admin/competition/{competitionId}/perps/alerts/{alertId}/review',
    summary: 'Review a perps alert', schemas: { ...alertParams, responses: alertReviewResponses },
    handler: async ({ world, params }) => reviewAlert(world.deps, params.competitionId!),
  }),
];
