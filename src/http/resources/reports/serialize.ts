// Wire shapes of the admin reads: users as upstream's toApiUser (nulls omitted) and agents without key or email.
import type { Agent, User } from '../../../domain/model.js';
import type { PerformanceRow } from '../../../domain/competitions/admin-reports.js';
import { iso } from '../shared/time.js';

const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** A user as `GET /api/admin/users` and the search list it: optional fields absent when null. */
export function apiListedUser(u: User) {
  return {
    id: u.id, walletAddress: u.walletAddress,
    ...defined({ embeddedWalletAddress: u.embeddedWalletAddress, name: u.name, email: u.email }),
    isSubscribed: u.isSubscribed, ...defined({ privyId: u.privyId, imageUrl: u.imageUrl, metadata: u.metadata }),
    status: u.status, createdAt: iso(u.createdAt), updatedAt: iso(u.updatedAt), ...defined({ lastLoginAt: iso(u.lastLoginAt) }),
  };
}

/** An agent as the search lists it: no key, no email; `isVerified` = has a wallet. */
export function apiSearchAgent(a: Agent) {
  return {
    id: a.id, ownerId: a.ownerId, name: a.name, handle: a.handle,
    ...defined({ walletAddress: a.walletAddress, description: a.description, imageUrl: a.imageUrl, metadata: a.metadata }),
    status: a.status, createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt), isVerified: a.walletAddress !== null,
  };
}

/** A performance-report row (fields as the domain computes them). */
export function apiPerformanceRow(r: PerformanceRow) {
  return { ...r };
}
