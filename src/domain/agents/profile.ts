// The calling agent's own profile: read it with its owner, update description/imageUrl, reset its API key.
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Principal, User } from '../model.js';

/** Fields an agent may change on itself (upstream's UpdateAgentProfileBodySchema). */
export const PROFILE_FIELDS = ['description', 'imageUrl'] as const;

/**
 * The agent a key-authenticated request acts for. The admin key passes the key check of
 * `/api/agent/*` but has no agent identity: 401 `Authentication required`.
 */
export function ownAgentId(principal: Principal): string {
  if (principal.kind !== 'agent') throw new DomainError('AUTH_REQUIRED');
  return principal.agentId;
}

/** `GET /api/agent/profile`: the agent and its owning user (404s if either vanished). */
export async function ownProfile(deps: Deps, principal: Principal): Promise<{ agent: Agent; owner: User }> {
  const agentId = ownAgentId(principal);
  return deps.store.read((tx) => {
    const agent = tx.get('agents', agentId);
    if (!agent) throw new DomainError('AGENT_NOT_FOUND');
    const owner = tx.get('users', agent.ownerId);
    if (!owner) throw new DomainError('AGENT_OWNER_NOT_FOUND');
    return { agent, owner };
  });
}

const invalid = (field: string, reason: string) => new DomainError('PROFILE_INVALID', { field, reason });

/** True for what zod's `z.url()` accepts: anything the WHATWG URL parser takes, after trimming. */
function isUrl(s: string): boolean {
  return URL.canParse(s.trim());
}

/**
 * Validates a profile update body the way upstream's strict zod schema does: only `description`
 * (a string, trimmed, at least one character) and `imageUrl` (a URL); any other key is rejected.
 * Messages are zod's custom ones, prefixed with the field: `Invalid request format: <field> (<reason>)`.
 */
export function parseProfileUpdate(body: unknown): { description?: string; imageUrl?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'Invalid input: expected object');
  const extra = Object.keys(body).find((k) => !(PROFILE_FIELDS as readonly string[]).includes(k));
  if (extra !== undefined) throw invalid(extra, `Unrecognized key: "${extra}"`);
  const { description, imageUrl } = body as Record<string, unknown>;
  const out: { description?: string; imageUrl?: string } = {};
  if (description !== undefined) {
    if (typeof description !== 'string') throw invalid('description', 'Invalid description format');
    if (description.trim().length < 1) throw invalid('description', 'Description must be at least 1 character');
    out.description = description.trim();
  }
  if (imageUrl !== undefined) {
    if (typeof imageUrl !== 'string' || !isUrl(imageUrl)) throw invalid('imageUrl', 'Invalid image URL format');
    out.imageUrl = imageUrl;
  }
  return out;
}

/**
 * `PUT /api/agent/profile`: sets `description` and/or `imageUrl` of the calling agent; nothing
 * else about the agent can change here. An empty body changes only `updatedAt`, as upstream's.
 */
export async function updateOwnProfile(deps: Deps, principal: Principal, body: unknown): Promise<Agent> {
  const agentId = ownAgentId(principal);
  const update = parseProfileUpdate(body);
  return deps.store.transact((tx) => {
    const agent = tx.get('agents', agentId);
    if (!agent) throw new DomainError('AGENT_NOT_FOUND');
    return tx.put('agents', { ...agent, ...update, updatedAt: deps.clock.now() });
  });
}

/**
 * `POST /api/agent/reset-api-key`: a new key in upstream's format replaces the old one in the same
 * transaction, so the new key authenticates at once and the old one is refused (401) at once.
 */
export async function resetOwnApiKey(deps: Deps, principal: Principal): Promise<{ agent: Agent; apiKey: string }> {
  const agentId = ownAgentId(principal);
  return deps.store.transact((tx) => {
    const agent = tx.get('agents', agentId);
    if (!agent) throw new DomainError('AGENT_NOT_FOUND');
    const apiKey = deps.ids.apiKey();
    const next = tx.put('agents', {
      ...agent, apiKeyHash: deps.secrets.hash(apiKey), apiKeyEnc: deps.secrets.encrypt(apiKey), updatedAt: deps.clock.now(),
    });
    return { agent: next, apiKey };
  });
}
