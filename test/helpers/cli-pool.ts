// Test helper: compsim CLI child processes from a pool of pre-loaded ones (compiled once, see cli-build.ts), so kill-and-restart tests start a server in a fraction of a second.
import { spawn, type ChildProcess } from 'node:child_process';
import { childCommand } from './cli-build.js';

/** A child process with its combined output. */
export interface Child {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
  /** Resolves with the first match of `re` in the output (rejects if the child exits first). */
  waitFor: (re: RegExp) => Promise<RegExpMatchArray>;
}

function spawnChild(command: string[]): Child {
  const proc = spawn(process.execPath, command, { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const waitFor = (re: RegExp) => new Promise<RegExpMatchArray>((resolve, reject) => {
    const check = () => {
      const m = out.match(re);
      if (!m) return;
      listeners.delete(check);
      resolve(m);
    };
    listeners.add(check);
    void exited.then(() => {
      listeners.delete(check);
      reject(new Error(`exited before ${re}: ${out}`));
    });
    check();
  });
  return { proc, out: () => out, exited, waitFor };
}

/** Runs compsim commands in pre-loaded children; `pool` more are always loading while one runs. */
export class CliPool {
  private readonly warm: Child[];

  constructor(pool = 2) {
    this.warm = Array.from({ length: pool }, () => spawnChild(childCommand()));
  }

  /** `compsim serve ...args`; resolves once it listens, with its URL and the time from go to listening. */
  async serve(args: string[]): Promise<{ child: Child; url: string; ms: number }> {
    const child = await this.start(['serve', ...args]);
    const t0 = performance.now();
    const [, url] = await child.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    return { child, url: url!, ms: performance.now() - t0 };
  }

  /** `compsim ...argv` run to its exit: the code and the output. */
  async run(argv: string[]): Promise<{ code: number | null; out: string }> {
    const child = await this.start(argv);
    return { code: await child.exited, out: child.out().replace(/^warm\n/, '') };
  }

  /** Kills the children still waiting. */
  async close(): Promise<void> {
    for (const c of this.warm.splice(0)) {
      c.proc.kill('SIGKILL');
      await c.exited;
    }
  }

  private async start(argv: string[]): Promise<Child> {
    const child = this.warm.shift()!;
    this.warm.push(spawnChild(childCommand()));
    await child.waitFor(/^warm$/m);
    child.proc.stdin!.write(`${JSON.stringify(argv)}\n`);
    return child;
  }
}
