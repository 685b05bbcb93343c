// Request schemas of agents: admin setup, users and agents, own profile, public agent reads, wallet verification, the global leaderboard.
import { handlerChecked, type RouteDef } from '../../route.js';
import { AGENT_SORT_FIELDS } from '../../../domain/agents/manage.js';
import { bool, email, limit, nonEmpty, obj, offset, pagingQuery, sortParam, str, uuid, uuidParams, wallet } from '../shared/request.js';

const handle = { type: 'string', pattern: '^[a-z0-9_]{3,15}$' } as const;

export const setupBody = obj({
  username: nonEmpty, password: { type: 'string', minLength: 8 }, email,
}, ['username', 'password', 'email']);

// The wallet is checked by the domain after the schema, as upstream does (missing, then malformed).
export const registerUserBody = obj({
  walletAddress: handlerChecked(wallet, str), name: str, email, userImageUrl: str, userMetadata: { description: 'Any JSON value' },
  privyId: str, embeddedWalletAddress: wallet, agentName: { type: 'string', minLength: 1, maxLength: 100 },
  agentHandle: handle, agentDescription: str, agentImageUrl: str, agentMetadata: { description: 'Any JSON value' }, agentWalletAddress: str,
  agentEmail: email,
}, ['walletAddress']);

/** The owner of a new agent: its id or its wallet, exactly one (the domain checks which, with upstream's OWNER_REQUIRED). */
const owner = handlerChecked({
  description: 'The owning user, by id or by wallet address (exactly one)',
  oneOf: [
    { ...obj({ id: uuid }, ['id']), not: { required: ['walletAddress'] }, title: 'OwnerById' },
    { ...obj({ walletAddress: wallet }, ['walletAddress']), not: { required: ['id'] }, title: 'OwnerByWallet' },
  ],
}, obj({ id: uuid, walletAddress: wallet }));

// Upstream's zod texts: a missing object or name, a name over 100 characters. A missing `user` is
// the handler's (its schema is handler-checked), with the same text.
export const createAgentBody = {
  ...obj({
    user: owner,
    agent: {
      ...obj({
        name: { type: 'string', minLength: 1, maxLength: 100, 'x-reasons': { maxLength: 'name must be 100 characters or less' } },
        handle, email, walletAddress: str, description: str, imageUrl: str, metadata: { description: 'Any JSON value' },
      }, ['name']),
      'x-reasons': { required: 'expected string, received undefined' },
    },
  }, ['user', 'agent']),
  'x-reasons': { required: 'expected object, received undefined' },
};

export const updateAgentBody = obj({
  name: { type: 'string', minLength: 1, maxLength: 100 }, handle, description: str, imageUrl: str,
  email, metadata: { description: 'Any JSON value' }, isRewardsIneligible: bool, rewardsIneligibilityReason: str,
});

/** Agent competitions: an unknown field or a fourth part sorts nothing (an empty page), as upstream, so any text is valid. */
const competitionsSort = { type: 'string', default: '', description: 'Up to 3 comma-separated fields, `-` for descending (an unknown field gives an empty page)' } as const;

/**
 * `PUT /api/agent/profile`: documented here, checked in the domain (upstream's strict schema and
 * its messages: unknown keys, description format and length, URL format).
 */
const profileFields = obj({
  description: handlerChecked({ type: 'string', minLength: 1, description: 'New description (trimmed, at least 1 character)' }),
  imageUrl: handlerChecked({ type: 'string', format: 'uri', description: 'New image URL (any URL the WHATWG parser accepts)' }),
});
export const profileBody = handlerChecked({ ...profileFields, additionalProperties: false }, profileFields);

/** `GET /api/admin/agents`. */
export const listAgentsQuery = pagingQuery(50, AGENT_SORT_FIELDS, '-createdAt');

/** `GET /api/agents`. */
export const agentsQuery = obj({ filter: { type: 'string', maxLength: 100 }, sort: sortParam(AGENT_SORT_FIELDS, '', true), limit: limit(10), offset });

/** `{agentId}` of the public agent routes. */
export const agentParams = uuidParams('agentId');

/** `GET /api/agents/{agentId}/competitions`: `claimed` arrives as the string `true`/`false`. */
export const agentCompetitionsQuery = obj({
  status: { type: 'string', enum: ['pending', 'active', 'ending', 'ended'] }, claimed: bool, sort: competitionsSort, limit: limit(10), offset,
});

/** `GET /api/leaderboard`. */
export const globalLeaderboardQuery = obj({
  type: { type: 'string', enum: ['trading', 'perpetual_futures', 'spot_live_trading', 'sports_prediction'], default: 'trading' },
  arenaId: str, limit: limit(50), offset,
});

/** Agent detail: upstream's `Invalid Agent ID` for a malformed id. */
export const invalidAgentId: NonNullable<RouteDef['invalid']> = (where, reason) =>
  (reason === 'invalid UUID' ? 'Invalid Agent ID' : `Invalid request: ${where} (${reason})`);

/**
 * Agent competitions: upstream's three 400 families, each naming the parameter: `Invalid UUID`,
 * `Invalid filter page params: <status|claimed> (...)`, `Invalid pagination parameters: <param> (...)`.
 */
export const invalidAgentCompetitions: NonNullable<RouteDef['invalid']> = (where, reason) => {
  if (reason === 'invalid UUID') return 'Invalid UUID';
  if (where === 'status' || where === 'claimed') return `Invalid filter page params: ${where} (${reason})`;
  return `Invalid pagination parameters: ${where} (${reason})`;
};


/**
 * `POST /api/auth/verify`: documentation only (no constraint): whatever is sent, the domain checks it
 * and answers upstream's messages (`Message and signature are required`, ...).
 */
export const verifyBody = handlerChecked({
  type: 'object', description: 'The signed wallet-verification message and its EIP-191 signature',
  properties: {
    message: { type: 'string', minLength: 1, description: 'The five-line message (domain, purpose, timestamp, nonce) as signed' },
    signature: { type: 'string', pattern: '^(0x)?[0-9a-fA-F]{130}$', description: '65 bytes of hex, with or without 0x' },
  },
  required: ['message', 'signature'],
});
