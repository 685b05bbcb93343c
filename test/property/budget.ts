// Test budget of the property and fuzz tests: short fixed-seed runs by default, long ones under `npm run test:deep` (`--deep`), plus run figures.

/** True under `npm run test:deep` (mocha is started with the extra `--deep` argument, which mocha ignores). */
export const DEEP = process.argv.includes('--deep');
/** True under `npm run test:fast` (the extra `--fast` argument): the same properties, fewer runs. */
export const FAST = process.argv.includes('--fast');

/** The default-run figure, the deep-run one, or (given) the fast-lane one. */
export function budget<T>(normal: T, deep: T, fast: T = normal): T {
  return DEEP ? deep : FAST ? fast : normal;
}

/** Seeds of the property runs: fixed, so `npm test` is reproducible (the deep run uses the same seeds, longer). */
export const SEEDS = { model: 20250801, upstream: 20250802, hostile: 20250803, http: 20250804 } as const;

/** Counters of one property or fuzz test, printed in deep runs. */
export interface Figures { label: string; runs: number; commands: number; requests: number; findings: string[]; ms: number }

/** A named counter set; reported by {@link reportFigures}. */
export function figures(label: string): Figures {
  return { label, runs: 0, commands: 0, requests: 0, findings: [], ms: 0 };
}

/** Times `fn` into `f.ms` (wall time is only reported, never asserted on). */
export async function timed<T>(f: Figures, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    f.ms += performance.now() - t0;
  }
}

/** One line per counter set and their totals (printed in deep runs; quiet otherwise). */
export function reportFigures(all: readonly Figures[], print: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): void {
  if (!DEEP || all.length === 0) return;
  let commands = 0;
  let requests = 0;
  let ms = 0;
  for (const f of all) {
    commands += f.commands;
    requests += f.requests;
    ms += f.ms;
    print(`[deep] ${f.label}: ${f.runs} runs, ${f.commands} commands, ${f.requests} requests, ${(f.ms / 1000).toFixed(1)} s, findings: ${f.findings.length === 0 ? 'none' : f.findings.join('; ')}`);
  }
  print(`[deep] ${all.length > 1 ? 'together' : 'total'}: ${commands} commands, ${requests} requests, ${(ms / 1000).toFixed(1)} s`);
}
