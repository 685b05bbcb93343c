// `compsim serve`: builds a world (optionally from a fixture and a state directory) and serves it over HTTP.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { createLogger } from '../http/adapters/logging.js';
import { answerOutsideKoa, createServer } from '../http/adapters/server.js';
import { createWorld, storedProblem, type World } from '../world/world.js';
import { BUNDLED_WORLDS_DIR, bundledWorlds, isBundledWorld, type WorldFixture } from '../world/fixture.js';
import { UsageError, type ServeArgs } from './args.js';
import { openServeState } from './state.js';
import { WorldHost } from '../world/world-host.js';
import { worldOfFailure } from '../world/world-dirs.js';
import type { StatePersistence } from '../world/persistence.js';
import { loadOpenSkill } from '../domain/rankings/rating.js';
import { loadEthers } from '../domain/agents/wallet-verification.js';

/** How often the system clock drives the scheduler. */
const TICK_MS = 1000;
/** How often idle worlds are checked against their TTL (requests to a world check it too). */
const SWEEP_MS = 10_000;
/** Wall time after start-up before the lazily loaded libraries are loaded anyway. */
const PRELOAD_AFTER_MS = 1000;

/**
 * The file `--world` names: an existing file as given, else a bundled world's name (`demo`), so the
 * option works from any directory. A bare name that is neither is a usage error listing the bundled ones.
 */
export function resolveWorldFile(world: string): string {
  if (existsSync(world) || !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(world)) return world;
  if (isBundledWorld(world)) return join(BUNDLED_WORLDS_DIR, `${world}.json`);
  throw new UsageError(`unknown world '${world}': not a file, nor a bundled world (${bundledWorlds().join(', ')})`);
}

/** The world fixture in the JSON file at `path`; an unreadable or malformed file is a usage error naming it. */
export function readFixture(path: string): WorldFixture {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read world file '${path}': ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as WorldFixture;
  } catch (err) {
    throw new UsageError(`world file '${path}' is not valid JSON: ${(err as Error).message}`);
  }
}

function banner(world: World, host: WorldHost, url: string, args: ServeArgs, admins: number): string {
  const { config } = world.deps;
  const lines = [
    `compsim ${config.version} listening on ${url}  (clock: ${args.clock}, seed: ${String(config.seed)})`,
    `API version: ${config.apiVersion} (team keys: the team era)${config.unknownTokens === 'synthetic' ? '; unknown tokens: synthetic prices' : ''}`,
  ];
  if (args.simApi) {
    lines.push(`simulation control API: ${url}/api/sim/* (admin key)`,
      `server key: ${host.serverKey} (creates worlds with POST ${url}/api/sim/worlds; at most ${host.maxWorlds})`);
  }
  if (host.size > 0) lines.push(`worlds: default and ${host.size} more (${url}/worlds/<id>/api/...)`);
  if (args.rateLimits === 'upstream') lines.push('rate limits: upstream (per agent, on virtual time)');
  if (args.state) lines.push(`state directory: ${args.state} (kept across restarts)`);
  if (args.mcp) lines.push(`MCP (Streamable HTTP): ${url}/mcp (an agent's API key as Authorization: Bearer <key>)`);
  if (world.adminKey) lines.push(`admin key: ${world.adminKey}`);
  else if (admins === 0) {
    // Admin routes (and /api/sim/*) need a key; without one a new user is stuck, so say how to get it.
    lines.push('admin key: none yet. Get one (answered as admin.apiKey) with',
      `  curl -X POST -H "Content-Type: application/json" -d '{"username":"admin","password":"change-me-now","email":"admin@example.com"}' ${url}/api/admin/setup`,
      '  or restart with --admin-key <16 hex>_<16 hex>');
  }
  for (const a of world.fixture.agents) lines.push(`agent ${a.name} (@${a.handle}): ${a.apiKey}`);
  for (const c of world.fixture.competitions) lines.push(`competition ${c.name} [${c.status}]: ${c.id}`);
  const key = world.fixture.agents[0]?.apiKey ?? world.adminKey ?? 'YOUR_API_KEY';
  lines.push('', 'try:', `  curl ${url}/api/health`,
    `  curl -H "Authorization: Bearer ${key}" "${url}/api/price?token=So11111111111111111111111111111111111111112"`, '');
  return lines.join('\n');
}

/** What `--print-keys json` prints and `--keys-file` holds: where the server is, its keys, and what the world fixture made. */
export interface ServeKeys {
  url: string;
  version: string;
  seed: number | string;
  clock: 'manual' | 'system';
  apiVersion: string;
  /** The default world's admin key; null when it has none yet (`POST /api/admin/setup` creates one). */
  adminKey: string | null;
  /** The key that creates worlds (`POST /api/sim/worlds`); null without `--sim-api`. */
  serverKey: string | null;
  agents: { id: string; name: string; handle: string; apiKey: string }[];
  competitions: { id: string; name: string; status: string }[];
}

function keysOf(world: World, host: WorldHost, url: string, args: ServeArgs): ServeKeys {
  const { config } = world.deps;
  return {
    url, version: config.version, seed: config.seed, clock: args.clock, apiVersion: config.apiVersion,
    adminKey: world.adminKey, serverKey: args.simApi ? host.serverKey : null,
    agents: world.fixture.agents.map((a) => ({ id: a.id, name: a.name, handle: a.handle, apiKey: a.apiKey })),
    competitions: world.fixture.competitions.map((c) => ({ id: c.id, name: c.name, status: c.status })),
  };
}

/** Writes the keys document whole (a reader polling for the file never sees half of it). */
function writeKeysFile(path: string, keys: ServeKeys): void {
  const partial = `${path}.partial`;
  try {
    writeFileSync(partial, `${JSON.stringify(keys, null, 2)}\n`);
    renameSync(partial, path);
  } catch (err) {
    throw new Error(`cannot write --keys-file '${path}': ${(err as Error).message}`);
  }
}

/** The worlds a server serves: the default one (with its state directory, if any) and the host of the created ones. */
interface Opened { world: World; worldHost: WorldHost; state: StatePersistence | undefined }

/** Builds the default world and the host of created ones; on failure, releases the state directory. */
async function openWorlds(args: ServeArgs, fixture: WorldFixture | undefined, url: string, logger: Logger): Promise<Opened> {
  let state: StatePersistence | undefined;
  try {
    state = args.state ? await openServeState(args.state, logger, args.stateCompactMb) : undefined;
    const fresh = !state?.recoveredOptions();
    const world = await createWorld({
      clock: args.clock,
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(fixture ? { fixture } : {}),
      ...(args.adminKey ? { admin: { ...fixture?.admin, apiKey: args.adminKey } } : {}),
      ...(args.rateLimits ? { rateLimits: args.rateLimits } : {}),
      ...(args.apiVersion ? { apiVersion: args.apiVersion } : {}),
      ...(args.unknownTokens ? { unknownTokens: args.unknownTokens } : {}),
      walletDomain: args.walletDomain ?? url,
      ...(args.inferenceSigners ? { inferenceSigners: args.inferenceSigners } : {}),
    }, state);
    // A world file is outside input: what it made must load back from the world's own dump.
    const problem = fixture && fresh ? await storedProblem(world) : null;
    if (problem) throw new Error(`world file ${args.world}: the world it makes would not load back from its own dump: ${problem}`);
    const worldHost = await WorldHost.open(world, {
      ...(args.maxWorlds !== undefined ? { maxWorlds: args.maxWorlds } : {}),
      // Created worlds are served like the default one; their own options come with the request.
      base: {
        clock: args.clock, walletDomain: args.walletDomain ?? url, ...(args.rateLimits ? { rateLimits: args.rateLimits } : {}),
        ...(args.apiVersion ? { apiVersion: args.apiVersion } : {}), ...(args.unknownTokens ? { unknownTokens: args.unknownTokens } : {}),
        ...(args.inferenceSigners ? { inferenceSigners: args.inferenceSigners } : {}),
      },
      ...(args.state ? { state: { dir: args.state, log: logger, ...(args.stateCompactMb !== undefined ? { compactBytes: args.stateCompactMb * 2 ** 20 } : {}) } } : {}),
      log: logger,
    });
    return { world, worldHost, state };
  } catch (err) {
    await state?.close();
    throw err;
  }
}

/** `koa` with `/mcp` answered by the MCP endpoint of the default world (loaded only with --mcp). */
async function withMcp(world: World, koa: RequestListener, logger: Logger): Promise<RequestListener> {
  const { MCP_PATH, mcpHttpHandler } = await import('../mcp/http.js');
  const mcp = mcpHttpHandler(world, world.deps.config.version, (err) => logger.error({ err }, 'MCP request failed'));
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === MCP_PATH) void mcp(req, res);
    else koa(req, res);
  };
}

/** Runs `compsim serve`; resolves once the server listens, returns a stop function. */
export async function serve(args: ServeArgs, out: NodeJS.WritableStream = process.stdout): Promise<{ url: string; stop: () => Promise<void> }> {
  const fixture = args.world ? readFixture(resolveWorldFile(args.world)) : undefined;
  // An older keys file would tell a script waiting for this one that the server is up.
  if (args.keysFile) rmSync(args.keysFile, { force: true });
  // Listen first: the wallet-verification domain defaults to the base URL, known once bound (port 0).
  const server = createHttpServer();
  // Until the world is built (a --state recovery can take a while) requests get a 503, not silence.
  const starting = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
    res.end(JSON.stringify({ success: false, error: 'compsim is starting; try again in a moment' }));
  };
  server.on('request', starting);
  answerOutsideKoa(server);
  server.listen(args.port, args.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = args.host.includes(':') ? `[${args.host}]` : args.host;
  const url = `http://${host}:${port}`;
  const logger = createLogger({ level: args.logLevel });
  // A failure nobody awaited (a bug) is logged with the world it names, and the other worlds keep being served.
  const onRejection = (reason: unknown) => logger.error({ err: reason, world: worldOfFailure(reason) }, 'unexpected failure outside any request (compsim keeps serving)');
  process.on('unhandledRejection', onRejection);
  let opened: Opened;
  try {
    opened = await openWorlds(args, fixture, url, logger);
  } catch (err) {
    process.off('unhandledRejection', onRejection);
    server.close();
    throw err;
  }
  const { world, worldHost, state } = opened;
  const handle = createServer(world, { logger, simApi: args.simApi ?? false, worlds: worldHost }).callback();
  // Koa's handler settles every request itself (its errors become answers): nothing to await here.
  const koa: RequestListener = (req, res) => void handle(req, res);
  const listener = args.mcp ? await withMcp(world, koa, logger) : koa;
  server.off('request', starting);
  server.on('request', listener);
  const keys = keysOf(world, worldHost, url, args);
  try {
    if (args.keysFile) writeKeysFile(args.keysFile, keys);
  } catch (err) {
    process.off('unhandledRejection', onRejection);
    server.close();
    server.closeAllConnections();
    await worldHost.close();
    await state?.close();
    throw err;
  }
  out.write(args.printKeys === 'json' ? `${JSON.stringify(keys)}\n` : `${banner(world, worldHost, url, args, await world.deps.store.read((tx) => tx.count('admins')))}\n`);
  // With the system clock, wall time drives the scheduler from here (never from domain or http code).
  const timer = args.clock === 'system'
    ? setInterval(() => void worldHost.tick().catch((err: unknown) => logger.error({ err }, 'scheduler tick failed')), TICK_MS)
    : null;
  const sweep = setInterval(() => void worldHost.sweep().catch((err: unknown) => logger.error({ err }, 'dropping idle worlds failed')), SWEEP_MS);
  sweep.unref();
  // The libraries the domain loads on first use (ratings, signature recovery), loaded once the
  // server has answered its first requests, so that neither start-up nor a later request waits.
  const preload = setTimeout(() => {
    Promise.all([loadOpenSkill(), loadEthers()]).catch((err: unknown) => logger.error({ err }, 'preloading libraries failed'));
  }, PRELOAD_AFTER_MS);
  preload.unref();
  const stop = () => new Promise<void>((resolve) => {
    process.off('unhandledRejection', onRejection);
    clearTimeout(preload);
    if (timer) clearInterval(timer);
    clearInterval(sweep);
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return { url, stop: () => stop().then(() => worldHost.close()).then(() => state?.close()) };
}
