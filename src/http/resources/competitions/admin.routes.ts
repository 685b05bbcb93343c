// Admin competition routes: create, start (or create-and-start), end, update, participation, snapshots; legacy bodies accepted too.
import type { CompetitionInput } from '../../../domain/competitions/create.js';
import type { Agent, Competition } from '../../../domain/model.js';
import { updateCompetition } from '../../../domain/competitions/create.js';
import {
  addAgentToCompetition, competitionSnapshots, reactivateAgentInCompetition, removeAgentFromCompetition,
} from '../../../domain/competitions/admin-participants.js';
import { legacySnapshots } from '../../../domain/legacy/views.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { apiLegacySnapshot } from '../legacy/serialize.js';
import { apiCompetition, apiSnapshot } from './serialize.js';
import { reasonBody } from '../shared/request.js';
import { uuidParams } from '../shared/request.js';
import { createCompetitionBody, endCompetitionBody, snapshotsQuery, startCompetitionBody, updateCompetitionBody } from './request.js';
import { createAnyGeneration, endAnyGeneration, legacyTradingType, startAnyGenerationHandler } from '../legacy/shared.js';
import { addAgentResponses, createCompetitionResponses, endCompetitionResponses, reactivateInCompetitionResponses, removeAgentResponses, snapshotsResponses, startCompetitionResponses, updateCompetitionResponses } from './response.js';

const base = { generation: 'current', tag: 'admin', auth: 'admin' } as const;
const DATE_FIELDS = ['startDate', 'endDate', 'joinStartDate', 'joinEndDate', 'boostStartDate', 'boostEndDate', 'votingStartDate', 'votingEndDate'] as const;

/** Validated body -> domain input: ISO dates become epoch ms; wire-only keys are dropped. */
export function toCompetitionInput(body: Record<string, unknown>): CompetitionInput {
  const { competitionId: _c, agentIds: _a, teamIds: _t, allowCrossChainTrading: _x, slippageModel: _m, ...rest } = body;
  const input = { ...rest, ...legacyTradingType(body) } as Record<string, unknown>;
  for (const f of DATE_FIELDS) if (typeof input[f] === 'string') input[f] = Date.parse(input[f] as string);
  return input as CompetitionInput;
}

const pair = uuidParams('competitionId', 'agentId');

/** Body of the remove/reactivate answers: message, short agent and competition objects. */
function participationBody(message: string, agent: Agent, c: Competition, extra: Record<string, unknown> = {}) {
  return {
    success: true, message, agent: { id: agent.id, name: agent.name, handle: agent.handle },
    competition: { id: c.id, name: c.name }, ...extra,
  };
}

/** Admin competition routes. */
export const ADMIN_COMPETITION_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'admin.competitions.create', method: 'POST', path: '/api/admin/competition/create', summary: 'Create a competition',
    schemas: { responses: createCompetitionResponses, body: createCompetitionBody },
    handler: (req) => createAnyGeneration(req, toCompetitionInput(req.body)),
  }),
  route({
    ...base, id: 'admin.competitions.start', method: 'POST', path: '/api/admin/competition/start', summary: 'Start a competition (or create and start one)',
    schemas: { responses: startCompetitionResponses, body: startCompetitionBody },
    handler: (req) => startAnyGenerationHandler(req, toCompetitionInput(req.body)),
  }),
  route({
    ...base, id: 'admin.competitions.end', method: 'POST', path: '/api/admin/competition/end', summary: 'End a competition',
    schemas: { responses: endCompetitionResponses, body: endCompetitionBody },
    handler: endAnyGeneration,
  }),
  route({
    ...base, id: 'admin.competitions.update', method: 'PUT', path: '/api/admin/competition/{competitionId}', summary: 'Update a competition',
    schemas: { responses: updateCompetitionResponses, params: uuidParams('competitionId'), body: updateCompetitionBody },
    handler: async ({ world, params, body }) => ({ body: { success: true, competition: apiCompetition(await updateCompetition(world.deps, params.competitionId!, toCompetitionInput(body))) } }),
  }),
  route({
    ...base, id: 'admin.competitions.snapshots', method: 'GET', path: '/api/admin/competition/{competitionId}/snapshots', summary: 'Portfolio snapshots of a competition, newest first per agent',
    schemas: { responses: snapshotsResponses, params: uuidParams('competitionId'), query: snapshotsQuery },
    handler: async ({ world, params, query }) => {
      // A competition marked legacy answers in the team era's shape (the callers that made it are team-era clients).
      const legacy = await legacySnapshots(world.deps, params.competitionId!, query.teamId);
      if (legacy) return { body: { success: true, snapshots: legacy.map(apiLegacySnapshot) } };
      const snaps = await competitionSnapshots(world.deps, params.competitionId!, query.agentId);
      return { body: { success: true, snapshots: snaps.map(apiSnapshot) } };
    },
  }),
  route({
    ...base, id: 'admin.competitions.agents.add', method: 'POST', path: '/api/admin/competitions/{competitionId}/agents/{agentId}', summary: 'Add an agent to a competition',
    schemas: { responses: addAgentResponses, params: pair },
    handler: async ({ world, params }) => {
      const { agent, competition: c } = await addAgentToCompetition(world.deps, params.competitionId!, params.agentId!);
      return {
        body: {
          success: true, message: `Agent ${agent.name} successfully added to competition ${c.name}`,
          agent: { id: agent.id, name: agent.name, handle: agent.handle, ownerId: agent.ownerId },
          competition: { id: c.id, name: c.name, status: c.status },
        },
      };
    },
  }),
  route({
    ...base, id: 'admin.competitions.agents.remove', method: 'POST', path: '/api/admin/competitions/{competitionId}/agents/{agentId}/remove', summary: 'Disqualify an agent',
    schemas: { responses: removeAgentResponses, params: pair, body: reasonBody },
    handler: async ({ world, params, body }) => {
      const { agent, competition: c } = await removeAgentFromCompetition(world.deps, params.competitionId!, params.agentId!, body.reason);
      return { body: participationBody(`Agent ${agent.name} removed from competition ${c.name}`, agent, c, { reason: body.reason }) };
    },
  }),
  route({
    ...base, id: 'admin.competitions.agents.reactivate', method: 'POST', path: '/api/admin/competitions/{competitionId}/agents/{agentId}/reactivate', summary: 'Reactivate an agent in a competition',
    schemas: { responses: reactivateInCompetitionResponses, params: pair },
    handler: async ({ world, params }) => {
      const { agent, competition: c } = await reactivateAgentInCompetition(world.deps, params.competitionId!, params.agentId!);
      return { body: participationBody(`Agent ${agent.name} reactivated in competition ${c.name}`, agent, c) };
    },
  }),
];
