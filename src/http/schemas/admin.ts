// Schemas of admin setup, users and agents.
import { bool, nonEmpty, obj, str, uuid, wallet } from './common.js';

const handle = { type: 'string', pattern: '^[a-z0-9_]{3,15}$' };

export const setupBody = obj({
  username: nonEmpty, password: { type: 'string', minLength: 8 }, email: { type: 'string', format: 'email' },
}, ['username', 'password', 'email']);

export const registerUserBody = obj({
  walletAddress: wallet, name: str, email: { type: 'string', format: 'email' }, userImageUrl: str, userMetadata: {},
  privyId: str, embeddedWalletAddress: wallet, agentName: { type: 'string', minLength: 1, maxLength: 100 },
  agentHandle: handle, agentDescription: str, agentImageUrl: str, agentMetadata: {}, agentWalletAddress: str,
  agentEmail: { type: 'string', format: 'email' },
}, ['walletAddress']);

export const createAgentBody = obj({
  user: obj({ id: uuid, walletAddress: wallet }),
  agent: obj({
    name: { type: 'string', minLength: 1, maxLength: 100 }, handle, email: { type: 'string', format: 'email' },
    walletAddress: str, description: str, imageUrl: str, metadata: {},
  }, ['name']),
}, ['user', 'agent']);

export const updateAgentBody = obj({
  name: { type: 'string', minLength: 1, maxLength: 100 }, handle, description: str, imageUrl: str,
  email: { type: 'string', format: 'email' }, metadata: {}, isRewardsIneligible: bool, rewardsIneligibilityReason: str,
});

export const reasonBody = obj({ reason: nonEmpty }, ['reason']);
