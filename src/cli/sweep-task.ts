// One run of `compsim sweep` as a pool task: the scenario with a seed and varied world settings, in a fresh in-process world, read back as final standings.
import { runScenario } from '../harness/runner.js';
import { readStandings, variantDoc, type Standing, type SweepRun, type Vary } from '../research/sweep.js';
import type { Json, ScenarioDoc } from '../harness/types.js';
import { inProcessTarget } from '../world/in-process-target.js';
import type { TaskContext } from './pool.js';

/** What every run of one sweep shares. */
export interface SweepSetup { file: string; name: string; doc: ScenarioDoc; vary: Vary[] }

/** One run to make: its place, variant, seed and varied values (none for the base run). */
export interface SweepInput { run: number; variant: number; seed: number | string; values: Json[] }

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
