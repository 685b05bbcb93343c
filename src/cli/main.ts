#!/usr/bin/env node
// compsim command line: `serve` builds a world (optionally from a fixture) and serves it over HTTP; `run` and `record` handle scenarios; `mcp` serves MCP over stdio.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { didYouMean, failure, parseServeArgs, USAGE, type ServeArgs } from './args.js';

/** The commands, for the did-you-mean of an unknown one. */
const COMMANDS = ['serve', 'run', 'record', 'sweep', 'replay', 'fork', 'state', 'openapi', 'sign-wallet', 'sign-inference', 'mcp'];

/**
 * Runs `compsim serve`; resolves once the server listens, returns a stop function. The server stack
 * (Koa, the logger, the state directory) is imported here, on first use: `compsim run` and the other
 * commands start without loading it (about 120 ms of each of their start-ups).
 */
export async function serve(args: ServeArgs, out: NodeJS.WritableStream = process.stdout): Promise<{ url: string; stop: () => Promise<void> }> {
  return (await import('./serve.js')).serve(args, out);
}

/** Where a command writes. */
export interface CliIo { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }

/** Entry point: returns the process exit code. */
export async function main(argv: string[], io: CliIo = process): Promise<number> {
  const [cmd, ...rest] = argv;
  // Other commands are imported when used: `serve` starts without loading what it never runs.
  if (cmd === 'run') return (await import('./run.js')).runMain(rest, io);
  if (cmd === 'record') return (await import('./record.js')).recordMain(rest, io);
  if (cmd === 'sweep') return (await import('./sweep.js')).sweepMain(rest, io);
  if (cmd === 'replay') return (await import('./replay.js')).replayMain(rest, io);
  if (cmd === 'fork') return (await import('./fork.js')).forkMain(rest, io);
  if (cmd === 'state') return (await import('./state.js')).stateMain(rest, { out: io.stdout, err: io.stderr });
  if (cmd === 'mcp') return (await import('./mcp.js')).mcpMain(rest, { stdin: process.stdin, stdout: io.stdout, stderr: io.stderr });
  if (cmd === 'openapi') return (await import('./openapi.js')).openapiMain(rest, io.stdout, io.stderr);
  if (cmd === 'sign-wallet' || cmd === 'sign-inference') return (await import('./sign.js')).signMain(cmd, rest, io.stdout, io.stderr);
  if (cmd === undefined || cmd === '-h' || cmd === '--help' || rest.includes('-h') || rest.includes('--help')) {
    io.stdout.write(`${USAGE}\n`);
    return cmd === undefined ? 2 : 0;
  }
  if (cmd !== 'serve') {
    io.stderr.write(`compsim: unknown command '${cmd}'${didYouMean(cmd, COMMANDS, '')}\nRun 'compsim --help' for the commands.\n`);
    return 2;
  }
  let args: ServeArgs;
  let running: { stop: () => Promise<void> };
  try {
    args = parseServeArgs(rest);
    running = await serve(args, io.stdout);
  } catch (err) {
    return failure('compsim', USAGE, err, io.stderr, 'compsim serve --help');
  }
  await new Promise<void>((resolve) => {
    const onSignal = (sig: string) => {
      io.stdout.write(`\n${sig} received, stopping\n`);
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
