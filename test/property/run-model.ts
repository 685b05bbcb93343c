// Runs the trading command model with fast-check (asyncModelRun), shrinks a failure and saves it as a regression scenario that replays the failure.
import fc from 'fast-check';
import { checkedInProcessTarget } from '../helpers/answers.js';
import { runScenario, type ScenarioResult } from '../../src/harness/runner.js';
import { parseScenario } from '../../src/harness/schema.js';
import type { ScenarioDoc } from '../../src/harness/types.js';
import type { Figures } from './budget.js';
import { commandArbitraries, prefix } from './command-arbs.js';
import { everything } from './commands.js';
import { Driver, type WorldStart } from './driver.js';
import { InvariantError, sweep, type Real } from './harness.js';
import { newModel, type FakeBug, type Model } from './model.js';
import { Recorder, REGRESSIONS_DIR, renderScenario, scenarioDoc, writeRegression } from './regressions.js';

/** Options of {@link runModel}. */
export interface ModelRunOptions {
  seed: number;
  numRuns: number;
  maxCommands: number;
  slippage: Model['slippage'];
  fig: Figures;
  /** A deliberate model error (tests of the writer only). */
  fakeBug?: FakeBug;
  /** Where a shrunk failure is written (default scenarios/regressions; null: not written). */
  dir?: string | null;
}

/** Outcome of {@link runModel}. */
export interface ModelRunResult {
  failed: boolean;
  /** The invariant message of the shrunk counterexample. */
  message?: string;
  /** fast-check's rendering of the shrunk command list. */
  counterexample?: string;
  /** The scenario of the shrunk failure, its file and its in-process replay. */
  doc?: ScenarioDoc;
  file?: string;
  replay?: ScenarioResult;
}

const START = '2025-06-02T12:00:00.000Z';

/**
 * Runs `numRuns` command sequences of up to `maxCommands` commands, checking every invariant
 * after every command. On a failure fast-check shrinks the sequence; the last failing run (the
 * shrunk one) becomes a scenario, which is replayed in-process to prove it reproduces the
 * failure, then written as `<dir>/<hash>.scenario.json`.
 */
export async function runModel(o: ModelRunOptions): Promise<ModelRunResult> {
  const start: WorldStart = { seed: o.seed, startTime: START, world: { slippage: o.slippage } };
  const driver = await Driver.create(start);
  let last: { rec: Recorder; message: string } | undefined;
  const property = fc.asyncProperty(fc.commands(commandArbitraries(), { maxCommands: o.maxCommands, size: 'max' }), async (cmds) => {
    o.fig.runs += 1;
    const before = driver.requests;
    await driver.reset();
    const model = newModel(Date.parse(START), o.slippage, driver.world.config.snapshotIntervalMs, o.fakeBug ?? 'none');
    const real: Real = { d: driver, rec: new Recorder(), fig: o.fig };
    try {
      for (const c of prefix()) await c.run(model, real);
      await fc.asyncModelRun(() => ({ model, real }), cmds);
      await sweep(model, real, everything());
    } catch (err) {
      if (err instanceof InvariantError) last = { rec: real.rec, message: err.message };
      throw err;
    } finally {
      o.fig.requests += driver.requests - before;
    }
  });
  const details = await fc.check(property, { seed: o.seed, numRuns: o.numRuns });
  if (!details.failed) return { failed: false };
  const counterexample = details.counterexample ? String(details.counterexample[0]) : undefined;
  if (!last) throw new Error(`the command model failed outside an invariant check: ${String(details.errorInstance)}\n${counterexample}`);
  const doc = scenarioDoc(start, last.rec.steps,
    `Shrunk counterexample of the trading command model (test/property/trading-model.prop.test.ts, seed ${o.seed}, slippage ${o.slippage}): ${last.message}`);
  const replay = await runScenario(parseScenario(renderScenario(doc), 'regression'), checkedInProcessTarget());
  const dir = o.dir === undefined ? REGRESSIONS_DIR : o.dir;
  const file = dir === null ? undefined : writeRegression(doc, dir);
  return { failed: true, message: last.message, ...(counterexample !== undefined ? { counterexample } : {}), doc, ...(file ? { file } : {}), replay };
}

/**
 * One command sequence (sampled from the model's arbitrary with `seed`) run through the model and
 * recorded as a scenario: every command with the model's expectations. Used by the determinism tests.
 */
export async function recordRun(seed: number, commands: number, slippage: Model['slippage'], fig: Figures): Promise<ScenarioDoc> {
  const start: WorldStart = { seed, startTime: START, world: { slippage } };
  const driver = await Driver.create(start);
  const [cmds] = fc.sample(fc.commands(commandArbitraries(), { maxCommands: commands, size: 'max' }), { seed, numRuns: 1 });
  const model = newModel(Date.parse(START), slippage, driver.world.config.snapshotIntervalMs);
  const real: Real = { d: driver, rec: new Recorder(), fig };
  for (const c of prefix()) await c.run(model, real);
  await fc.asyncModelRun(() => ({ model, real }), cmds!);
  fig.requests += driver.requests;
  return scenarioDoc(start, real.rec.steps, `Recorded command-model run (seed ${seed}, slippage ${slippage})`);
}
