// Schemas of admin setup, users and agents.
import { bool, nonEmpty, obj, str, uuid, wallet } from './common.js';

const handle = { type: 'string', pattern: '^[a-z0-9_]{3,15}$' };

export const setupBody = obj({
  username: nonEmpty, password: { type: 'string', minLength: 8 }, email: { type: 'string', format: 'email' },
}, ['username', 'password', 'email']);

// The wallet is checked by the domain after the schema, as upstream does (missing, then malformed).
export const registerUserBody = obj({
  walletAddress: str, name: str, email: { type: 'string', format: 'email' }, userImageUrl: str, userMetadata: {},
  privyId: str, embeddedWalletAddress: wallet, agentName: { type: 'string', minLength: 1, maxLength: 100 },
  agentHandle: handle, agentDescription: str, agentImageUrl: str, agentMetadata: {}, agentWalletAddress: str,
  agentEmail: { type: 'string', format: 'email' },
});

// Upstream's zod texts: a missing object or name, a name over 100 characters. Exactly one of
// `user.id` and `user.walletAddress` is checked by the domain (OWNER_REQUIRED).
export const createAgentBody = {
  ...obj({
    user: obj({ id: uuid, walletAddress: wallet }),
    agent: {
      ...obj({
        name: { type: 'string', minLength: 1, maxLength: 100, 'x-reasons': { maxLength: 'name must be 100 characters or less' } },
        handle, email: { type: 'string', format: 'email' }, walletAddress: str, description: str, imageUrl: str, metadata: {},
      }, ['name']),
      'x-reasons': { required: 'expected string, received undefined' },
    },
  }, ['user', 'agent']),
  'x-reasons': { required: 'expected object, received undefined' },
};

export const updateAgentBody = obj({
  name: { type: 'string', minLength: 1, maxLength: 100 }, handle, description: str, imageUrl: str,
  email: { type: 'string', format: 'email' }, metadata: {}, isRewardsIneligible: bool, rewardsIneligibilityReason: str,
});

export const reasonBody = obj({ reason: nonEmpty }, ['reason']);
