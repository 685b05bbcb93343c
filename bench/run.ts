// `npm run bench`: compiles src and bench with tsc, runs each benchmark in its own process, prints the table and writes bench/results.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { summarise } from './profile-summary.js';
import { machine, markdownTable, textTable, type BenchRow } from './lib/report.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One benchmark process: its module, node flags, arguments (full and --quick sizes). */
interface Spec { name: string; file: string; flags?: string[]; args: string[]; quick: string[] }

const SPECS: Spec[] = [
  { name: 'http', file: 'bench/http', args: ['3', '5'], quick: ['1', '2'] },
  { name: 'socketless', file: 'bench/http-socketless', args: ['20000', '7'], quick: ['2000', '2'] },
  { name: 'engine', file: 'bench/engine', flags: ['--expose-gc'], args: ['1000000', '100'], quick: ['50000', '100'] },
  { name: 'week', file: 'bench/week', args: ['100', '7', '200000'], quick: ['100', '1', '28800'] },
  { name: 'reads', file: 'bench/reads', args: ['10000', '100'], quick: ['1000', '20'] },
  { name: 'snapshot', file: 'bench/snapshot', args: ['100', '1000'], quick: ['100', '100'] },
  { name: 'startup', file: 'bench/startup', args: ['5'], quick: ['2'] },
  { name: 'scaling', file: 'bench/scaling', args: ['100000'], quick: ['10000'] },
  { name: 'rate-limits', file: 'bench/rate-limits', args: ['10000'], quick: ['1000'] },
  { name: 'fork', file: 'bench/fork', args: ['100', '7', '200000'], quick: ['100', '1', '28800'] },
  { name: 'parallel', file: 'bench/parallel', args: ['3', '100'], quick: ['1', '20'] },
  { name: 'worlds', file: 'bench/worlds', flags: ['--expose-gc'], args: ['32'], quick: ['8'] },
  { name: 'price-memory', file: 'bench/price-memory', flags: ['--expose-gc'], args: ['3'], quick: ['1'] },
];

const ORDER = ['1', '1b', '1c', '2', '3', '3b', '3c', '3d', '4a', '4b', '4c', '5', '6a', '6b', '7a', '7b', '7c', 'S1', 'S2', 'S3', 'RL1', 'RL2', 'F1', 'P1', 'P2', 'W1', 'M1'];

const USAGE = `usage: npm run bench [-- [--quick] [--source] [--profile] [--no-write] [names...]]
  names      any of ${SPECS.map((s) => s.name).join(', ')} (default: all)
  --quick    small sizes (a smoke run; figures not comparable with the targets)
  --source   run the TypeScript sources through tsx instead of compiling first
  --profile  run each benchmark under --cpu-prof and print its heaviest functions (self time)
  --no-write do not rewrite bench/results.md`;

/** Compiles src and bench into a scratch tree laid out like the repository (so relative file reads work). */
function build(): string {
  const out = join(tmpdir(), 'compsim-bench-build');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const tsc = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(REPO, 'bench', 'tsconfig.json'), '--outDir', out], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('bench: tsc failed');
  for (const f of ['node_modules', 'fixtures', 'scenarios', 'package.json', 'scenario.schema.json']) symlinkSync(join(REPO, f), join(out, f));
  symlinkSync(join(REPO, 'src', 'ui'), join(out, 'src', 'ui'));
  return out;
}

/** Runs one benchmark process; resolves with its rows (the last `BENCH_ROWS` line of its output). */
function runOne(root: string, spec: Spec, ext: string, quick: boolean, profileDir: string | null): Promise<BenchRow[]> {
  const flags = [...(spec.flags ?? []), ...(ext === '.ts' ? ['--import', 'tsx'] : [])];
  if (profileDir) flags.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  const args = [...flags, join(root, `${spec.file}${ext}`), ...(quick ? spec.quick : spec.args)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      const line = out.split('\n').reverse().find((l) => l.startsWith('BENCH_ROWS '));
      if (code !== 0 || !line) {
        reject(new Error(`bench ${spec.name} exited ${code}: ${out.slice(-2000)}`));
        return;
      }
      resolve(JSON.parse(line.slice('BENCH_ROWS '.length)) as BenchRow[]);
    });
  });
}

function printProfile(dir: string, name: string): void {
  // Server children of a benchmark (bench/http.ts) write theirs into subdirectories.
  for (const sub of readdirSync(dir, { withFileTypes: true })) if (sub.isDirectory()) printProfile(join(dir, sub.name), `${name}, ${sub.name}`);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(dir, f));
  const summaries = files.map((f) => summarise(JSON.parse(readFileSync(f, 'utf8'))));
  const main = summaries.sort((a, b) => b.reduce((s, r) => s + r.selfMs, 0) - a.reduce((s, r) => s + r.selfMs, 0))[0];
  if (!main) return;
  const total = main.reduce((s, r) => s + r.selfMs, 0);
  console.log(`\nprofile of ${name} (${files.length} file(s) in ${dir}; heaviest self time of the busiest thread):`);
  for (const r of main.slice(0, 25)) console.log(`${r.selfMs.toFixed(0).padStart(7)} ms ${((r.selfMs / total) * 100).toFixed(1).padStart(5)} %  ${r.name}`);
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  const quick = argv.includes('--quick');
  const names = argv.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !SPECS.some((s) => s.name === n));
  if (unknown.length > 0) {
    console.error(`bench: unknown benchmark ${unknown.join(', ')}\n${USAGE}`);
    return 2;
  }
  const specs = names.length > 0 ? SPECS.filter((s) => names.includes(s.name)) : SPECS;
  const header = machine();
  console.log(`compsim benchmarks${quick ? ' (--quick: small sizes)' : ''}\n${header}`);
  const t0 = performance.now();
  const root = argv.includes('--source') ? REPO : build();
  const ext = root === REPO ? '.ts' : '.js';
  const rows: BenchRow[] = [];
  for (const spec of specs) {
    const t = performance.now();
    process.stdout.write(`running ${spec.name} ... `);
    const profileDir = argv.includes('--profile') ? join(tmpdir(), `compsim-bench-profile-${spec.name}`) : null;
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
    const got = await runOne(root, spec, ext, quick, profileDir);
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
    for (const r of got) console.log(`  ${r.id}  ${r.value}${r.pass === false ? '  (target missed)' : ''}`);
    if (profileDir && existsSync(profileDir)) printProfile(profileDir, spec.name);
    rows.push(...got);
  }
  rows.sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id));
  console.log(`\n${textTable(rows)}\n\n(${((performance.now() - t0) / 1000).toFixed(0)} s in all)`);
  if (!argv.includes('--no-write') && !quick && names.length === 0) {
    const md = [
      '# compsim benchmark results',
      '',
      'Written by `npm run bench` (bench/run.ts); each benchmark ran in its own process, compiled with tsc (no tsx).',
      '',
      `Machine: ${header}. Run: ${new Date().toISOString().slice(0, 10)}.`,
      '',
      markdownTable(rows),
      '',
    ].join('\n');
    writeFileSync(join(REPO, 'bench', 'results.md'), md);
    console.log('wrote bench/results.md');
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
