// The worlds of one server: the default world and the ones created through /api/sim/worlds, isolated from each other (a failing or damaged one stays alone), each persisted in its own directory with --state.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StateLogger } from '../adapters/file/state-dir.js';
import { findAdminByKey, parseBearer } from '../domain/access/auth.js';
import { DomainError } from '../domain/errors.js';
import type { WorldFixture } from './fixture.js';
import type { CreatedWorld, CreateWorldInput, WorldInfo, WorldsControl } from '../http/worlds.js';
import { resolveConfig, type ResolvedWorldOptions, type WorldOptions } from './config.js';
import { OptionError } from './options-check.js';
import { StatePersistence } from './persistence.js';
import { optionsFailure } from './sim-control.js';
import { createWorld, storedProblem, withFixtureDocument, type World } from './world.js';
import { beginCreation, completeCreation, errorMessage, idOrder, keyHash, moveAside, saveNextId, WORLDS_SUBDIR, type WorldFile } from './world-dirs.js';
import { recoverWorlds, type DamagedWorld } from './world-recovery.js';

/** Worlds a server holds besides the default one unless told otherwise (`compsim serve --max-worlds`). */
export const DEFAULT_MAX_WORLDS = 64;

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
  /** Where the failures of single worlds go (a damaged world at start, a deletion that could not finish); default: `state.log`. */
  log?: StateLogger;
}

/** A created world and what the host knows about it. */
interface Held {
  id: string;
  world: World;
  persistence: StatePersistence | undefined;
  idleTtlMs: number | null;
  /** The admin key the world was created with (it may always delete its world), when known. */
  adminKey: string | null;
  lastUsed: number;
  /** Requests handed this world and not answered yet: the world counts as used until the last one ends. */
  inFlight: number;
  /** Called when `inFlight` drops to 0 (a deletion waiting to close the world's state). */
  idle?: () => void;
}

/** Ids in creation order (`w2` before `w10`), named worlds last. */
const byCreation = idOrder('last');

const SILENT: StateLogger = { info: () => undefined, warn: () => undefined };
const randomKey = () => `${randomBytes(8).toString('hex')}_${randomBytes(8).toString('hex')}`;

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Holds the default world and any number of created ones (`w1`, `w2`, ...). Each is a complete
 * World of its own (store, clock, ids, prices, faults, rate-limit windows, journal, caches), so
 * nothing one world does is visible in another, and one world's failure (damaged files, a failed
 * deletion) is logged and stays with that world. Implements the `WorldsControl` the worlds API uses.
 */
export class WorldHost implements WorldsControl {
  /** The key that manages worlds (besides the default world's admin keys). */
  readonly serverKey: string;
  readonly maxWorlds: number;
  private readonly held = new Map<string, Held>();
  private readonly damaged = new Map<string, DamagedWorld>();
  /** Deleted worlds still answering requests. */
  private readonly draining = new Map<string, Held>();
  /** Closing and removal of deleted worlds that wait for their last request. */
  private readonly pending = new Set<Promise<void>>();
  /** Worlds being built (they count against the limit). */
  private building = 0;
  /** Next id to hand out; with --state, durable before any id at or above it is answered. */
  private nextId = 1;
  /** Writes of the id high-water mark, one after another. */
  private idsWritten: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private readonly newKey: () => string;
  private readonly log: StateLogger;

  private constructor(readonly defaultWorld: World, private readonly options: WorldHostOptions) {
    this.serverKey = options.serverKey ?? randomKey();
    this.maxWorlds = options.maxWorlds ?? DEFAULT_MAX_WORLDS;
    this.now = options.now ?? (() => Date.now());
    this.newKey = options.newKey ?? randomKey;
    this.log = options.log ?? options.state?.log ?? SILENT;
    defaultWorld.worlds = this;
  }

  /** A host around `defaultWorld`; with `state`, the worlds persisted there come back first (a damaged one is listed as such, never touched). */
  static async open(defaultWorld: World, options: WorldHostOptions = {}): Promise<WorldHost> {
    const host = new WorldHost(defaultWorld, options);
    if (!options.state) return host;
    const found = await recoverWorlds(options.state.dir, { base: options.base, open: (dir) => host.openState(dir), log: host.log });
    host.nextId = found.nextId;
    for (const d of found.damaged) host.damaged.set(d.id, d);
    for (const r of found.worlds) {
      r.world.worlds = host;
      host.held.set(r.id, { ...r, lastUsed: host.now(), inFlight: 0 });
    }
    return host;
  }

  /** Number of created worlds held now (damaged ones not counted). */
  get size(): number {
    return this.held.size;
  }

  async authorize(authorization: string | undefined, world?: string): Promise<void> {
    const key = parseBearer(authorization);
    if (key === null) throw new DomainError('ADMIN_KEY_MISSING');
    if (sameKey(key, this.serverKey)) return;
    if (await isActiveAdmin(this.defaultWorld, key)) return;
    const own = world === undefined ? undefined : this.held.get(world);
    // The key a world was created with may delete it whatever became of its admins (a load, a reset without admin).
    if (own && ((own.adminKey !== null && sameKey(key, own.adminKey)) || await isActiveAdmin(own.world, key))) return;
    throw new DomainError('SIM_WORLDS_KEY_INVALID');
  }

  async create(input: CreateWorldInput): Promise<CreatedWorld> {
    this.dropExpired();
    if (this.held.size + this.building >= this.maxWorlds) throw new DomainError('SIM_WORLD_LIMIT', { max: this.maxWorlds });
    const adminKey = this.newKey();
    // Checked before an id is taken: a request that fails here leaves no trace.
    let options: WorldOptions;
    try {
      options = this.creationOptions(input, adminKey);
      resolveConfig(options as ResolvedWorldOptions, '');
    } catch (err) {
      throw creationFailure(err, input);
    }
    const id = `w${this.nextId++}`;
    this.building += 1;
    try {
      return await this.build(id, input, options, adminKey);
    } finally {
      this.building -= 1;
    }
  }

  list(): WorldInfo[] {
    this.dropExpired();
    const worlds = [...this.held.values()].map((h) => this.info(h.id, h.world, h.idleTtlMs));
    const damaged = [...this.damaged.values()].map((d): WorldInfo => ({
      id: d.id, basePath: `/worlds/${d.id}`, seed: null, now: null, idleTtlSeconds: null, status: 'damaged', damage: d.damage,
    }));
    const all = [...worlds, ...damaged].sort((a, b) => byCreation(a.id, b.id));
    return [this.info('default', this.defaultWorld, null), ...all];
  }

  async remove(id: string): Promise<void> {
    if (id === 'default') throw new DomainError('SIM_WORLD_DEFAULT');
    const d = this.damaged.get(id);
    if (d) {
      // compsim deletes nothing it cannot account for: a damaged world goes once its directory is gone.
      if (existsSync(d.dir)) throw new DomainError('SIM_WORLD_DAMAGED_KEPT', { id, dir: d.dir });
      this.damaged.delete(id);
      this.log.warn(`world ${id}: forgotten (it was damaged and its directory ${d.dir} is gone)`);
      return;
    }
    const h = this.held.get(id);
    if (!h) throw new DomainError('SIM_WORLD_NOT_FOUND', { id });
    await this.drop(h);
  }

  acquire(id: string): World {
    if (id === 'default') return this.defaultWorld;
    const d = this.damaged.get(id);
    if (d) throw new DomainError('SIM_WORLD_DAMAGED', { id, reason: d.damage.reason, dir: d.dir });
    const h = this.held.get(id);
    if (!h) throw new DomainError('SIM_WORLD_NOT_FOUND', { id });
    const now = this.now();
    if (expired(h, now)) {
      this.track(this.drop(h));
      throw new DomainError('SIM_WORLD_NOT_FOUND', { id });
    }
    h.lastUsed = now;
    h.inFlight += 1;
    return h.world;
  }

  release(id: string): void {
    const h = this.held.get(id) ?? this.draining.get(id);
    if (!h || h.inFlight === 0) return;
    h.inFlight -= 1;
    // Idle time counts from the end of the last request, not from its start.
    h.lastUsed = this.now();
    if (h.inFlight === 0) h.idle?.();
  }

  /** Drops every world idle for longer than its TTL (the server calls this now and then; lookups check too). */
  async sweep(): Promise<string[]> {
    const now = this.now();
    const gone = [...this.held.values()].filter((h) => expired(h, now));
    await Promise.all(gone.map((h) => this.drop(h)));
    return gone.map((h) => h.id);
  }

  /** Runs due jobs in every world (the system clock's scheduler tick); a world whose jobs fail is logged and the others go on. */
  async tick(): Promise<void> {
    const all: [string, World][] = [['default', this.defaultWorld], ...[...this.held.values()].map((h): [string, World] => [h.id, h.world])];
    for (const [id, w] of all) {
      try {
        await w.advance(0);
      } catch (err) {
        this.log.warn(`world ${id}: running its scheduler jobs failed: ${errorMessage(err)}`);
      }
    }
  }

  /** Releases the created worlds' state directories (the default world's belongs to the caller). */
  async close(): Promise<void> {
    await Promise.all([...this.held.values(), ...this.draining.values()].map((h) => this.closeState(h)));
  }

  /** Resolves once every dropped world (deleted, or expired) has closed and removed its state. */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private info(id: string, world: World, idleTtlMs: number | null): WorldInfo {
    return {
      id, basePath: id === 'default' ? '' : `/worlds/${id}`, seed: world.config.seed, now: world.deps.clock.now(),
      idleTtlSeconds: idleTtlMs === null ? null : idleTtlMs / 1000, status: 'ok',
    };
  }

  /** The options of a new world: the server's base, the request's options, seed, start time and fixture, and its admin key. */
  private creationOptions(input: CreateWorldInput, adminKey: string): WorldOptions {
    const fixture = fixtureOf(input);
    const fixtureAdmin = fixture && typeof fixture === 'object' ? fixture.admin : undefined;
    return {
      ...this.options.base,
      ...(input.options as WorldOptions | undefined),
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.startTime !== undefined ? { startTime: input.startTime } : {}),
      ...(fixture ? { fixture } : {}),
      admin: { ...fixtureAdmin, apiKey: adminKey },
    };
  }

  /**
   * Builds world `id` and, with --state, makes it durable before it is answered: its directory
   * appears with world.json (synced), its first record is synced, then world.json says complete
   * and the id high-water mark moves past it. Anything failing on the way removes what this
   * creation wrote (it was never answered) and changes nothing else.
   */
  private async build(id: string, input: CreateWorldInput, options: WorldOptions, adminKey: string): Promise<CreatedWorld> {
    const ttl = input.idleTtlSeconds ?? null;
    const file: WorldFile = { id, idleTtlSeconds: ttl, adminKeyHash: keyHash(adminKey) };
    let persistence: StatePersistence | undefined;
    let dir: string | undefined;
    try {
      const state = this.options.state;
      if (state) {
        dir = await beginCreation(state.dir, file);
        persistence = await this.openState(dir);
      }
      let world: World;
      try {
        world = await createWorld(options, persistence);
      } catch (err) {
        throw creationFailure(err, input);
      }
      const problem = await storedProblem(world);
      if (problem) throw new DomainError('SIM_INVALID', { where: 'options', reason: `the world would not load back from its own dump: ${problem}` });
      if (state && dir) {
        await completeCreation(dir, file);
        await this.saveIds(state.dir);
      }
      world.worlds = this;
      const idleTtlMs = ttl === null ? null : ttl * 1000;
      this.held.set(id, { id, world, persistence, idleTtlMs, adminKey, lastUsed: this.now(), inFlight: 0 });
      const { agents, competitions } = world.fixture;
      return { ...this.info(id, world, idleTtlMs), adminKey, agents, competitions };
    } catch (err) {
      await persistence?.close().catch(() => undefined);
      if (dir) rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** Writes the id high-water mark (after any write already under way, so the file only grows). */
  private saveIds(stateDir: string): Promise<void> {
    const next = this.idsWritten.then(() => saveNextId(stateDir, this.nextId));
    this.idsWritten = next.catch(() => undefined);
    return next;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const h of [...this.held.values()]) if (expired(h, now)) this.track(this.drop(h));
  }

  /** Keeps `work` in {@link settled}'s list until it is done (it never rejects). */
  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /**
   * Forgets a world at once (later requests get the 404) and, with --state, moves its directory
   * aside durably before resolving; once the requests it is answering are done, closes its state
   * and deletes the directory. Never rejects: a failure (the directory moved or deleted from
   * outside, a full disk) is logged and the world stays forgotten.
   */
  private async drop(h: Held): Promise<void> {
    if (this.held.get(h.id) !== h) return;
    this.held.delete(h.id);
    let trash: string | null = null;
    const state = this.options.state;
    if (h.persistence && state) {
      try {
        trash = await moveAside(state.dir, h.id, this.now());
        if (trash === null) this.log.warn(`world ${h.id}: its directory ${join(state.dir, WORLDS_SUBDIR, h.id)} was already gone; the world is forgotten`);
      } catch (err) {
        this.log.warn(`world ${h.id}: could not move its directory aside (${errorMessage(err)}); the world is forgotten, its files stay where they are`);
      }
    }
    const finish = async () => {
      await this.closeState(h);
      if (trash === null) return;
      try {
        rmSync(trash, { recursive: true, force: true });
      } catch (err) {
        this.log.warn(`world ${h.id}: could not remove ${trash} (${errorMessage(err)}); the next start removes it`);
      }
    };
    if (h.inFlight === 0) return finish();
    // Requests under way (the deleting one among them, when a world deletes itself) finish first.
    this.draining.set(h.id, h);
    const done = new Promise<void>((resolve) => (h.idle = resolve)).then(() => {
      this.draining.delete(h.id);
      return finish();
    });
    this.track(done);
    return undefined;
  }

  private async closeState(h: Held): Promise<void> {
    try {
      await h.persistence?.close();
    } catch (err) {
      this.log.warn(`world ${h.id}: closing its state failed: ${errorMessage(err)}`);
    }
  }

  private openState(dir: string): Promise<StatePersistence> {
    const s = this.options.state!;
    return StatePersistence.open(dir, { ...(s.log ? { log: s.log } : {}), ...(s.compactBytes !== undefined ? { compactBytes: s.compactBytes } : {}) });
  }
}

/**
 * A creation's failure as its 400: an option error names its field as the request gave it
 * (`startTime`, `fixture.competitions[0].endDate` at the top of the body; `options.prices.stepMs`).
 */
function creationFailure(err: unknown, input: CreateWorldInput): DomainError {
  if (!(err instanceof OptionError)) return optionsFailure(err);
  const root = /^[a-zA-Z]+/.exec(err.field)?.[0] ?? '';
  const top = (root === 'seed' || root === 'startTime' || root === 'fixture') && input[root] !== undefined;
  return new DomainError('SIM_INVALID', { where: top ? err.field : `options.${err.field}`, reason: err.reason });
}

/** The fixture a creation names (a document, or a bundled world's name such as `demo`); an unknown name is an OptionError naming `fixture`. */
function fixtureOf(input: CreateWorldInput): WorldFixture | undefined {
  const given = input.fixture !== undefined ? input.fixture : input.options?.fixture;
  return given === undefined ? undefined : withFixtureDocument({ fixture: given as WorldFixture | string }).fixture;
}

function expired(h: Held, now: number): boolean {
  return h.idleTtlMs !== null && h.inFlight === 0 && now - h.lastUsed >= h.idleTtlMs;
}

async function isActiveAdmin(world: World, key: string): Promise<boolean> {
  const { deps } = world;
  return deps.store.read((tx) => findAdminByKey(deps, tx, key)?.status === 'active');
}
