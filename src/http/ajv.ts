// The one Ajv factory: every JSON Schema validator of compsim (requests, responses, world documents, scenario files, tests) is made here, with its options and formats.
import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
type FormatsPlugin = ((a: Ajv) => Ajv) & { get(name: 'date-time'): { validate: (s: string) => boolean } };
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as FormatsPlugin;

/**
 * What a validator is for; each purpose fixes the dialect and the options:
 * - `body`: request bodies (draft-07; every error, defaults filled in, no coercion: JSON has types);
 * - `params`: path and query parameters (as `body`, but text is coerced to the schema's type);
 * - `response`: answers against the OpenAPI 3.1 document's schemas (draft 2020-12, every error);
 * - `contract-body` / `contract-params`: requests read as the OpenAPI document says (draft 2020-12,
 *   no defaults; parameters coerced, as OpenAPI reads their text);
 * - `document`: world documents before a load (first error only, fast; NaN and infinities are not numbers);
 * - `scenario`: scenario files (strict schema, every error with its data; also compiled ahead of time);
 * - `source`: another server's answers as `compsim fork` reads them, against the document's schemas
 *   (draft 2020-12, first error only: the fork reports one field and stops).
 */
export type AjvPurpose = 'body' | 'params' | 'response' | 'contract-body' | 'contract-params' | 'document' | 'scenario' | 'source';

const OPTIONS: Record<AjvPurpose, Options> = {
  body: { allErrors: true, coerceTypes: false, useDefaults: true, strict: false, verbose: true },
  params: { allErrors: true, coerceTypes: 'array', useDefaults: true, strict: false, verbose: true },
  response: { allErrors: true, strict: false },
  'contract-body': { allErrors: true, strict: false },
  'contract-params': { allErrors: true, strict: false, coerceTypes: true },
  document: { allErrors: false, strict: false, strictNumbers: true },
  scenario: { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, verbose: true },
  source: { allErrors: false, strict: false },
};

/** Purposes whose schemas are OpenAPI 3.1 (JSON Schema 2020-12) rather than draft-07. */
const DRAFT_2020 = new Set<AjvPurpose>(['response', 'contract-body', 'contract-params', 'source']);

const rfc3339 = addFormats.get('date-time');

/**
 * `date-time` as compsim reads it: an RFC 3339 instant (what the document promises) that is also a
 * real instant to `Date.parse` (RFC 3339 allows a leap second, which JavaScript dates cannot hold).
 */
export function isDateTime(s: string): boolean {
  return rfc3339.validate(s) && Number.isFinite(Date.parse(s));
}

/** Purposes that read the document's own `x-` keywords as the rules they state. */
const CONTRACT = new Set<AjvPurpose>(['contract-body', 'contract-params']);

/**
 * `x-at-least-one` (the request schemas' way to say "at least one of these properties", see
 * `AT_LEAST_ONE`) as a keyword: an object holding none of the listed properties is invalid.
 */
function addAtLeastOne(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: 'x-at-least-one', type: 'object', schemaType: 'array',
    validate: (names: string[], data: Record<string, unknown>) => names.some((n) => Object.prototype.hasOwnProperty.call(data, n)),
  });
}

/**
 * A new Ajv for `purpose`, with the ajv-formats formats (`date-time` as {@link isDateTime}, except
 * for scenario files: their validators are compiled ahead of time into a module that loads
 * ajv-formats' own). `extra` adds options a caller needs besides its purpose's (the generator's code output).
 */
export function createAjv(purpose: AjvPurpose, extra: Options = {}): Ajv {
  const options = { ...OPTIONS[purpose], ...extra };
  const ajv = DRAFT_2020.has(purpose) ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  if (purpose !== 'scenario') ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  if (CONTRACT.has(purpose)) addAtLeastOne(ajv);
  return ajv;
}
