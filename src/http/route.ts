// RouteDef and handler types: every endpoint is one data value read by Koa mounting, dispatch and (later) OpenAPI/msw.
import type { Deps } from '../domain/deps.js';
import type { Principal } from '../domain/model.js';
import type { SimControl } from './world-port.js';

export type { Principal, SimControl };

/** A JSON Schema object (Ajv dialect). */
export type JSONSchema = Record<string, unknown>;

/** What handlers may use of a world (the real World satisfies it). */
export interface HttpWorld {
  deps: Deps;
  /** Virtual instant the world was created (health uptime). */
  createdAt: number;
  /** Simulation control (`/api/sim/*`, rate limits, faults, journal); absent = none of these. */
  sim?: SimControl;
}

/** A validated request as a handler sees it; no framework objects. */
export interface HandlerRequest {
  world: HttpWorld;
  principal: Principal;
  // Validated by the route's JSON Schemas before the handler runs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query: any;
  params: Record<string, string>;
  headers: Record<string, string>;
}

/** A handler's answer; status defaults to 200. */
export interface HandlerResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** One endpoint. */
export interface RouteDef {
  /** `resource.action`, e.g. 'admin.agents.create'. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI-style path: '/api/admin/agents/{agentId}'. */
  path: string;
  /** `key` = agent/team key, admin key also accepted. */
  auth: 'public' | 'optional' | 'key' | 'admin';
  generation: 'current' | 'legacy' | 'shared' | 'sim';
  tag: string;
  summary: string;
  schemas?: { params?: JSONSchema; query?: JSONSchema; body?: JSONSchema; responses?: Record<number, JSONSchema> };
  /** 400 message format; default `Invalid request: ${where} (${reason})`. */
  invalid?: (where: string, reason: string) => string;
  handler: (req: HandlerRequest) => Promise<HandlerResult>;
}
