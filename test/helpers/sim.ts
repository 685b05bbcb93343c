// Test helper: the demo world served with a fixed admin key, for the simulation control API tests.
import { readFileSync } from 'node:fs';
import type { WorldFixture } from '../../src/world/fixture.js';
import type { ServerOptions } from '../../src/http/adapters/server.js';
import { ADMIN_KEY, startTestServer, type TestServer } from './server.js';

/** The demo world: 3 agents, an active competition (ends 06-09) and a pending one (starts 06-03). */
export const DEMO = JSON.parse(readFileSync(new URL('../../fixtures/worlds/demo.json', import.meta.url), 'utf8')) as WorldFixture;

/** A demo-world server with the fixed admin key (world options on top). */
export function startDemo(extra: Record<string, unknown> = {}, server: ServerOptions = {}): Promise<TestServer> {
  return startTestServer({ fixture: DEMO, admin: { apiKey: ADMIN_KEY }, ...extra }, server);
}
