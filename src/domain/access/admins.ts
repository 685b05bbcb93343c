// Admin bootstrap: the one-time public setup that creates the first admin and its API key.
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Admin } from '../model.js';

/** Input of {@link setupAdmin}; `apiKey` lets a world or the CLI choose the key. */
export interface SetupAdminInput { username: string; password: string; email: string; apiKey?: string }

/** Creates the first admin; 403 once any admin exists. Returns the row and the plaintext key. */
export async function setupAdmin(deps: Deps, input: SetupAdminInput): Promise<{ admin: Admin; apiKey: string }> {
  return deps.store.transact((tx) => {
    if ((tx.count('admins')) > 0) throw new DomainError('ADMIN_EXISTS');
    const now = deps.clock.now();
    const apiKey = input.apiKey ?? deps.ids.apiKey();
    const salt = deps.ids.hex(16);
    const admin: Admin = {
      id: deps.ids.uuid(),
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
