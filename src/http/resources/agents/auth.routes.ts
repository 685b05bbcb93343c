// Wallet verification: a nonce for the calling agent, and the signed message that sets its wallet.
import { issueNonce, verifyWallet } from '../../../domain/agents/wallet-verification.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { verifyBody } from './request.js';
import { nonceResponses, verifyResponses } from './response.js';

// Both need the caller's own agent: an admin key passes the key check, then gets 401 `Agent authentication required`.
const base = { generation: 'current', tag: 'auth', auth: 'key', agentOnly: true } as const;

/** `/api/auth/*` (agent key; an admin key is 401 `Agent authentication required`). */
export const AUTH_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'auth.nonce', method: 'GET', path: '/api/auth/agent/nonce', summary: 'A wallet-verification nonce (valid 10 minutes)',
    schemas: { responses: nonceResponses },
    handler: async ({ world, principal }) => ({ body: { success: true, nonce: (await issueNonce(world.deps, principal)).nonce } }),
  }),
  route({
    ...base, id: 'auth.verify', method: 'POST', path: '/api/auth/verify', summary: "Verify a signed message and set the agent's wallet",
    // The body schema only documents: whatever is sent, the domain answers upstream's `Message and signature are required`.
    schemas: { responses: verifyResponses, body: verifyBody },
    handler: async ({ world, principal, body }) => {
      const { walletAddress } = await verifyWallet(world.deps, principal, body);
      return { body: { success: true, walletAddress, message: 'Wallet verified successfully' } };
    },
  }),
];
