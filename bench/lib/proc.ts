// Child processes of the benchmarks: `compsim serve` and the Koa echo baseline, from the compiled tree or (in development) through tsx.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { BenchRow } from './report.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** True when running from TypeScript sources (tsx) rather than the compiled benchmark tree. */
export const FROM_SOURCE = import.meta.url.endsWith('.ts');
const EXT = FROM_SOURCE ? '.ts' : '.js';
/** Root of the tree this file belongs to (the repository, or the compiled copy). */
export const ROOT = join(HERE, '..', '..');

/** `node` arguments that run `file` (a path below ROOT without extension) in this tree. */
export function nodeArgs(file: string, extra: string[] = []): string[] {
  const path = join(ROOT, `${file}${EXT}`);
  if (!existsSync(path)) throw new Error(`benchmark: ${path} does not exist`);
  return [...extra, ...(FROM_SOURCE ? ['--import', 'tsx'] : []), path];
}

/** A server in a child process. */
export interface ChildServer { url: string; child: ChildProcess; stop: () => Promise<void> }

/** Spawns `node args` and resolves once stdout shows `listening on <url>`. */
export function spawnListening(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ChildServer & { ms: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  let out = '';
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`child exited (${code}) before listening: ${out}`));
    child.once('exit', onExit);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      child.off('exit', onExit);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ url: m[1]!, child, ms: performance.now() - t0, stop: () => stopChild(child) });
    });
  });
}

/** SIGINT, then waits for the exit (SIGKILL after 5 s). */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGINT');
  });
}

/** `compsim serve` (the CLI of this tree) on a free port. */
export function spawnServe(args: string[] = [], nodeFlags: string[] = []): Promise<ChildServer & { ms: number }> {
  return spawnListening([...nodeArgs('src/cli/main', nodeFlags), 'serve', '--port', '0', '--log-level', 'silent', ...args]);
}

/** Prints the rows for the runner (last stdout line) when `meta` is the entry module; returns whether it was. */
export async function benchMain(meta: ImportMeta, run: (args: string[]) => Promise<BenchRow[]>): Promise<void> {
  if (process.argv[1] !== fileURLToPath(meta.url)) return;
  const rows = await run(process.argv.slice(2));
  process.stdout.write(`\nBENCH_ROWS ${JSON.stringify(rows)}\n`);
}
