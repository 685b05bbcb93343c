// Typed routes: a route's handler input types derived from its request schemas, so a handler cannot read a field its schema lacks.
import type { EmptySchema, HANDLER_CHECKED, HandlerRequest, HandlerResult, JSONSchema, RouteDef } from './route.js';

/** The schema request validation applies to a value: a handler-checked schema's loose one (see `handlerChecked`). */
type Loose<S> = S extends { readonly [HANDLER_CHECKED]: infer L } ? L : S;

/** Properties of `P` that validation does not require although the object lists them: their rules are the handler's. */
type CheckedKeys<P> = { [K in keyof P]: P[K] extends { readonly [HANDLER_CHECKED]: unknown } ? K : never }[keyof P];

/** Properties of `P` whose (loose) schema has a default: validation fills them in, so the handler always has them. */
type DefaultedKeys<P> = { [K in keyof P]: Loose<P[K]> extends { readonly default: unknown } ? K : never }[keyof P];

/** The keys an object schema `S` with properties `P` guarantees after validation. */
type PresentKeys<S, P> = Exclude<S extends { readonly required: readonly (infer R)[] } ? R : never, CheckedKeys<P>> | DefaultedKeys<P>;

/** Flattens an intersection of object types into one (readable in editors and error messages). */
type Flat<T> = { [K in keyof T]: T[K] };

/** An object schema: exactly its declared properties (others may arrive, but a handler reads only what is declared). */
type ObjectOf<S> = S extends { readonly properties: infer P }
  ? Flat<{ -readonly [K in keyof P & PresentKeys<S, P>]: Infer<P[K]> } & { -readonly [K in Exclude<keyof P, PresentKeys<S, P>>]?: Infer<P[K]> }>
  : S extends { readonly additionalProperties: infer A extends object } ? Record<string, Infer<A>>
  : Record<string, unknown>;

/** A value of JSON Schema type name `T` (one of the names of `type`). */
type OfType<S, T> =
  T extends 'string' ? string
  : T extends 'number' | 'integer' ? number
  : T extends 'boolean' ? boolean
  : T extends 'null' ? null
  : T extends 'array' ? (S extends { readonly items: infer I } ? Infer<I>[] : unknown[])
  : T extends 'object' ? ObjectOf<S>
  : unknown;

/**
 * The value request validation lets through for the schema type `S`, for the keywords the request
 * schemas use: a handler-checked schema is read as its loose one, `const`, `enum`, `type` (one name
 * or a list), `anyOf`/`oneOf` branches where no `type` is given, `items`, and for objects
 * `properties` (required ones, and those given a default, present), `additionalProperties`.
 * Keywords that only narrow a value (`format`, `pattern`, `minimum`, `not`, `if`) add nothing.
 * A schema typed as a plain `JSONSchema` gives `unknown`.
 */
export type Infer<S> =
  S extends { readonly [HANDLER_CHECKED]: infer L } ? Infer<L>
  : S extends { readonly const: infer C } ? C
  : S extends { readonly enum: readonly (infer E)[] } ? E
  : S extends { readonly type: infer T } ? (T extends readonly (infer U)[] ? OfType<S, U> : OfType<S, T>)
  : S extends { readonly anyOf: readonly (infer B)[] } ? Infer<B>
  : S extends { readonly oneOf: readonly (infer B)[] } ? Infer<B>
  : unknown;

/** The value a handler receives for a request part validated by schema `S` (`unknown` when the route has none). */
export type Input<S> = [S] extends [undefined] ? unknown : Infer<S>;

/** Request schemas of a typed route. */
export interface RouteSchemas {
  params?: JSONSchema;
  query?: JSONSchema;
  body?: JSONSchema;
  responses?: Record<number, JSONSchema>;
}

/** A RouteDef whose handler's `body` and `query` are typed from its own request schemas. */
export type TypedRouteDef<S extends RouteSchemas> = Omit<RouteDef, 'schemas' | 'handler'> & {
  schemas?: S;
  handler: (req: HandlerRequest<Input<S['body']>, Input<S['query']>>) => Promise<HandlerResult>;
};

/**
 * One route, its handler's input typed from its request schemas: `body` and `query` are what
 * validation lets through (defaults filled in, query text coerced), and reading a field the schema
 * does not declare is a compile error.
 */
export function route<S extends RouteSchemas = EmptySchema>(def: TypedRouteDef<S>): RouteDef {
  return def;
}
