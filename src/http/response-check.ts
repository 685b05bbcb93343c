// Test-mode response checking: every answer is validated against its route's documented response schema (the OpenAPI document's), so docs and behaviour cannot drift.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from './ajv.js';
import type { JSONSchema, RouteDef } from './route.js';
import { ROUTES } from './resources/index.js';
import { COMPONENTS, documentedResponses, ErrorResponse } from './responses.js';

/** An answer as the checker sees it. */
export interface CheckedResponse {
  /** The matched route, or null (unknown path, body-parser failure). */
  routeId: string | null;
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** An answer that does not match its documentation. */
export interface ResponseViolation extends CheckedResponse {
  /** One line naming the route, the status and what is wrong (Ajv's error text, or the undocumented status). */
  message: string;
  /** Ajv's errors, when the body failed its schema. */
  errors?: ErrorObject[];
}

/** Checks answers against a route table's documented responses. */
export interface ResponseChecker {
  /** Null when the answer matches (or its route documents nothing, e.g. a test's own route). */
  check(res: CheckedResponse): ResponseViolation | null;
}

const DOC_ID = 'urn:compsim:responses';

/** Validators per route id and status, compiled once for a route table. */
const cache = new WeakMap<readonly RouteDef[], ResponseChecker>();

function excerpt(body: unknown): string {
  const text = JSON.stringify(body) ?? String(body);
  return text.length > 400 ? `${text.slice(0, 400)}...` : text;
}

/**
 * Builds (or reuses) the checker of `routes`. All response schemas are compiled as one document
 * (`components.schemas` plus one entry per route and status), the same `$ref`s the OpenAPI document uses.
 */
export function createResponseChecker(routes: readonly RouteDef[] = ROUTES): ResponseChecker {
  const cached = cache.get(routes);
  if (cached) return cached;
  const ajv = createAjv('response');
  const defs: Record<string, JSONSchema> = { error: ErrorResponse };
  const keys = new Map<string, Map<number, string>>();
  routes.forEach((def, i) => {
    if (!def.schemas?.responses) return;
    const byStatus = new Map<number, string>();
    for (const [status, schema] of documentedResponses(def)) {
      const key = `r${i}s${status}`;
      defs[key] = schema;
      byStatus.set(status, key);
    }
    keys.set(def.id, byStatus);
  });
  ajv.addSchema({ $id: DOC_ID, components: { schemas: COMPONENTS }, $defs: defs });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (key: string): ValidateFunction => {
    let fn = compiled.get(key);
    if (!fn) {
      fn = ajv.getSchema(`${DOC_ID}#/$defs/${key}`);
      if (!fn) throw new Error(`response schema ${key} not found`);
      compiled.set(key, fn);
    }
    return fn;
  };
  const checker: ResponseChecker = {
    check(res) {
      const where = `${res.routeId ?? '(no route)'} ${res.method} ${res.path} -> ${res.status}`;
      let key: string;
      if (res.routeId === null) {
        // Answered before routing: only errors happen there, always in the envelope.
        if (res.status < 400) return null;
        key = 'error';
      } else {
        const byStatus = keys.get(res.routeId);
        if (!byStatus) return null;
        const k = byStatus.get(res.status);
        if (!k) return { ...res, message: `${where}: status ${res.status} is not documented for this route (documented: ${[...byStatus.keys()].join(', ')}); body ${excerpt(res.body)}` };
        key = k;
      }
      const fn = validator(key);
      if (fn(res.body)) return null;
      const errors = fn.errors ?? [];
      return { ...res, errors, message: `${where}: ${ajv.errorsText(errors, { dataVar: 'body' })}; body ${excerpt(res.body)}` };
    },
  };
  cache.set(routes, checker);
  return checker;
}
