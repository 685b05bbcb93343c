#!/usr/bin/env node
// compsim command line: `serve` builds a world (optionally from a fixture) and serves it over HTTP; `run` and `record` handle scenarios.
import { readFileSync, realpathSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createLogger } from '../logging.js';
import { answerClientErrors, createServer } from '../server.js';
import { createWorld, type World } from '../world.js';
import type { WorldFixture } from '../fixture.js';
import { failure, parseServeArgs, UsageError, USAGE, type ServeArgs } from './args.js';
import { openServeState, stateMain } from './state.js';
import type { StatePersistence } from '../persistence.js';
import { loadOpenSkill } from '../domain/rating.js';
import { loadEthers } from '../domain/wallet-verification.js';

/** How often the system clock drives the scheduler. */
const TICK_MS = 1000;
/** Wall time after start-up before the lazily loaded libraries are loaded anyway. */
const PRELOAD_AFTER_MS = 1000;

function readFixture(path: string): WorldFixture {
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

function banner(world: World, url: string, args: ServeArgs): string {
  const lines = [`compsim ${world.deps.config.version} listening on ${url}  (clock: ${args.clock}, seed: ${String(world.deps.config.seed)})`];
  if (args.simApi) lines.push(`simulation control API: ${url}/api/sim/* (admin key)`);
  if (args.rateLimits === 'upstream') lines.push('rate limits: upstream (per agent, on virtual time)');
  if (args.state) lines.push(`state directory: ${args.state} (kept across restarts)`);
  if (world.adminKey) lines.push(`admin key: ${world.adminKey}`);
  for (const a of world.fixture.agents) lines.push(`agent ${a.name} (@${a.handle}): ${a.apiKey}`);
  for (const c of world.fixture.competitions) lines.push(`competition ${c.name} [${c.status}]: ${c.id}`);
  const key = world.fixture.agents[0]?.apiKey ?? world.adminKey ?? 'YOUR_API_KEY';
  lines.push('', 'try:', `  curl ${url}/api/health`,
    `  curl -H "Authorization: Bearer ${key}" "${url}/api/price?token=So11111111111111111111111111111111111111112"`, '');
  return lines.join('\n');
}

/** Runs `compsim serve`; resolves once the server listens, returns a stop function. */
export async function serve(args: ServeArgs, out: NodeJS.WritableStream = process.stdout): Promise<{ url: string; stop: () => Promise<void> }> {
  const fixture = args.world ? readFixture(args.world) : undefined;
  // Listen first: the wallet-verification domain defaults to the base URL, known once bound (port 0).
  const server = createHttpServer();
  // Until the world is built (a --state recovery can take a while) requests get a 503, not silence.
  const starting = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
    res.end(JSON.stringify({ success: false, error: 'compsim is starting; try again in a moment' }));
  };
  server.on('request', starting);
  answerClientErrors(server);
  server.listen(args.port, args.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = args.host.includes(':') ? `[${args.host}]` : args.host;
  const url = `http://${host}:${port}`;
  let world: World;
  let state: StatePersistence | undefined;
  try {
    state = args.state ? await openServeState(args.state, createLogger({ level: args.logLevel }), args.stateCompactMb) : undefined;
    world = await createWorld({
      clock: args.clock,
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(fixture ? { fixture } : {}),
      ...(args.adminKey ? { admin: { ...fixture?.admin, apiKey: args.adminKey } } : {}),
      ...(args.rateLimits ? { rateLimits: args.rateLimits } : {}),
      walletDomain: args.walletDomain ?? url,
      ...(args.inferenceSigners ? { inferenceSigners: args.inferenceSigners } : {}),
    }, state);
  } catch (err) {
    server.close();
    await state?.close();
    throw err;
  }
  const logger = createLogger({ level: args.logLevel });
  server.off('request', starting);
  server.on('request', createServer(world, { logger, simApi: args.simApi ?? false }).callback());
  out.write(`${banner(world, url, args)}\n`);
  // With the system clock, wall time drives the scheduler from here (never from domain or http code).
  const timer = args.clock === 'system'
    ? setInterval(() => void world.advance(0).catch((err: unknown) => logger.error({ err }, 'scheduler tick failed')), TICK_MS)
    : null;
  // The libraries the domain loads on first use (ratings, signature recovery), loaded once the
  // server has answered its first requests, so that neither start-up nor a later request waits.
  const preload = setTimeout(() => {
    Promise.all([loadOpenSkill(), loadEthers()]).catch((err: unknown) => logger.error({ err }, 'preloading libraries failed'));
  }, PRELOAD_AFTER_MS);
  preload.unref();
  const stop = () => new Promise<void>((resolve) => {
    clearTimeout(preload);
    if (timer) clearInterval(timer);
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return { url, stop: () => stop().then(() => state?.close()) };
}

/** Entry point: returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  // Other commands are imported when used: `serve` starts without loading what it never runs.
  if (cmd === 'run') return (await import('./run.js')).runMain(rest);
  if (cmd === 'record') return (await import('./record.js')).recordMain(rest);
  if (cmd === 'replay') return (await import('./replay.js')).replayMain(rest);
  if (cmd === 'state') return stateMain(rest);
  if (cmd === 'openapi') return (await import('./openapi.js')).openapiMain(rest);
  if (cmd === 'sign-wallet' || cmd === 'sign-inference') return (await import('./sign.js')).signMain(cmd, rest);
  if (cmd === undefined || cmd === '-h' || cmd === '--help' || rest.includes('-h') || rest.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return cmd === undefined ? 2 : 0;
  }
  if (cmd !== 'serve') {
    process.stderr.write(`compsim: unknown command '${cmd}'\n\n${USAGE}\n`);
    return 2;
  }
  let args: ServeArgs;
  let running: { stop: () => Promise<void> };
  try {
    args = parseServeArgs(rest);
    running = await serve(args);
  } catch (err) {
    return failure('compsim', USAGE, err, process.stderr);
  }
  await new Promise<void>((resolve) => {
    const onSignal = (sig: string) => {
      process.stdout.write(`\n${sig} received, stopping\n`);
      void running.stop().then(resolve);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  return 0;
}

function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    // npm's bin link is a symlink: compare real paths.
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err: unknown) => {
    process.stderr.write(`compsim: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
