// The calling agent's own profile and key: read, update description/imageUrl, reset the API key.
import { ownProfile, resetOwnApiKey, updateOwnProfile } from '../../../domain/agents/profile.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { invalidFormat } from '../shared/request.js';
import { profileBody } from './request.js';
import { apiOwnAgent, apiProfileOwner } from './serialize.js';
import { profileResponses, profileUpdateResponses, resetKeyResponses } from './response.js';

// Every route here reads the calling agent: an admin key passes the key check, then gets 401.
const base = { auth: 'key', agentOnly: true, generation: 'current', tag: 'agent' } as const;

/** Own-profile routes (an admin key authenticates but has no agent: 401 `Authentication required`). */
export const AGENT_PROFILE_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'agent.profile.get', method: 'GET', path: '/api/agent/profile', summary: 'The calling agent and its owner',
    schemas: { responses: profileResponses },
    handler: async ({ world, principal }) => {
      const { agent, owner } = await ownProfile(world.deps, principal);
      return { body: { success: true, agent: apiOwnAgent(agent), owner: apiProfileOwner(owner) } };
    },
  }),
  route({
    ...base, id: 'agent.profile.update', method: 'PUT', path: '/api/agent/profile', summary: "Update the calling agent's description and image URL",
    schemas: { responses: profileUpdateResponses, body: profileBody }, invalid: invalidFormat,
    handler: async ({ world, principal, body }) => ({ body: { success: true, agent: apiOwnAgent(await updateOwnProfile(world.deps, principal, body)) } }),
  }),
  route({
    ...base, id: 'agent.resetApiKey', method: 'POST', path: '/api/agent/reset-api-key', summary: "Replace the calling agent's API key",
    schemas: { responses: resetKeyResponses },
    handler: async ({ world, principal }) => ({ body: { success: true, apiKey: (await resetOwnApiKey(world.deps, principal)).apiKey } }),
  }),
];
