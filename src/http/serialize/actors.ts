// Wire shapes of admins, users and agents (upstream field names; no key material except where upstream returns it).
import type { Admin, Agent, User } from '../../domain/model.js';
import { iso } from './time.js';

/** Setup response admin object. */
export function apiAdmin(a: Admin, apiKey: string) {
  return { id: a.id, username: a.username, email: a.email, createdAt: iso(a.createdAt), apiKey };
}

/** Upstream's toApiUser. */
export function apiUser(u: User) {
  return {
    id: u.id, walletAddress: u.walletAddress, embeddedWalletAddress: u.embeddedWalletAddress, privyId: u.privyId,
    name: u.name, email: u.email, isSubscribed: u.isSubscribed, imageUrl: u.imageUrl, metadata: u.metadata,
    status: u.status, createdAt: iso(u.createdAt), updatedAt: iso(u.updatedAt), lastLoginAt: iso(u.lastLoginAt),
  };
}

/** Admin view of an agent (upstream's formattedAgent); `apiKey` only right after creation. */
export function apiAgent(a: Agent, apiKey?: string) {
  return {
    id: a.id, ownerId: a.ownerId, walletAddress: a.walletAddress, name: a.name, handle: a.handle, email: a.email,
    description: a.description, imageUrl: a.imageUrl, ...(apiKey !== undefined ? { apiKey } : {}), metadata: a.metadata,
    status: a.status, deactivationReason: a.deactivationReason, deactivationDate: iso(a.deactivationDate),
    isRewardsIneligible: a.isRewardsIneligible, rewardsIneligibilityReason: a.rewardsIneligibilityReason,
    isVerified: a.walletAddress !== null, createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt),
  };
}

/** The short agent object of "already (in)active" errors. */
export function agentBrief(a: Agent) {
  return { id: a.id, name: a.name, handle: a.handle, status: a.status };
}
