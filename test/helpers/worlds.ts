// Test helper: a server holding many worlds (a WorldHost behind createServer), with fixed keys and a hand-moved wall clock for idle TTLs.
import { ADMIN_KEY, startTestServer, type TestServer } from './server.js';
import { WorldHost, type WorldHostOptions } from '../../src/world/world-host.js';
import type { WorldOptions } from '../../src/world/config.js';

/** Server key of test hosts. */
export const SERVER_KEY = '5e55e55e55e55e55_5e55e55e55e55e55';

/** A test server with its WorldHost and the wall clock the host reads (move `clock.ms` by hand). */
export interface HostServer extends TestServer { host: WorldHost; clock: { ms: number } }

/** Admin keys of created worlds: `00000000000000a1_...` counting up (fixed, so tests can name them). */
export function countingKeys(): () => string {
  let n = 0;
  return () => {
    n += 1;
    const hex = n.toString(16).padStart(16, '0');
    return `${hex}_${hex}`;
  };
}

/** Starts a default world (admin {@link ADMIN_KEY}) with a host around it. */
export async function startHostServer(host: WorldHostOptions = {}, world: WorldOptions = {}): Promise<HostServer> {
  const clock = { ms: 1_000_000 };
  let held: WorldHost | undefined;
  const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, ...world }, async (w) => {
    held = await WorldHost.open(w, { serverKey: SERVER_KEY, newKey: countingKeys(), now: () => clock.ms, ...host });
    return { worlds: held };
  });
  const close = s.close;
  return Object.assign(s, { host: held!, clock, close: async () => { await close(); await held!.close(); } });
}
