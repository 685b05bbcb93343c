// The answers `compsim fork` reads, checked with compsim's own response schemas (the ones its OpenAPI document shows), made tolerant of extra fields and requiring what the fork uses.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from '../http/ajv.js';
import {
  competitionsAgentsResponses, competitionsGetResponses, competitionsLeaderboardResponses, competitionsRulesResponses, competitionsTimelineResponses,
  competitionsTradesResponses,
} from '../http/resources/competitions/response.js';
import { COMPONENTS } from '../http/resources/shared/response.js';

type Schema = Record<string, unknown>;

/** Keywords kept from a documented schema: the shape and types; values (enums, patterns) are the fork's to judge. */
const KEPT = new Set(['type', 'format', 'properties', 'items', 'anyOf', 'oneOf', 'allOf']);

/**
 * A documented response schema as the fork reads a source's answers: `$ref`s resolved, every
 * object open to fields compsim does not document (another server may add some), nothing required
 * (what the fork needs is required by {@link need}), values not restricted to compsim's lists.
 */
export function tolerant(schema: unknown, depth = 0): Schema {
  if (depth > 32 || schema === null || typeof schema !== 'object') return {};
  let s = schema as Schema;
  if (typeof s.$ref === 'string') s = COMPONENTS[s.$ref.replace('#/components/schemas/', '')] as Schema ?? {};
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (!KEPT.has(k)) continue;
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, ps]) => [p, tolerant(ps, depth + 1)]));
    else if (k === 'items') out[k] = tolerant(v, depth + 1);
    else if (k === 'anyOf' || k === 'oneOf' || k === 'allOf') out[k] = (v as unknown[]).map((x) => tolerant(x, depth + 1));
    else out[k] = v;
  }
  // Ajv takes Infinity (JSON's 1e400) for an integer: a count must be a safe integer.
  if (out.type === 'integer' || (Array.isArray(out.type) && out.type.includes('integer'))) Object.assign(out, { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
  // anyOf of alternatives that each accept anything extra would accept a wrong type anyway: keep the first alternative's shape.
  if (Array.isArray(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  return out;
}

/**
 * Requires fields of `schema` by path: `a.b` (object members), `a[].b` (members of each element),
 * each with an optional extra constraint. Returns the schema (changed in place).
 */
export function need(schema: Schema, paths: Record<string, Schema>): Schema {
  for (const [path, extra] of Object.entries(paths)) {
    let node = schema;
    const parts = path.split('.');
    parts.forEach((part, i) => {
      const array = part.endsWith('[]');
      const key = array ? part.slice(0, -2) : part;
      const props = ((node.properties ??= {}) as Record<string, Schema>);
      node.required = [...new Set([...((node.required as string[] | undefined) ?? []), key])];
      let child = props[key] ??= {};
      if (array) child = (child.items ??= {}) as Schema;
      if (i === parts.length - 1) Object.assign(array ? props[key]! : child, extra);
      node = child;
    });
  }
  return schema;
}

const text = { type: 'string' };
const name = { type: 'string', maxLength: 100 };
const amount = { type: 'number', minimum: 0 };

/** What the fork requires of each answer, beyond the documented types. */
const NEEDS: Record<string, [Schema, Record<string, Schema>]> = {
  competition: [competitionsGetResponses[200]!, { competition: { type: 'object' }, 'competition.id': text }],
  rules: [competitionsRulesResponses[200]!, {}],
  agents: [competitionsAgentsResponses[200]!, { 'agents[]': { type: 'array' }, 'agents[].id': text, 'agents[].name': name }],
  trades: [competitionsTradesResponses[200]!, {
    'trades[]': { type: 'array' }, 'trades[].id': text, 'trades[].agentId': text, 'trades[].timestamp': { type: 'string', format: 'date-time' },
    'trades[].fromToken': text, 'trades[].toToken': text, 'trades[].fromAmount': amount, 'trades[].toAmount': amount, 'trades[].tradeAmountUsd': amount,
  }],
  timeline: [competitionsTimelineResponses[200]!, { 'timeline[]': { type: 'array' }, 'timeline[].agentId': text, 'timeline[].timeline[]': { type: 'array' } }],
  leaderboard: [competitionsLeaderboardResponses[200]!, {}],
};

/** The answers the fork reads. */
export type ForkAnswer = keyof typeof NEEDS;

/** A place in an answer as a reader writes it: `trades[0].fromToken`. */
function where(e: ErrorObject): string {
  const parts = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') parts.push(String((e.params as { missingProperty: string }).missingProperty));
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || 'the answer';
}

/** One error's message: the field and what is wrong with it. */
function message(e: ErrorObject): string {
  if (e.keyword === 'required') return `${where(e)} is missing`;
  if (e.keyword === 'type') return `${where(e)} must be ${String((e.params as { type: string }).type).replace(/,/g, ' or ')}`;
  return `${where(e)} ${e.message ?? 'is not valid'}`;
}

/** Validators of the answers the fork reads: each returns the first problem, naming the field, or null. */
export class AnswerChecks {
  private readonly compiled = new Map<ForkAnswer, ValidateFunction>();
  private readonly ajv: Ajv = createAjv('source');

  /** The check of answer `kind`, compiled on first use. */
  check(kind: ForkAnswer): (body: Record<string, unknown>) => string | null {
    return (body) => {
      let v = this.compiled.get(kind);
      if (!v) {
        const [documented, needs] = NEEDS[kind]!;
        v = this.ajv.compile(need(tolerant(documented), needs));
        this.compiled.set(kind, v);
      }
      return v(body) ? null : message(v.errors![0]!);
    };
  }
}
