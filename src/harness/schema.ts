// Validates scenario documents against scenario.schema.json (Ajv, compiled ahead of time) with messages naming the file, the step and the key.
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { checkMatcher } from './matcher.js';
import { VERBS, type Scenario, type ScenarioDoc } from './types.js';
import * as generated from './validators.generated.js';

/** A scenario file that cannot run: every problem, each naming the file and where. */
export class ScenarioError extends Error {
  constructor(readonly file: string, readonly problems: string[]) {
    super(problems.map((p) => `${file}: ${p}`).join('\n'));
    this.name = 'ScenarioError';
  }
}

/** Location of the shipped schema (package root, next to package.json, from src/ or dist/). */
export const SCHEMA_URL = new URL('../../scenario.schema.json', import.meta.url);

let schemaDoc: Record<string, unknown> | undefined;

/** The JSON Schema document (parsed once). */
export function scenarioSchema(): Record<string, unknown> {
  return (schemaDoc ??= JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as Record<string, unknown>);
}

/**
 * The schema's validators as code generated from it (`npm run gen:validators`): the top level,
 * whose `steps` need only be objects, and one precise validator per verb. Compiling them when a
 * process first loads a scenario cost about 150 ms of every `compsim run`.
 */
const validators = generated as unknown as { top: ValidateFunction } & Record<string, ValidateFunction | undefined>;
/** Step validators by verb (a module namespace object is slow to index with a computed key). */
const stepValidators = new Map(VERBS.map((verb) => [verb as string, validators[`${verb}Step`]]));

function stepValidator(verb: string): ValidateFunction {
  const validate = stepValidators.get(verb);
  if (validate === undefined) throw new Error(`no validator for ${verb} steps: run npm run gen:validators`);
  return validate;
}

/** `/steps/3/expect` -> `steps[3].expect`. */
function where(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  }
  return out;
}

function describe(e: ErrorObject, prefix: string): string | null {
  const at = `${prefix}${where(e.instancePath)}` || 'top level';
  if (e.propertyName !== undefined && e.keyword === 'pattern') return `${at}: '${e.propertyName}' is not a valid name (a letter or _ first, then letters, digits, _ or -)`;
  switch (e.keyword) {
    case 'additionalProperties': return `${at}: unknown key '${String(e.params.additionalProperty)}'`;
    case 'required': return `${at}: missing key '${String(e.params.missingProperty)}'`;
    case 'enum': return `${at}: must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type': return `${at}: must be ${String(e.params.type).split(',').join(' or ')}`;
    case 'const': return `${at}: must be ${JSON.stringify(e.params.allowedValue)}`;
    case 'propertyNames': case 'if': return null; // explained by the nested error
    case 'anyOf': case 'oneOf': case 'allOf': return `${at}: ${e.message ?? 'is not valid'}`;
    case 'not':
      if (e.propertyName !== undefined) return `${at}: the name '${e.propertyName}' is reserved`;
      return e.instancePath.startsWith('/actors/') ? `${at}: give 'register' or 'key', not both` : `${at}: is not allowed here`;
    default: {
      const hint = e.keyword === 'pattern' ? (e.parentSchema as { description?: string } | undefined)?.description : undefined;
      if (hint) return `${at}: ${JSON.stringify(e.data)} is not valid (${hint})`;
      return `${at}: ${e.message ?? 'is not valid'}`;
    }
  }
}

/** Keeps the most specific messages: a union failure is dropped when an error below it explains it. */
function messages(errors: readonly ErrorObject[], prefix: string): string[] {
  const specific = errors.filter((e) => !['anyOf', 'oneOf', 'allOf'].includes(e.keyword));
  const unions = errors.filter((e) => ['anyOf', 'oneOf', 'allOf'].includes(e.keyword)
    && !specific.some((s) => s.instancePath.startsWith(e.instancePath)));
  return [...new Set([...specific, ...unions].map((e) => describe(e, prefix)).filter((m): m is string => m !== null))];
}

function stepProblems(step: unknown, i: number): string[] {
  const at = `steps[${i}]`;
  if (step === null || typeof step !== 'object' || Array.isArray(step)) return [`${at}: must be an object`];
  const keys = Object.keys(step);
  const verbs = VERBS.filter((v) => keys.includes(v));
  if (verbs.length === 0) {
    const unknown = keys.map((k) => `'${k}'`).join(', ') || 'no keys';
    return [`${at}: not a step (found ${unknown}; expected exactly one of ${VERBS.join(', ')})`];
  }
  if (verbs.length > 1) return [`${at}: has ${verbs.map((v) => `'${v}'`).join(' and ')}; a step does exactly one thing`];
  const verb = verbs[0]!;
  const validate = stepValidator(verb);
  const out: string[] = [];
  if (!validate(step)) {
    const label = `${at} (${verb})`;
    const errs = (validate.errors ?? []).filter((e) => !e.instancePath.startsWith('/expect/body'));
    out.push(...messages(errs, '').map((m) => (m.startsWith('top level') ? `${label}${m.slice('top level'.length)}` : `${label}.${m}`)));
  }
  const expect = (step as { expect?: { body?: unknown } }).expect;
  if (verb === 'call' && expect && typeof expect === 'object' && 'body' in expect) out.push(...checkMatcher(expect.body, `${at} (call).expect.body`));
  return out;
}

/** Validates a parsed document; throws {@link ScenarioError} listing every problem. */
export function validateScenario(doc: unknown, file: string): ScenarioDoc {
  const { top } = validators;
  const problems: string[] = [];
  if (!top(doc)) problems.push(...messages(top.errors ?? [], ''));
  const steps = (doc as { steps?: unknown } | null)?.steps;
  if (Array.isArray(steps)) steps.forEach((s, i) => problems.push(...stepProblems(s, i)));
  if (problems.length > 0) throw new ScenarioError(file, problems);
  return doc as ScenarioDoc;
}

/** Parses and validates scenario text. */
export function parseScenario(text: string, file: string): Scenario {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ScenarioError(file, [`not valid JSON: ${(err as Error).message}`]);
  }
  const name = file.split(/[\\/]/).pop()!.replace(/\.scenario\.json$/, '').replace(/\.json$/, '');
  return { file, name, doc: validateScenario(doc, file) };
}

/** Reads, parses and validates one scenario file. */
export function loadScenario(file: string): Scenario {
  let text: string;
  try {
    // Most files are ASCII, whose one-byte decoding is a copy (a third of UTF-8's 120 ms for a 46 MB week).
    const bytes = readFileSync(file);
    text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  } catch (err) {
    throw new ScenarioError(file, [`cannot read: ${(err as Error).message}`]);
  }
  return parseScenario(text, file);
}
