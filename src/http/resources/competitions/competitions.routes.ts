// Public competition reads: list, detail, participants, leaderboard, status, rules, upcoming, timeline, trade lists.
import { competitionParticipants } from '../../../domain/competitions/participant-list.js';
import { activeCompetitionRules, competitionRules } from '../../../domain/competitions/rules.js';
import { competitionTimeline } from '../../../domain/competitions/timeline.js';
import { agentCompetitionTrades, competitionTrades } from '../../../domain/competitions/trades.js';
import { competitionDetail, competitionStatus, listCompetitions, upcomingCompetitions } from '../../../domain/competitions/views.js';
import { competitionLeaderboard } from '../../../domain/rankings/leaderboard.js';
import { pagination } from '../../../domain/data/paging.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { competitionAgentParams, competitionParams, invalidFormat, invalidRequest, leaderboardQuery, listCompetitionsQuery, participantsQuery, timelineQuery, tradesQuery } from './request.js';
import { apiCompetitionDetail, apiCompetitionStatus, apiListedCompetition, leaderboardAnswer, apiParticipant, apiRules, apiTimeline } from './serialize.js';
import { apiCompetition } from './serialize.js';
import { apiCompetitionTrade, apiTrade } from '../trading/serialize.js';
import { competitionsActiveRulesResponses, competitionsAgentTradesResponses, competitionsAgentsResponses, competitionsGetResponses, competitionsLeaderboardResponses, competitionsListResponses, competitionsRulesResponses, competitionsStatusResponses, competitionsTimelineResponses, competitionsTradesResponses, competitionsUpcomingResponses } from './response.js';

const base = { generation: 'current', tag: 'competitions', invalid: invalidRequest } as const;

/** Competition read routes. */
export const COMPETITION_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'competitions.list', method: 'GET', path: '/api/competitions', auth: 'optional', summary: 'List competitions',
    schemas: { responses: competitionsListResponses, query: listCompetitionsQuery },
    handler: async ({ world, principal, query }) => {
      const r = await listCompetitions(world.deps, { principal, status: query.status, sort: query.sort, limit: query.limit, offset: query.offset });
      return { body: { success: true, competitions: r.competitions.map(apiListedCompetition), pagination: pagination(r.total, query.limit, query.offset) } };
    },
  }),
  route({
    ...base, id: 'competitions.leaderboard', method: 'GET', path: '/api/competitions/leaderboard', auth: 'key', summary: 'Leaderboard of a competition (older era)',
    schemas: { responses: competitionsLeaderboardResponses, query: leaderboardQuery },
    handler: async ({ world, principal, query }) => {
      const v = await competitionLeaderboard(world.deps, { principal, ...(query.competitionId ? { competitionId: query.competitionId } : {}) });
      return leaderboardAnswer(world.deps.caches, v);
    },
  }),
  route({
    ...base, id: 'competitions.status', method: 'GET', path: '/api/competitions/status', auth: 'key', summary: 'Active competition and participation (older era)',
    schemas: { responses: competitionsStatusResponses },
    handler: async ({ world, principal }) => ({ body: { success: true, ...apiCompetitionStatus(await competitionStatus(world.deps, principal)) } }),
  }),
  route({
    ...base, id: 'competitions.upcoming', method: 'GET', path: '/api/competitions/upcoming', auth: 'key', summary: 'Pending competitions (older era)',
    schemas: { responses: competitionsUpcomingResponses },
    handler: async ({ world }) => ({ body: { success: true, competitions: (await upcomingCompetitions(world.deps)).map(apiCompetition) } }),
  }),
  route({
    ...base, id: 'competitions.rules.active', method: 'GET', path: '/api/competitions/rules', auth: 'key', summary: 'Rules of the active competition (older era)',
    schemas: { responses: competitionsActiveRulesResponses },
    handler: async ({ world, principal }) => {
      const v = await activeCompetitionRules(world.deps, principal);
      return { body: { success: true, competition: apiCompetition(v.competition), rules: apiRules(v.rules) } };
    },
  }),
  route({
    ...base, id: 'competitions.get', method: 'GET', path: '/api/competitions/{competitionId}', auth: 'optional', summary: 'Competition detail with stats',
    schemas: { responses: competitionsGetResponses, params: competitionParams },
    handler: async ({ world, principal, params }) => ({
      body: { success: true, competition: apiCompetitionDetail(await competitionDetail(world.deps, { principal, competitionId: params.competitionId! })) },
    }),
  }),
  route({
    ...base, id: 'competitions.agents', method: 'GET', path: '/api/competitions/{competitionId}/agents', auth: 'optional', summary: 'Participants with rank and performance',
    invalid: invalidFormat, schemas: { responses: competitionsAgentsResponses, params: competitionParams, query: participantsQuery },
    handler: async ({ world, params, query }) => {
      const r = await competitionParticipants(world.deps, {
        competitionId: params.competitionId!, filter: query.filter, sort: query.sort, limit: query.limit, offset: query.offset,
        includeInactive: query.includeInactive,
      });
      return {
        body: {
          success: true, competitionId: r.competition.id, registeredParticipants: r.competition.registeredParticipants,
          maxParticipants: r.competition.maxParticipants, agents: r.rows.map(apiParticipant), pagination: pagination(r.total, query.limit, query.offset),
        },
      };
    },
  }),
  route({
    ...base, id: 'competitions.rules', method: 'GET', path: '/api/competitions/{competitionId}/rules', auth: 'optional', summary: 'Rules of a competition',
    schemas: { responses: competitionsRulesResponses, params: competitionParams },
    handler: async ({ world, params }) => {
      const v = await competitionRules(world.deps, params.competitionId!);
      return { body: { success: true, competition: apiCompetition(v.competition), rules: apiRules(v.rules) } };
    },
  }),
  route({
    ...base, id: 'competitions.timeline', method: 'GET', path: '/api/competitions/{competitionId}/timeline', auth: 'optional', summary: 'Portfolio value timeline per agent',
    schemas: { responses: competitionsTimelineResponses, params: competitionParams, query: timelineQuery },
    handler: async ({ world, params, query }) => {
      const lines = await competitionTimeline(world.deps, { competitionId: params.competitionId!, bucket: query.bucket });
      return { body: { success: true, competitionId: params.competitionId, timeline: apiTimeline(lines) } };
    },
  }),
  route({
    ...base, id: 'competitions.trades', method: 'GET', path: '/api/competitions/{competitionId}/trades', auth: 'key', summary: 'Trades of a competition',
    schemas: { responses: competitionsTradesResponses, params: competitionParams, query: tradesQuery },
    handler: async ({ world, params, query }) => {
      const r = await competitionTrades(world.deps, { competitionId: params.competitionId!, limit: query.limit, offset: query.offset });
      return {
        body: {
          success: true, trades: r.trades.map((t) => apiCompetitionTrade(t.trade, t.agent)), competition: apiCompetition(r.competition),
          total: r.total, pagination: pagination(r.total, query.limit, query.offset),
        },
      };
    },
  }),
  route({
    ...base, id: 'competitions.agents.trades', method: 'GET', path: '/api/competitions/{competitionId}/agents/{agentId}/trades', auth: 'key', summary: "An agent's trades in a competition",
    schemas: { responses: competitionsAgentTradesResponses, params: competitionAgentParams, query: tradesQuery },
    handler: async ({ world, params, query }) => {
      const r = await agentCompetitionTrades(world.deps, { competitionId: params.competitionId!, agentId: params.agentId!, limit: query.limit, offset: query.offset });
      return { body: { success: true, trades: r.trades.map(apiTrade), total: r.total, pagination: pagination(r.total, query.limit, query.offset) } };
    },
  }),
];
