// Regression writer: records a property run as scenario steps (ids turned into ${names}) and saves a shrunk failure as scenarios/regressions/<hash>.scenario.json.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../src/harness/log.js';
import { parseScenario } from '../../src/harness/schema.js';
import type { Json, ScenarioDoc, Step } from '../../src/harness/types.js';
import type { WorldStart } from './driver.js';

/** Where shrunk failures of the property tests go; `npm test` runs every file there (test/scenarios.test.ts). */
export const REGRESSIONS_DIR = join(import.meta.dirname, '..', '..', 'scenarios', 'regressions');

/**
 * The steps of one run. Values the target chose (agent ids, competition ids, trade ids) are
 * replaced by `${name...}` interpolations of the actor or saved value that holds them, so the
 * file reads like a hand-written scenario and replays on any target.
 */
export class Recorder {
  readonly steps: Step[] = [];
  private readonly names: { real: string; sym: string }[] = [];

  /** Declares that `real` is known in the scenario as `sym` (e.g. `${a1.id}`). */
  name(real: string, sym: string): void {
    if (real === '' || this.names.some((n) => n.real === real)) return;
    this.names.push({ real, sym });
    // Longest first, so an id never gets replaced inside a longer one.
    this.names.sort((a, b) => b.real.length - a.real.length);
  }

  /** `value` with every known real value replaced by its name (whole strings stay typed interpolations). */
  symbolize<T>(value: T): T {
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        let s = v.split('${').join('$${');
        for (const { real, sym } of this.names) s = s.split(real).join(sym);
        return s;
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
      return v;
    };
    return walk(value) as T;
  }

  /** Appends a step (symbolized). */
  add(step: Step): void {
    this.steps.push(this.symbolize(step));
  }
}

/** A scenario document of a recorded run. */
export function scenarioDoc(start: WorldStart, steps: Step[], description: string): ScenarioDoc {
  return {
    $schema: '../../scenario.schema.json', description, seed: start.seed, startTime: start.startTime,
    world: start.world, steps,
  };
}

/** The file name's hash: SHA-256 of the canonical scenario without its description (first 16 hex digits). */
export function regressionHash(doc: ScenarioDoc): string {
  const { description: _d, $schema: _s, ...rest } = doc;
  return createHash('sha256').update(canonicalJson(rest as unknown as Json)).digest('hex').slice(0, 16);
}

/** Pretty JSON with one step per line (the library's style), ending in a newline. */
export function renderScenario(doc: ScenarioDoc): string {
  const { steps, ...head } = doc;
  const top = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  const lines = steps.map((s) => `    ${JSON.stringify(s)}`);
  return `${top},\n  "steps": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

/**
 * Validates `doc` against scenario.schema.json (throws a ScenarioError naming the problem) and
 * writes it as `<dir>/<hash>.scenario.json`; returns the path. The same failure always gets the
 * same file.
 */
export function writeRegression(doc: ScenarioDoc, dir: string = REGRESSIONS_DIR): string {
  const text = renderScenario(doc);
  const file = join(dir, `${regressionHash(doc)}.scenario.json`);
  parseScenario(text, file);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, text);
  return file;
}
