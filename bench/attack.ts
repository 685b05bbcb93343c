// The containment attack, rerunnable: drives each reproduction (bench/attack-cases.ts) against a served `compsim serve --state` child and reports process exits and 5xx answers (both must be 0).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ATTACK_CASES, type Answer, type AttackCase, type AttackContext, type AttackServer } from './attack-cases.js';
import { nodeArgs } from './lib/proc.js';

/** Admin key of the default world under attack. */
export const ATTACK_ADMIN = '0123456789abcdef_fedcba9876543210';

/** How to start `compsim ...argv` (a served child, or a run to its exit). */
export interface Launcher {
  serve(args: string[]): Promise<AttackServer & { output(): string }>;
}

/** One case's outcome. */
export interface CaseReport { name: string; requests: number; fiveXX: number; expected503: number; exits: number; failures: string[]; notes: Record<string, string | number> }

/** The whole attack's outcome: `exits` and `fiveXX` must both be 0, `failures` empty. */
export interface AttackReport {
  cases: CaseReport[];
  requests: number;
  /** Answers of 500 or more that no case expected. */
  fiveXX: number;
  /** 503s of damaged worlds (the documented answer). */
  expected503: number;
  /** Server processes that ended without the attack stopping them. */
  exits: number;
  failures: string[];
  /** Resident set of the last server (kB, from /proc), when known. */
  rssKb: number | null;
}

const serveArgs = (dir: string) => ['--port', '0', '--state', dir, '--sim-api', '--admin-key', ATTACK_ADMIN, '--log-level', 'warn'];

function rssOf(pid: number | undefined): number | null {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) || null;
  } catch {
    return null;
  }
}

/** Runs `cases` one after another, each against a fresh state directory and server. */
export async function runAttack(launch: Launcher, o: { cases?: AttackCase[]; wallClock?: boolean; tokens?: number } = {}): Promise<AttackReport> {
  const report: AttackReport = { cases: [], requests: 0, fiveXX: 0, expected503: 0, exits: 0, failures: [], rssKb: null };
  for (const kase of o.cases ?? ATTACK_CASES) {
    const r = await runCase(launch, kase, o.wallClock ?? true, o.tokens ?? 53);
    report.cases.push(r.report);
    report.rssKb = r.rssKb ?? report.rssKb;
    report.requests += r.report.requests;
    report.fiveXX += r.report.fiveXX;
    report.expected503 += r.report.expected503;
    report.exits += r.report.exits;
    report.failures.push(...r.report.failures.map((f) => `${kase.name}: ${f}`));
  }
  return report;
}

/** One request of a case, counted in its report: a status of 500 or more is a failure unless the case expects the 503 of a damaged world. */
async function request(url: string, r: CaseReport, method: string, path: string, opts: Parameters<AttackContext['call']>[2] = {}): Promise<Answer> {
  r.requests += 1;
  let answer: Answer;
  try {
    const res = await fetch(`${url}${path}`, {
      method, headers: { ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    answer = { status: res.status, body: text ? JSON.parse(text) : undefined };
  } catch (err) {
    r.failures.push(`${method} ${path}: no answer (${(err as Error).message})`);
    return { status: 0, body: undefined };
  }
  if (answer.status >= 500 && opts.expect5xx && answer.status === 503) r.expected503 += 1;
  else if (answer.status >= 500) {
    r.fiveXX += 1;
    r.failures.push(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer;
}

async function runCase(launch: Launcher, kase: AttackCase, wallClock: boolean, tokens: number): Promise<{ report: CaseReport; rssKb: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'compsim-attack-'));
  const r: CaseReport = { name: kase.name, requests: 0, fiveXX: 0, expected503: 0, exits: 0, failures: [], notes: {} };
  let server = await launch.serve(serveArgs(dir));
  let stopping = false;
  let serverKey = /server key: (\S+)/.exec(server.output())?.[1] ?? ATTACK_ADMIN;
  const counted = new Set<AttackServer>();
  const exitedOnItsOwn = (s: AttackServer & { output(): string }, code: number | null) => {
    if (counted.has(s)) return;
    counted.add(s);
    r.exits += 1;
    r.failures.push(`the server exited (code ${code}): ${s.output().slice(-1500)}`);
  };
  const watch = (s: AttackServer & { output(): string }) => void s.exited.then((code) => {
    if (!stopping && s === server) exitedOnItsOwn(s, code);
  });
  watch(server);
  const stop = async (signal: NodeJS.Signals) => {
    // A server that ended before the attack stopped it counts, however late its exit event comes.
    if (!server.alive()) exitedOnItsOwn(server, await server.exited);
    stopping = true;
    server.kill(signal);
    await server.exited;
    stopping = false;
  };
  const c: AttackContext = {
    dir, admin: ATTACK_ADMIN, wallClock, tokens,
    serverKey: () => serverKey,
    call: (method, path, opts = {}) => request(server.url, r, method, path, opts),
    async restart(gentle = false) {
      await stop(gentle ? 'SIGINT' : 'SIGKILL');
      server = await launch.serve(serveArgs(dir));
      serverKey = /server key: (\S+)/.exec(server.output())?.[1] ?? ATTACK_ADMIN;
      watch(server);
    },
    async startElsewhere(other) {
      const s = await launch.serve(serveArgs(other)).catch((err: Error & { code?: number | null; out?: string }) => err);
      if (s instanceof Error) return { code: s.code ?? null, out: s.out ?? s.message };
      s.kill('SIGINT');
      await s.exited;
      return null;
    },
    check(ok, what) {
      if (!ok) r.failures.push(what);
    },
    note(key, value) {
      r.notes[key] = value;
    },
    rssMb() {
      const kb = rssOf(server.pid);
      return kb === null ? null : Math.round(kb / 1024);
    },
  };
  try {
    await kase.run(c);
  } catch (err) {
    r.failures.push(`the case stopped: ${(err as Error).stack ?? String(err)}`);
  }
  const rssKb = rssOf(server.pid);
  await stop('SIGINT');
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}-default`, { recursive: true, force: true });
  return { report: r, rssKb };
}

/** `compsim serve` children of this tree (tsx from the sources, plain node when compiled). */
export const childLauncher: Launcher = {
  serve(args) {
    const child = spawn(process.execPath, [...nodeArgs('src/cli/main'), 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return new Promise((resolve, reject) => {
      void exited.then((code) => reject(Object.assign(new Error(`compsim serve exited (${code}) before listening: ${out}`), { code, out })));
      const onData = () => {
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (!m || !/server key: \S+/.test(out)) return;
        child.stdout!.off('data', onData);
        resolve({ url: m[1]!, pid: child.pid, exited, alive: () => child.exitCode === null && child.signalCode === null, kill: (sig) => child.kill(sig), output: () => out });
      };
      child.stdout!.on('data', onData);
    });
  },
};

/** The report as text: one line per case, then the totals. */
export function printAttack(r: AttackReport): string {
  const lines = r.cases.map((c) => `${c.failures.length === 0 ? 'ok  ' : 'FAIL'} ${c.name}: ${c.requests} requests, ${c.fiveXX} x 5xx, ${c.exits} exits`
    + `${c.expected503 ? `, ${c.expected503} x 503 of damaged worlds (documented)` : ''}${Object.keys(c.notes).length ? `, ${JSON.stringify(c.notes)}` : ''}`);
  lines.push(`total: ${r.requests} requests, ${r.fiveXX} x 5xx, ${r.exits} process exits, ${r.expected503} documented 503s${r.rssKb ? `, last server ${Math.round(r.rssKb / 1024)} MB resident` : ''}`);
  for (const f of r.failures) lines.push(`  failure: ${f}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await runAttack(childLauncher, { wallClock: !process.argv.includes('--no-wall-clock') });
  process.stdout.write(`${printAttack(report)}\n`);
  process.exitCode = report.exits === 0 && report.fiveXX === 0 && report.failures.length === 0 ? 0 : 1;
}
