// World fixtures: a declarative JSON world (admin, users, agents, competitions) loaded through the real domain functions.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupAdmin, type AdminIdentity } from '../domain/access/admins.js';
import { createAgentForOwner } from '../domain/agents/manage.js';
import { createCompetition, type CompetitionInput } from '../domain/competitions/create.js';
import type { Deps } from '../domain/deps.js';
import { endCompetition, startCompetition } from '../domain/competitions/lifecycle.js';
import { addAgentToCompetition } from '../domain/competitions/admin-participants.js';
import { registerUser } from '../domain/agents/users.js';
import type { FeedDef } from '../adapters/prices/feeds.js';

/** One agent of a fixture user. */
export interface FixtureAgent { name: string; handle?: string; walletAddress?: string; description?: string; email?: string }

/** One competition of a fixture; dates are ISO strings, participants are agent handles. */
export interface FixtureCompetition extends Omit<CompetitionInput, (typeof FIXTURE_DATES)[number]> {
  name: string;
  status?: 'pending' | 'active' | 'ended';
  participants?: string[];
  startDate?: string; endDate?: string; joinStartDate?: string; joinEndDate?: string;
  votingStartDate?: string; votingEndDate?: string;
}

/** Date fields a fixture competition may give as ISO strings. */
const FIXTURE_DATES = ['startDate', 'endDate', 'joinStartDate', 'joinEndDate', 'votingStartDate', 'votingEndDate'] as const;

/** The fixture document (fixtures/worlds/*.json). */
export interface WorldFixture {
  seed?: number | string;
  startTime?: string | number;
  prices?: FeedDef;
  /** Portfolio snapshot interval in virtual ms (default 5 minutes). */
  snapshotIntervalMs?: number;
  /** Slippage model of trades (default upstream). */
  slippage?: 'upstream' | 'expected' | 'none';
  admin?: { username?: string; email?: string; password?: string; apiKey?: string };
  users?: { walletAddress: string; name?: string; email?: string; agents?: FixtureAgent[] }[];
  competitions?: FixtureCompetition[];
}

/** What loading a fixture produced (for the CLI banner). */
export interface LoadedFixture {
  agents: { id: string; name: string; handle: string; apiKey: string }[];
  competitions: { id: string; name: string; status: string }[];
}

function date(v: string | undefined, where: string): number | undefined {
  if (v === undefined) return undefined;
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) throw new Error(`fixture: ${where} is not an ISO date: ${v}`);
  return ms;
}

/** Loads users, agents and competitions (the admin is created by the world). */
export async function loadFixture(deps: Deps, fx: WorldFixture): Promise<LoadedFixture> {
  const out: LoadedFixture = { agents: [], competitions: [] };
  const byHandle = new Map<string, string>();
  for (const u of fx.users ?? []) {
    const { user } = await registerUser(deps, { walletAddress: u.walletAddress, ...(u.name ? { name: u.name } : {}), ...(u.email ? { email: u.email } : {}) });
    for (const a of u.agents ?? []) {
      const { agent, apiKey } = await createAgentForOwner(deps, { id: user.id }, a);
      byHandle.set(agent.handle, agent.id);
      out.agents.push({ id: agent.id, name: agent.name, handle: agent.handle, apiKey });
    }
  }
  for (const [i, c] of (fx.competitions ?? []).entries()) {
    const { status = 'pending', participants = [], ...rest } = c;
    const where = `competitions[${i}]`;
    const input = { ...rest } as Record<string, unknown>;
    for (const k of FIXTURE_DATES) {
      const v = date(c[k], `${where}.${k}`);
      if (v === undefined) delete input[k];
      else input[k] = v;
    }
    let comp = await createCompetition(deps, input as CompetitionInput);
    for (const h of participants) {
      const id = byHandle.get(h);
      if (!id) throw new Error(`fixture: ${where}.participants names unknown agent handle '${h}'`);
      await addAgentToCompetition(deps, comp.id, id);
    }
    if (status === 'active' || status === 'ended') comp = (await startCompetition(deps, { competitionId: comp.id })).competition;
    if (status === 'ended') comp = (await endCompetition(deps, comp.id)).competition;
    out.competitions.push({ id: comp.id, name: comp.name, status: comp.status });
  }
  return out;
}

/**
 * Creates the fixture's or the options' admin from the identity the world drew for it (a
 * configured `apiKey` replaces the drawn key); returns its key.
 */
export async function createConfiguredAdmin(deps: Deps, a: NonNullable<WorldFixture['admin']>, identity: AdminIdentity): Promise<string> {
  const { apiKey } = await setupAdmin(deps, {
    username: a.username ?? 'admin', email: a.email ?? 'admin@compsim.local', password: a.password ?? 'compsim-admin',
    identity: a.apiKey ? { ...identity, apiKey: a.apiKey } : identity,
  });
  return apiKey;
}

/** The world fixtures shipped with the package (`fixtures/worlds/<name>.json`, beside `src` and `dist`). */
export const BUNDLED_WORLDS_DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'worlds');

/** What a bundled world's name looks like (a file name without `.json`; never a path). */
const BUNDLED_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Names of the bundled worlds (`demo`, ...), sorted. */
export function bundledWorlds(): string[] {
  return readdirSync(BUNDLED_WORLDS_DIR).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)).sort();
}

/** Whether `name` names a bundled world. */
export function isBundledWorld(name: string): boolean {
  return BUNDLED_NAME.test(name) && existsSync(join(BUNDLED_WORLDS_DIR, `${name}.json`));
}

/** A bundled world's fixture by name (`demo`); throws an Error listing the bundled names for any other text. */
export function bundledFixture(name: string): WorldFixture {
  if (!isBundledWorld(name)) throw new Error(`unknown bundled world '${name.slice(0, 64)}'; bundled worlds: ${bundledWorlds().join(', ')}`);
  return JSON.parse(readFileSync(join(BUNDLED_WORLDS_DIR, `${name}.json`), 'utf8')) as WorldFixture;
}

/** A fixture given as a document or as a bundled world's name, as a document. */
export function fixtureDocument(fixture: WorldFixture | string): WorldFixture {
  return typeof fixture === 'string' ? bundledFixture(fixture) : fixture;
}
