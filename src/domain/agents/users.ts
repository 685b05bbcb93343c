// User registration by an admin, optionally with the user's first agent.
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { createAgentTx, WALLET_RE, type AgentInput } from './manage.js';
import type { Agent, User } from '../model.js';
import { versionRule } from '../versions.js';

/** Body of `POST /api/admin/users`. */
export interface RegisterUserInput {
  walletAddress?: string; name?: string; email?: string; userImageUrl?: string; userMetadata?: unknown;
  privyId?: string; embeddedWalletAddress?: string;
  agentName?: string; agentHandle?: string; agentDescription?: string; agentImageUrl?: string;
  agentMetadata?: unknown; agentWalletAddress?: string; agentEmail?: string;
}

/** Result: the user, and either the agent with its key or the reason the agent was not created. */
export interface RegisterUserResult { user: User; agent?: Agent; apiKey?: string; agentError?: string }

/**
 * The October-2025 upsert of an existing user on email: its own values are kept (wallet, name,
 * status, metadata, createdAt), empty ones are filled from the request, `updatedAt` and
 * `lastLoginAt` move to now (upstream: `ON CONFLICT (email) DO UPDATE` with COALESCE and GREATEST).
 */
function upserted(u: User, input: RegisterUserInput, now: number): User {
  return {
    ...u,
    embeddedWalletAddress: u.embeddedWalletAddress ?? input.embeddedWalletAddress?.toLowerCase() ?? null,
    privyId: u.privyId ?? input.privyId ?? null, name: u.name ?? input.name ?? null,
    imageUrl: u.imageUrl ?? input.userImageUrl ?? null, metadata: u.metadata ?? input.userMetadata ?? null,
    updatedAt: Math.max(u.updatedAt, now), lastLoginAt: Math.max(u.lastLoginAt ?? now, now),
  };
}

/**
 * Creates the user, then (in a second transaction) the first agent. It joins no competition. A
 * repeated wallet, else a repeated email, is the 409 (emails compare case-sensitively, as
 * upstream's unique column does); under `2025-10` a repeated email is instead the existing user,
 * updated ({@link upserted}), whatever the wallet (the email conflict is the one upstream's insert
 * resolves). A failing agent does not undo the user: upstream answers 201 with `agentError`.
 */
export async function registerUser(deps: Deps, input: RegisterUserInput): Promise<RegisterUserResult> {
  if (!input.walletAddress) throw new DomainError('USER_WALLET_REQUIRED');
  if (!WALLET_RE.test(input.walletAddress)) throw new DomainError('BAD_WALLET');
  const wallet = input.walletAddress.toLowerCase();
  const user = await deps.store.transact((tx) => {
    const sameEmail = input.email === undefined ? undefined : tx.find('users', 'email', input.email.toLowerCase()).find((u) => u.email === input.email);
    if (sameEmail && versionRule(deps, 'adminUserEmailConflict') === 'upsert') return tx.put('users', upserted(sameEmail, input, deps.clock.now()));
    if ((tx.count('users', 'wallet', wallet)) > 0) throw new DomainError('USER_WALLET_EXISTS');
    if (sameEmail) throw new DomainError('USER_EMAIL_EXISTS');
    const now = deps.clock.now();
    const row: User = {
      id: deps.ids.uuid(), walletAddress: wallet, embeddedWalletAddress: input.embeddedWalletAddress?.toLowerCase() ?? null,
      privyId: input.privyId ?? null, name: input.name ?? null, email: input.email ?? null, isSubscribed: false,
      imageUrl: input.userImageUrl ?? null, metadata: input.userMetadata ?? null, status: 'active',
      createdAt: now, updatedAt: now, lastLoginAt: null,
    };
    return tx.insert('users', row);
  });
  if (input.agentName === undefined) return { user };
  const agentInput: AgentInput = { name: input.agentName };
  if (input.agentHandle !== undefined) agentInput.handle = input.agentHandle;
  if (input.agentDescription !== undefined) agentInput.description = input.agentDescription;
  if (input.agentImageUrl !== undefined) agentInput.imageUrl = input.agentImageUrl;
  if (input.agentMetadata !== undefined) agentInput.metadata = input.agentMetadata;
  if (input.agentWalletAddress !== undefined) agentInput.walletAddress = input.agentWalletAddress;
  if (input.agentEmail !== undefined) agentInput.email = input.agentEmail;
  try {
    const { agent, apiKey } = await deps.store.transact((tx) => createAgentTx(deps, tx, user, agentInput));
    return { user, agent, apiKey };
  } catch (err) {
    if (err instanceof DomainError) return { user, agentError: err.message };
    throw err;
  }
}
