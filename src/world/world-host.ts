// The worlds of one server: the default world and the ones created through /api/sim/worlds, isolated from each other, each persisted in its own directory with --state.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StateLogger } from '../adapters/file/state-dir.js';
import type { WorldOptions } from './config.js';
import { findAdminByKey, parseBearer } from '../domain/access/auth.js';
import { DomainError } from '../domain/errors.js';
import { fixtureDocument, type WorldFixture } from './fixture.js';
import { WORLD_ID, type CreatedWorld, type CreateWorldInput, type WorldInfo, type WorldsControl } from '../http/worlds.js';
import { StatePersistence } from './persistence.js';
import { createWorld, type World } from './world.js';

/** Worlds a server holds besides the default one unless told otherwise (`compsim serve --max-worlds`). */
export const DEFAULT_MAX_WORLDS = 64;

/** The subdirectory of a `--state` directory holding the created worlds, one directory each. */
export const WORLDS_SUBDIR = 'worlds';

/** What a created world keeps in its directory besides its state: its idle TTL. */
const HOST_FILE = 'world.json';

/** Options of {@link WorldHost.open}. */
export interface WorldHostOptions {
  /** Most worlds besides the default one (default {@link DEFAULT_MAX_WORLDS}). */
  maxWorlds?: number;
  /** The server key (format of an API key); default: a random one. */
  serverKey?: string;
  /** Options every created world is built with under its own (clock, wallet domain, inference signers). */
  base?: WorldOptions;
  /** Wall clock (ms) idle TTLs are measured on; tests inject their own. */
  now?: () => number;
  /** Admin keys of created worlds; default: random. */
  newKey?: () => string;
  /** Persist created worlds under `<dir>/worlds/<id>` and bring them back from there. */
  state?: { dir: string; log?: StateLogger; compactBytes?: number };
}

/** A created world and what the host knows about it. */
interface Held {
  id: string;
  world: World;
  persistence: StatePersistence | undefined;
  idleTtlMs: number | null;
  lastUsed: number;
  /** Requests handed this world and not answered yet. */
  inFlight: number;
  /** Called when `inFlight` drops to 0 (a deletion waiting to close the world's state). */
  idle?: () => void;
}

const randomKey = () => `${randomBytes(8).toString('hex')}_${randomBytes(8).toString('hex')}`;
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const idNumber = (id: string) => Number(/^w(\d+)$/.exec(id)?.[1] ?? 0);

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Holds the default world and any number of created ones (`w1`, `w2`, ...). Each is a complete
 * World of its own (store, clock, ids, prices, faults, rate-limit windows, journal, caches), so
 * nothing one world does is visible in another. Implements the `WorldsControl` the worlds API uses.
 */
export class WorldHost implements WorldsControl {
  /** The key that manages worlds (besides the default world's admin keys). */
  readonly serverKey: string;
  readonly maxWorlds: number;
  private readonly held = new Map<string, Held>();
  /** Deleted worlds still answering requests. */
  private readonly draining = new Map<string, Held>();
  /** Closing and removal of deleted worlds that wait for their last request. */
  private readonly pending = new Set<Promise<void>>();
  /** Worlds being built (they count against the limit). */
  private building = 0;
  private nextId = 1;
  private readonly now: () => number;
  private readonly newKey: () => string;

  private constructor(readonly defaultWorld: World, private readonly options: WorldHostOptions) {
    this.serverKey = options.serverKey ?? randomKey();
    this.maxWorlds = options.maxWorlds ?? DEFAULT_MAX_WORLDS;
    this.now = options.now ?? (() => Date.now());
    this.newKey = options.newKey ?? randomKey;
    defaultWorld.worlds = this;
  }

  /** A host around `defaultWorld`; with `state`, the worlds persisted there come back first. */
  static async open(defaultWorld: World, options: WorldHostOptions = {}): Promise<WorldHost> {
    const host = new WorldHost(defaultWorld, options);
    if (options.state) await host.recover(options.state.dir);
    return host;
  }

  /** Number of created worlds held now. */
  get size(): number {
    return this.held.size;
  }

  async authorize(authorization: string | undefined, world?: string): Promise<void> {
    const key = parseBearer(authorization);
    if (key === null) throw new DomainError('ADMIN_KEY_MISSING');
    if (sameKey(key, this.serverKey)) return;
    if (await isActiveAdmin(this.defaultWorld, key)) return;
    const own = world === undefined ? undefined : this.held.get(world);
    if (own && await isActiveAdmin(own.world, key)) return;
    throw new DomainError('SIM_WORLDS_KEY_INVALID');
  }

  async create(input: CreateWorldInput): Promise<CreatedWorld> {
    this.dropExpired();
    if (this.held.size + this.building >= this.maxWorlds) throw new DomainError('SIM_WORLD_LIMIT', { max: this.maxWorlds });
    const id = `w${this.nextId++}`;
    const adminKey = this.newKey();
    const fixture = fixtureOf(input);
    const options: WorldOptions = {
      ...this.options.base,
      ...(input.options as WorldOptions | undefined),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.startTime !== undefined ? { startTime: input.startTime } : {}),
      ...(fixture ? { fixture } : {}),
      admin: { ...fixture?.admin, apiKey: adminKey },
    };
    const idleTtlMs = input.idleTtlSeconds === undefined ? null : input.idleTtlSeconds * 1000;
    this.building += 1;
    let persistence: StatePersistence | undefined;
    const dir = this.options.state ? join(this.options.state.dir, WORLDS_SUBDIR, id) : undefined;
    try {
      if (dir) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, HOST_FILE), `${JSON.stringify({ id, idleTtlSeconds: input.idleTtlSeconds ?? null })}\n`);
        persistence = await this.openState(dir);
      }
      let world: World;
      try {
        world = await createWorld(options, persistence);
      } catch (err) {
        throw new DomainError('SIM_INVALID', { where: 'options', reason: message(err) });
      }
      world.worlds = this;
      this.held.set(id, { id, world, persistence, idleTtlMs, lastUsed: this.now(), inFlight: 0 });
      const { agents, competitions } = world.fixture;
      return { ...this.info(id, world, idleTtlMs), adminKey, agents, competitions };
    } catch (err) {
      await persistence?.close().catch(() => undefined);
      if (dir) rmSync(dir, { recursive: true, force: true });
      throw err;
    } finally {
      this.building -= 1;
    }
  }

  list(): WorldInfo[] {
    this.dropExpired();
    return [this.info('default', this.defaultWorld, null), ...[...this.held.values()].map((h) => this.info(h.id, h.world, h.idleTtlMs))];
  }

  async remove(id: string): Promise<void> {
    if (id === 'default') throw new DomainError('SIM_WORLD_DEFAULT');
    const h = this.held.get(id);
    if (!h) throw new DomainError('SIM_WORLD_NOT_FOUND', { id });
    await this.drop(h);
  }

  world(id: string): World | undefined {
    if (id === 'default') return this.defaultWorld;
    const h = this.held.get(id);
    if (!h) return undefined;
    const now = this.now();
    if (expired(h, now)) {
      void this.drop(h);
      return undefined;
    }
    h.lastUsed = now;
    h.inFlight += 1;
    return h.world;
  }

  release(id: string): void {
    const h = this.held.get(id) ?? this.draining.get(id);
    if (!h || h.inFlight === 0) return;
    h.inFlight -= 1;
    if (h.inFlight === 0) h.idle?.();
  }

  /** Drops every world idle for longer than its TTL (the server calls this now and then; lookups check too). */
  async sweep(): Promise<string[]> {
    const now = this.now();
    const gone = [...this.held.values()].filter((h) => expired(h, now));
    await Promise.all(gone.map((h) => this.drop(h)));
    return gone.map((h) => h.id);
  }

  /** Runs due jobs in every world (the system clock's scheduler tick). */
  async tick(): Promise<void> {
    await this.defaultWorld.advance(0);
    for (const h of [...this.held.values()]) await h.world.advance(0);
  }

  /** Releases the created worlds' state directories (the default world's belongs to the caller). */
  async close(): Promise<void> {
    await Promise.all([...this.held.values(), ...this.draining.values()].map((h) => h.persistence?.close()));
  }

  /** Resolves once every deleted world that was still answering requests has closed and removed its state. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private info(id: string, world: World, idleTtlMs: number | null): WorldInfo {
    return {
      id, basePath: id === 'default' ? '' : `/worlds/${id}`, seed: world.config.seed, now: world.deps.clock.now(),
      idleTtlSeconds: idleTtlMs === null ? null : idleTtlMs / 1000,
    };
  }

  private dropExpired(): void {
    const now = this.now();
    for (const h of [...this.held.values()]) if (expired(h, now)) void this.drop(h);
  }

  /**
   * Forgets a world at once (later requests get the 404); once the requests it is answering are
   * done, closes and deletes its directory.
   */
  private async drop(h: Held): Promise<void> {
    if (this.held.get(h.id) !== h) return;
    this.held.delete(h.id);
    let trash: string | undefined;
    if (h.persistence && this.options.state) {
      // Renamed at once (open files keep working), so from here a restart never brings the world
      // back, and a crash while deleting never leaves a half-deleted world to recover.
      const parent = join(this.options.state.dir, WORLDS_SUBDIR);
      trash = join(parent, `.deleted-${h.id}-${this.now()}`);
      renameSync(join(parent, h.id), trash);
    }
    const finish = async () => {
      await h.persistence?.close();
      if (trash) rmSync(trash, { recursive: true, force: true });
    };
    if (h.inFlight === 0) return finish();
    // Requests under way (the deleting one among them, when a world deletes itself) finish first.
    this.draining.set(h.id, h);
    const done = new Promise<void>((resolve) => (h.idle = resolve)).then(() => {
      this.draining.delete(h.id);
      return finish();
    });
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done)).catch(() => undefined);
    return undefined;
  }

  private openState(dir: string): Promise<StatePersistence> {
    const s = this.options.state!;
    return StatePersistence.open(dir, { ...(s.log ? { log: s.log } : {}), ...(s.compactBytes !== undefined ? { compactBytes: s.compactBytes } : {}) });
  }

  /** Brings back every world of `<dir>/worlds` (in id order); leftovers of deletions and creations that never completed are removed. */
  private async recover(dir: string): Promise<void> {
    const parent = join(dir, WORLDS_SUBDIR);
    if (!existsSync(parent)) return;
    const names = readdirSync(parent).sort((a, b) => idNumber(a) - idNumber(b) || a.localeCompare(b));
    for (const name of names) {
      const path = join(parent, name);
      if (name.startsWith('.deleted-')) {
        rmSync(path, { recursive: true, force: true });
        continue;
      }
      if (!WORLD_ID.test(name) || !existsSync(join(path, HOST_FILE))) {
        if (WORLD_ID.test(name)) rmSync(path, { recursive: true, force: true }); // created, never written
        continue;
      }
      const meta = JSON.parse(readFileSync(join(path, HOST_FILE), 'utf8')) as { idleTtlSeconds?: number | null };
      const persistence = await this.openState(path);
      const recorded = persistence.recoveredOptions();
      if (!recorded) {
        // The world was never durable, so its creation was never answered.
        await persistence.close();
        rmSync(path, { recursive: true, force: true });
        continue;
      }
      const world = await createWorld({ ...recorded, ...this.options.base }, persistence);
      world.worlds = this;
      const ttl = typeof meta.idleTtlSeconds === 'number' ? meta.idleTtlSeconds * 1000 : null;
      this.held.set(name, { id: name, world, persistence, idleTtlMs: ttl, lastUsed: this.now(), inFlight: 0 });
      this.nextId = Math.max(this.nextId, idNumber(name) + 1);
    }
  }
}

/** The fixture a creation names (a document, or a bundled world's name such as `demo`); a 400 naming the field for an unknown name. */
function fixtureOf(input: CreateWorldInput): WorldFixture | undefined {
  const [where, given] = input.fixture !== undefined ? ['fixture', input.fixture] : ['options.fixture', input.options?.fixture];
  if (given === undefined) return undefined;
  try {
    return fixtureDocument(given as WorldFixture | string);
  } catch (err) {
    throw new DomainError('SIM_INVALID', { where, reason: message(err) });
  }
}

function expired(h: Held, now: number): boolean {
  return h.idleTtlMs !== null && now - h.lastUsed >= h.idleTtlMs;
}

async function isActiveAdmin(world: World, key: string): Promise<boolean> {
  const { deps } = world;
  return deps.store.read((tx) => findAdminByKey(deps, tx, key)?.status === 'active');
}
