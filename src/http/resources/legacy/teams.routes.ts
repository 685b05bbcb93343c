// Legacy team management: public and admin registration, the admin team endpoints and the performance report.
import {
  deactivateTeam, deleteTeam, listTeams, reactivateTeam, registerTeam, teamApiKey,
} from '../../../domain/legacy/teams.js';
import { performanceReport } from '../../../domain/legacy/views.js';
import { currentPerformanceReport } from '../../../domain/competitions/admin-reports.js';
import { apiCompetition } from '../competitions/serialize.js';
import { apiPerformanceRow } from '../reports/serialize.js';
import type { HandlerRequest, RouteDef } from '../../route.js';
import { route, type Infer } from '../../typed-route.js';
import { deactivateTeamBody, performanceQuery, registerTeamBody, teamParams } from './request.js';
import { apiLegacyCompetition, apiListedTeam, apiPerformanceRows, apiRegisteredTeam, apiTeamStatus } from './serialize.js';
import { deleteTeamResponses, listTeamsResponses, performanceResponses, registerTeamResponses, teamKeyResponses, teamStatusResponses } from './response.js';

const admin = { generation: 'legacy', tag: 'admin', auth: 'admin' } as const;

async function register({ world, body }: HandlerRequest<Infer<typeof registerTeamBody>>) {
  const r = await registerTeam(world.deps, body);
  return { status: 201, body: { success: true, team: apiRegisteredTeam(r.team, r.apiKey, r.walletAddress) } };
}

/** Team routes of the legacy generation. */
export const LEGACY_TEAM_ROUTES: RouteDef[] = [
  route({
    id: 'public.teams.register', method: 'POST', path: '/api/public/teams/register', auth: 'public', generation: 'legacy', tag: 'public',
    summary: 'Register a team (the wallet is generated when absent)', schemas: { responses: registerTeamResponses, body: registerTeamBody }, handler: register,
  }),
  route({
    ...admin, id: 'admin.teams.register', method: 'POST', path: '/api/admin/teams/register', summary: 'Register a team',
    schemas: { responses: registerTeamResponses, body: registerTeamBody }, handler: register,
  }),
  route({
    ...admin, id: 'admin.teams.list', method: 'GET', path: '/api/admin/teams', summary: 'List teams',
    schemas: { responses: listTeamsResponses },
    handler: async ({ world }) => ({ body: { success: true, teams: (await listTeams(world.deps)).map(apiListedTeam) } }),
  }),
  route({
    ...admin, id: 'admin.teams.key', method: 'GET', path: '/api/admin/teams/{teamId}/key', summary: "Read a team's API key",
    schemas: { responses: teamKeyResponses, params: teamParams },
    handler: async ({ world, params }) => {
      const { agent, apiKey } = await teamApiKey(world.deps, params.teamId!);
      return { body: { success: true, team: { id: agent.id, name: agent.name, apiKey } } };
    },
  }),
  route({
    ...admin, id: 'admin.teams.delete', method: 'DELETE', path: '/api/admin/teams/{teamId}', summary: 'Delete a team and its data',
    schemas: { responses: deleteTeamResponses, params: teamParams },
    handler: async ({ world, params }) => {
      await deleteTeam(world.deps, params.teamId!);
      return { body: { success: true, message: 'Team successfully deleted' } };
    },
  }),
  route({
    ...admin, id: 'admin.teams.deactivate', method: 'POST', path: '/api/admin/teams/{teamId}/deactivate', summary: 'Deactivate a team',
    schemas: { responses: teamStatusResponses, params: teamParams, body: deactivateTeamBody },
    handler: async ({ world, params, body }) => {
      const { agent, changed } = await deactivateTeam(world.deps, params.teamId!, body.reason);
      if (!changed) return { status: 400, body: { success: false, error: 'Team is already inactive', team: apiTeamStatus(agent) } };
      return { body: { success: true, team: apiTeamStatus(agent) } };
    },
  }),
  route({
    ...admin, id: 'admin.teams.reactivate', method: 'POST', path: '/api/admin/teams/{teamId}/reactivate', summary: 'Reactivate a team',
    schemas: { responses: teamStatusResponses, params: teamParams },
    handler: async ({ world, params }) => {
      const { agent, changed } = await reactivateTeam(world.deps, params.teamId!);
      if (!changed) return { status: 400, body: { success: false, error: 'Team is already active', team: apiTeamStatus(agent) } };
      return { body: { success: true, team: apiTeamStatus(agent) } };
    },
  }),
  route({
    ...admin, id: 'admin.reports.performance', method: 'GET', path: '/api/admin/reports/performance', summary: 'Performance report of a competition',
    schemas: { responses: performanceResponses, query: performanceQuery },
    handler: async ({ world, query }) => {
      const r = await performanceReport(world.deps, query.competitionId);
      if (r.competition.slippageModel === 'legacy') {
        return { body: { success: true, competition: apiLegacyCompetition(r.competition), leaderboard: apiPerformanceRows(r.leaderboard) } };
      }
      // A competition of the current generation gets the current report.
      const current = await currentPerformanceReport(world.deps, r.competition.id);
      return { body: { success: true, competition: apiCompetition(current.competition), leaderboard: current.leaderboard.map(apiPerformanceRow) } };
    },
  }),
];
