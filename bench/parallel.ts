// Parallel runs: the scenario library through `compsim run --workers 1` and `--workers 2`, and a 100-seed sweep of a one-day, 20-agent scenario on 1 and 2 workers; spawn to exit.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findScenarioFiles } from '../src/harness/files.js';
import { benchMain, nodeArgs, ROOT } from './lib/proc.js';
import { median, num, type BenchRow } from './lib/report.js';

/** One compiled-CLI command (through bench/cli-cpu, which reports the process's CPU time): wall ms from spawn to exit and CPU ms of all its threads; throws unless it exits 0. */
function timed(args: string[]): Promise<{ wall: number; cpu: number }> {
  const t = performance.now();
  const child = spawn(process.execPath, [...nodeArgs('bench/cli-cpu'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const cpu = /CPU_US (\d+)/.exec(out);
      if (code === 0 && cpu) resolve({ wall: performance.now() - t, cpu: Number(cpu[1]) / 1000 });
      else reject(new Error(`compsim ${args.join(' ')} exited ${code}: ${out.slice(-2000)}`));
    });
  });
}

interface Pairs { a: number[]; b: number[]; cpuA: number[]; cpuB: number[] }

/** `reps` alternating pairs of the two commands. */
async function pairs(reps: number, one: string[], two: string[]): Promise<Pairs> {
  const p: Pairs = { a: [], b: [], cpuA: [], cpuB: [] };
  for (let i = 0; i < reps; i++) {
    const x = await timed(one);
    const y = await timed(two);
    p.a.push(x.wall);
    p.cpuA.push(x.cpu);
    p.b.push(y.wall);
    p.cpuB.push(y.cpu);
  }
  return p;
}

/**
 * What the CPU times say regardless of the machine's load: the CPU the second worker adds, and
 * the speed-up two otherwise idle cores would allow at best (all CPU time split evenly).
 */
function cpuNote(p: Pairs): string {
  const [c1, c2] = [median(p.cpuA), median(p.cpuB)];
  return `CPU time (user + system, all threads) ${s(c1)} with 1 worker, ${s(c2)} with 2 (x ${(c2 / c1).toFixed(2)}), so two idle cores allow at most about ${Math.min(2, (2 * c1) / c2).toFixed(2)} x`;
}

const s = (x: number) => `${num(x / 1000, 2)} s`;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** Rows P1 (scenario library) and P2 (sweep). */
export async function parallel(reps = 3, seeds = 100): Promise<BenchRow[]> {
  const cores = availableParallelism();
  const loadBefore = load();
  const lib = await pairs(reps, ['run', 'scenarios', '--workers', '1'], ['run', 'scenarios', '--workers', '2']);
  const libRatio = median(lib.a) / median(lib.b);
  const out = mkdtempSync(join(tmpdir(), 'compsim-bench-sweep-'));
  const sweepArgs = (w: string) => ['sweep', 'fixtures/sweep/day-random-walk.scenario.json', '--seeds', `1..${seeds}`, '--workers', w, '--out', join(out, w)];
  let sw: Pairs;
  try {
    sw = await pairs(reps, sweepArgs('1'), sweepArgs('2'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const swRatio = median(sw.a) / median(sw.b);
  const each = (xs: number[]) => xs.map((x) => num(x / 1000, 2)).join(', ');
  const machine = `${cores} cores; load average ${loadBefore} before, ${load()} after (a shared machine: other processes compete for the same cores)`;
  return [
    {
      id: 'P1', name: `scenario library (\`compsim run scenarios\`, ${findScenarioFiles([join(ROOT, 'scenarios')]).length} files, in-process): \`--workers 2\` vs \`--workers 1\`, spawn to exit`,
      value: `${s(median(lib.b))} vs ${s(median(lib.a))} = ${libRatio.toFixed(2)} x`, target: '>= 1.7 x on 2 cores', pass: libRatio >= 1.7,
      notes: `median of ${reps} alternating runs each (workers 1: ${each(lib.a)} s; workers 2: ${each(lib.b)} s); ${cpuNote(lib)}: each worker thread loads the modules, compiles the route schemas and warms its JIT itself, which is most of this short suite's work; ${machine}`,
    },
    {
      id: 'P2', name: `\`compsim sweep\` of ${seeds} seeds (+ the base run) of a one-day, 20-agent scenario (fixtures/sweep/day-random-walk, 256 steps): \`--workers 2\` vs \`--workers 1\``,
      value: `${s(median(sw.b))} vs ${s(median(sw.a))} = ${swRatio.toFixed(2)} x`, target: '>= 1.4 x on 2 cores', pass: swRatio >= 1.4,
      notes: `median of ${reps} alternating runs each (workers 1: ${each(sw.a)} s; workers 2: ${each(sw.b)} s), spawn to exit, outputs written; ${cpuNote(sw)}; ${machine}`,
    },
  ];
}

await benchMain(import.meta, async (args) => parallel(Number(args[0] ?? 3), Number(args[1] ?? 100)));
