// Admin setup, user registration and agent management routes.
import { setupAdmin } from '../../../domain/access/admins.js';
import {
  AGENT_SORT_FIELDS, createAgentForOwner, deleteAgent, getAgent, getAgentApiKey, listAgents, setAgentStatus, updateAgent,
} from '../../../domain/agents/manage.js';
import { pagination, parseSort } from '../../../domain/data/paging.js';
import { registerUser } from '../../../domain/agents/users.js';
import type { RouteDef } from '../../route.js';
import { agentBrief, apiAdmin, apiAgent, apiUser } from './serialize.js';
import { iso } from '../shared/time.js';
import { createAgentBody, registerUserBody, setupBody, updateAgentBody } from './request.js';
import { reasonBody } from '../shared/request.js';
import { pagingQuery, uuidParams } from '../shared/request.js';
import { agentKeyResponses, agentResponses, createAgentResponses, createUserResponses, deactivateAgentResponses, deleteAgentResponses, listAgentsResponses, reactivateAgentResponses, setupResponses, updateAgentResponses } from './response.js';

const base = { generation: 'current', tag: 'admin' } as const;
const agentParams = { params: uuidParams('agentId') };

/** Admin actor routes. */
export const ADMIN_ACTOR_ROUTES: RouteDef[] = [
  {
    ...base, id: 'admin.setup', method: 'POST', path: '/api/admin/setup', auth: 'public', summary: 'One-time admin bootstrap',
    schemas: { responses: setupResponses, body: setupBody },
    handler: async ({ world, body }) => {
      // Only the documented fields: the key, salt and id are drawn by the world, never taken from the body.
      const { admin, apiKey } = await setupAdmin(world.deps, { username: body.username, password: body.password, email: body.email });
      return { status: 201, body: { success: true, message: 'Admin account created successfully', admin: apiAdmin(admin, apiKey) } };
    },
  },
  {
    ...base, id: 'admin.users.create', method: 'POST', path: '/api/admin/users', auth: 'admin', summary: 'Register a user (and first agent)',
    schemas: { responses: createUserResponses, body: registerUserBody },
    handler: async ({ world, body }) => {
      const r = await registerUser(world.deps, body);
      const out: Record<string, unknown> = { success: true, user: apiUser(r.user) };
      if (r.agentError !== undefined) out.agentError = r.agentError;
      if (r.agent) out.agent = apiAgent(r.agent, r.apiKey);
      return { status: 201, body: out };
    },
  },
  {
    ...base, id: 'admin.agents.create', method: 'POST', path: '/api/admin/agents', auth: 'admin', summary: 'Create an agent for a user',
    schemas: { responses: createAgentResponses, body: createAgentBody },
    handler: async ({ world, body }) => {
      const { agent, apiKey } = await createAgentForOwner(world.deps, body.user, body.agent);
      return { status: 201, body: { success: true, agent: apiAgent(agent, apiKey) } };
    },
  },
  {
    ...base, id: 'admin.agents.list', method: 'GET', path: '/api/admin/agents', auth: 'admin', summary: 'List agents',
    schemas: { responses: listAgentsResponses, query: pagingQuery(50, '-createdAt') },
    handler: async ({ world, query }) => {
      const { agents, total } = await listAgents(world.deps, { limit: query.limit, offset: query.offset, sort: parseSort(query.sort, AGENT_SORT_FIELDS) });
      return { body: { success: true, agents: agents.map((a) => apiAgent(a)), pagination: pagination(total, query.limit, query.offset) } };
    },
  },
  {
    ...base, id: 'admin.agents.get', method: 'GET', path: '/api/admin/agents/{agentId}', auth: 'admin', summary: 'Get an agent',
    schemas: { ...agentParams, responses: agentResponses },
    handler: async ({ world, params }) => ({ body: { success: true, agent: apiAgent(await getAgent(world.deps, params.agentId!)) } }),
  },
  {
    ...base, id: 'admin.agents.update', method: 'PUT', path: '/api/admin/agents/{agentId}', auth: 'admin', summary: 'Update an agent',
    schemas: { responses: updateAgentResponses, ...agentParams, body: updateAgentBody },
    handler: async ({ world, params, body }) => ({ body: { success: true, agent: apiAgent(await updateAgent(world.deps, params.agentId!, body)) } }),
  },
  {
    ...base, id: 'admin.agents.delete', method: 'DELETE', path: '/api/admin/agents/{agentId}', auth: 'admin', summary: 'Delete an agent',
    schemas: { ...agentParams, responses: deleteAgentResponses },
    handler: async ({ world, params }) => {
      await deleteAgent(world.deps, params.agentId!);
      return { body: { success: true, message: 'Agent successfully deleted' } };
    },
  },
  {
    ...base, id: 'admin.agents.key', method: 'GET', path: '/api/admin/agents/{agentId}/key', auth: 'admin', summary: "Read an agent's API key",
    schemas: { ...agentParams, responses: agentKeyResponses },
    handler: async ({ world, params }) => {
      const { agent, apiKey } = await getAgentApiKey(world.deps, params.agentId!);
      return { body: { success: true, agent: { id: agent.id, name: agent.name, apiKey } } };
    },
  },
  {
    ...base, id: 'admin.agents.deactivate', method: 'POST', path: '/api/admin/agents/{agentId}/deactivate', auth: 'admin',
    summary: 'Deactivate an agent globally', schemas: { responses: deactivateAgentResponses, ...agentParams, body: reasonBody },
    handler: async ({ world, params, body }) => {
      const { agent, changed } = await setAgentStatus(world.deps, params.agentId!, false, body.reason);
      if (!changed) return { status: 400, body: { success: false, error: 'Agent is already inactive', agent: agentBrief(agent) } };
      return {
        body: {
          success: true,
          agent: { id: agent.id, name: agent.name, status: agent.status, deactivationReason: agent.deactivationReason, deactivationDate: iso(agent.deactivationDate) },
        },
      };
    },
  },
  {
    ...base, id: 'admin.agents.reactivate', method: 'POST', path: '/api/admin/agents/{agentId}/reactivate', auth: 'admin',
    summary: 'Reactivate an agent globally', schemas: { ...agentParams, responses: reactivateAgentResponses },
    handler: async ({ world, params }) => {
      const { agent, changed } = await setAgentStatus(world.deps, params.agentId!, true);
      if (!changed) return { status: 400, body: { success: false, error: 'Agent is already active', agent: agentBrief(agent) } };
      return { body: { success: true, agent: { id: agent.id, name: agent.name, status: agent.status } } };
    },
  },
];
