// Test helper: the compsim CLI as a child process (exit code, output, waiting for a line).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';

const MAIN = join(ROOT, 'src', 'cli', 'main.ts');

/** A running `compsim ...` child. */
export interface Child {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Resolves with the first match of `re` in stdout (rejects if the child exits first). */
  waitFor(re: RegExp): Promise<RegExpMatchArray>;
}

/** Starts `node --import tsx src/cli/main.ts ...args` in the repository root. */
export function compsim(args: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (re: RegExp) => new Promise<RegExpMatchArray>((resolve, reject) => {
    const check = () => {
      const m = out.match(re);
      if (m) resolve(m);
    };
    child.stdout!.on('data', check);
    child.on('exit', () => reject(new Error(`exited before ${re}: ${out}${err}`)));
    check();
  });
  return { child, stdout: () => out, stderr: () => err, exited, waitFor };
}

/** Runs a command to completion. */
export async function runToEnd(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const c = compsim(args);
  const code = await c.exited;
  return { code, stdout: c.stdout(), stderr: c.stderr() };
}

/** Fixed admin key of the served child processes. */
export const SERVE_KEY = '0123456789abcdef_fedcba9876543210';

/** `compsim serve --sim-api` on a free port; resolves with its URL. */
export async function serveSim(): Promise<{ url: string; stop: () => Promise<void> }> {
  const c = compsim(['serve', '--sim-api', '--admin-key', SERVE_KEY, '--port', '0', '--log-level', 'silent']);
  const [, url] = await c.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return {
    url: url!,
    stop: async () => {
      c.child.kill('SIGTERM');
      await c.exited;
    },
  };
}
