// Admin bootstrap: the one-time public setup that creates the first admin and its API key.
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Admin } from '../model.js';
import type { Ids } from '../../ports/ids.js';

/** What an admin's creation draws from the seeded source: its key, password salt and id. */
export interface AdminIdentity { apiKey: string; salt: string; id: string }

/** Draws an admin's key, salt and id, in this order (the order every seeded world was built with). */
export function drawAdminIdentity(ids: Ids): AdminIdentity {
  const apiKey = ids.apiKey();
  const salt = ids.hex(16);
  return { apiKey, salt, id: ids.uuid() };
}

/**
 * Input of {@link setupAdmin}. `identity` is what a world drew for its configured admin ahead of
 * time (with the configured key in place of the drawn one); without it the setup draws its own.
 */
export interface SetupAdminInput { username: string; password: string; email: string; identity?: AdminIdentity }

/** Creates the first admin; 403 once any admin exists. Returns the row and the plaintext key. */
export async function setupAdmin(deps: Deps, input: SetupAdminInput): Promise<{ admin: Admin; apiKey: string }> {
  return deps.store.transact((tx) => {
    if ((tx.count('admins')) > 0) throw new DomainError('ADMIN_EXISTS');
    const now = deps.clock.now();
    const { apiKey, salt, id } = input.identity ?? drawAdminIdentity(deps.ids);
    const admin: Admin = {
      id,
      username: input.username.toLowerCase(),
      email: input.email.toLowerCase(),
      passwordHash: `${salt}:${deps.secrets.hash(`${salt}:${input.password}`)}`,
      apiKeyHash: deps.secrets.hash(apiKey),
      apiKeyEnc: deps.secrets.encrypt(apiKey),
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
    tx.insert('admins', admin);
    return { admin, apiKey };
  });
}
