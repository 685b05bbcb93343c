// Building blocks of the response schemas: typed JSON Schema helpers, the component registry and `$ref`s to it, the error envelope.
import type { JSONSchema } from '../../route.js';

/** A route's documented answers: HTTP status -> JSON Schema of the body. */
export type Responses = Record<number, JSONSchema>;

/** Named schemas shared by many answers; the OpenAPI document lists them under `components.schemas`. */
export const COMPONENTS: Record<string, JSONSchema> = {};

/** Registers a component and returns a `$ref` to it (use the returned value wherever the shape appears). */
export function component(name: string, schema: JSONSchema): JSONSchema {
  if (COMPONENTS[name]) throw new Error(`duplicate response component ${name}`);
  COMPONENTS[name] = schema;
  return ref(name);
}

/** `$ref` to a registered component. */
export function ref(name: string): JSONSchema {
  return { $ref: `#/components/schemas/${name}` };
}

export const string: JSONSchema = { type: 'string' };
export const number: JSONSchema = { type: 'number' };
export const integer: JSONSchema = { type: 'integer' };
export const boolean: JSONSchema = { type: 'boolean' };
/** Any JSON value (user-supplied metadata and the like). */
export const any: JSONSchema = {};
/** An ISO-8601 instant as the serialisers write it (`toISOString()`). */
export const dateTime: JSONSchema = { type: 'string', format: 'date-time', examples: ['2025-06-02T12:00:00.000Z'] };
export const uuid: JSONSchema = { type: 'string', format: 'uuid', examples: ['3f1c9a4e-6b2d-4e8f-9a7c-1d2e3f4a5b6c'] };

/** `schema` or null: a type list for plain types, `anyOf` around a `$ref` or composite. */
export function nullable(schema: JSONSchema): JSONSchema {
  const t = schema.type;
  if (typeof t === 'string' && schema.$ref === undefined && schema.anyOf === undefined) {
    const out: JSONSchema = { ...schema, type: [t, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** A string out of a closed list. */
export function oneOfStrings(...values: string[]): JSONSchema {
  return { type: 'string', enum: values };
}

/** An array of `items`. */
export function arrayOf(items: JSONSchema): JSONSchema {
  return { type: 'array', items };
}

/** Options of {@link shape}. */
export interface ShapeOptions {
  /** Keys that may be absent. */
  optional?: Record<string, JSONSchema>;
  /** Allow undeclared keys (a documented superset). Default false: a new field must be documented. */
  open?: boolean;
  description?: string;
}

/** An object whose listed properties are all required; `optional` ones may be absent. */
export function shape(required: Record<string, JSONSchema>, options: ShapeOptions = {}): JSONSchema {
  const out: JSONSchema = {
    type: 'object',
    properties: { ...required, ...options.optional },
    required: Object.keys(required),
    additionalProperties: options.open === true,
  };
  if (options.description) out.description = options.description;
  return out;
}

/** A `{success: true, ...}` answer. */
export function ok(required: Record<string, JSONSchema>, options: ShapeOptions = {}): JSONSchema {
  return shape({ success: { type: 'boolean', const: true }, ...required }, options);
}

/** `{success: true, message}`. */
export const okMessage = ok({ message: string });

/** `{success: true}` alone. */
export const okOnly = ok({});

/** The error envelope of every 4xx and 5xx answer (`details` names a failed trade's rule; `inactive` marks a deactivated team). */
export const ErrorResponse = component('ErrorResponse', {
  ...shape({ success: { type: 'boolean', const: false }, error: string }, {
    optional: {
      details: { type: 'object', description: 'The rule that refused a trade, its inputs and the limit that applied' },
      inactive: { type: 'boolean', const: true, description: 'Set on the 403 of a deactivated team' },
      agent: { type: 'object', description: 'The agent of an "already (in)active" answer' },
      team: { type: 'object', description: 'The team of an "already (in)active" answer' },
    },
  }),
  examples: [{ success: false, error: 'Competition not found' }],
});

/** Error envelope entries for these statuses. */
export function errors(...statuses: number[]): Responses {
  return Object.fromEntries(statuses.map((s) => [s, ErrorResponse]));
}

/** `{total, limit, offset, hasMore}` of paged lists. */
export const Pagination = component('Pagination', shape({ total: integer, limit: integer, offset: integer, hasMore: boolean }));
