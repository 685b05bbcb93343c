// One run of a sweep as a pool task: the scenario with a seed and varied world settings in a fresh in-process world, read back as final standings.
import { pages } from '../harness/report.js';
import type { TaskContext } from '../harness/pool.js';
import { runScenario } from '../harness/runner.js';
import type { Target } from '../harness/targets.js';
import type { Json, ScenarioDoc } from '../harness/types.js';
import { inProcessTarget } from '../world/in-process-target.js';
import { variantDoc, type Vary } from './sweep-input.js';
import type { Standing, SweepRun } from './sweep-stats.js';

/** What every run of one sweep shares. */
export interface SweepSetup { file: string; name: string; doc: ScenarioDoc; vary: Vary[] }

/** One run to make: its place, variant, seed and varied values (none for the base run). */
export interface SweepInput { run: number; variant: number; seed: number | string; values: Json[] }

type Body = Record<string, unknown>;

/** Reads the final leaderboard of every active or ended competition (`GET /api/competitions/{id}/agents`, inactive agents included). */
export async function readStandings(target: Target, adminKey: string): Promise<Standing[]> {
  const out: Standing[] = [];
  const used = new Map<string, number>();
  for (const status of ['active', 'ended']) {
    const list = await pages(target, adminKey, '/api/competitions', 'competitions', { status });
    for (const c of list) {
      const rows = await pages(target, adminKey, `/api/competitions/${String(c.id)}/agents`, 'agents', { includeInactive: 'true' });
      const name = String(c.name);
      const n = (used.get(name) ?? 0) + 1;
      used.set(name, n);
      const names = new Map<string, number>();
      const agents = rows.map((a: Body) => {
        const base = String(a.name);
        const k = (names.get(base) ?? 0) + 1;
        names.set(base, k);
        return {
          agent: k === 1 ? base : `${base} (${k})`, rank: Number(a.rank), value: Number(a.portfolioValue),
          pnl: Number(a.pnl), pnlPercent: typeof a.pnlPercent === 'number' ? a.pnlPercent : null,
        };
      }).sort((x, y) => x.rank - y.rank || (x.agent < y.agent ? -1 : 1));
      out.push({ competition: n === 1 ? name : `${name} (${n})`, agents });
    }
  }
  return out;
}


/** The pool task: runs the variant, expectations unchecked, and reads every competition's final leaderboard. */
export async function sweepRun(input: SweepInput, ctx: TaskContext<SweepSetup>): Promise<SweepRun> {
  const { file, name, doc, vary } = ctx.setup;
  const target = inProcessTarget();
  let standings: Standing[] = [];
  let readProblem = '';
  try {
    const sc = { file, name, doc: input.variant < 0 ? doc : variantDoc(doc, input.seed, vary, input.values) };
    const r = await runScenario(sc, target, {
      keepLog: false, checkExpectations: false,
      afterSteps: async (key) => {
        try {
          standings = await readStandings(target, key);
        } catch (err) {
          readProblem = `reading the standings: ${(err as Error).message}`;
        }
      },
    });
    const failure = r.failure ? `at ${r.failure.at} (${r.failure.verb}): ${r.failure.message}` : readProblem;
    return {
      run: input.run, variant: input.variant, seed: input.seed, ok: failure === '', failure,
      steps: r.steps, stepsPassed: r.stepsPassed, requests: r.requests, hash: r.hash, standings,
    };
  } finally {
    await target.close();
  }
}
