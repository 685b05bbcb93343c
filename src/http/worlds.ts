// WorldsControl: what /api/sim/worlds and the world base paths (/worlds/{id}/...) may ask of the server holding many worlds (src/world/world-host.ts implements it).
import type { HttpWorld } from './route.js';

/** `POST /api/sim/worlds`: how to build the new world. */
export interface CreateWorldInput {
  seed?: number | string;
  /** Virtual start time (epoch ms or ISO). */
  startTime?: number | string;
  /** World options a reset may replace (the same list as `POST /api/sim/reset`). */
  options?: Record<string, unknown>;
  /** A world fixture (the format of `compsim serve --world`), or the name of a bundled one (`demo`). */
  fixture?: Record<string, unknown> | string;
  /** Drop the world once no request has reached it for this many seconds of wall time. */
  idleTtlSeconds?: number;
}

/** A world the server holds. */
export interface WorldInfo {
  id: string;
  /** `/worlds/{id}` (empty for the default world). */
  basePath: string;
  /** Null for a damaged world. */
  seed: number | string | null;
  /** The world's virtual time (epoch ms); null for a damaged world. */
  now: number | null;
  idleTtlSeconds: number | null;
  /** `damaged`: found damaged at start (its files are kept as they are; its routes answer 503). */
  status: 'ok' | 'damaged';
  /** What is damaged: the file and the reason. */
  damage?: { file: string; reason: string };
}

/** A world just created: what it is, its admin key, and what its fixture made (agents with their keys, competitions). */
export interface CreatedWorld extends WorldInfo {
  adminKey: string;
  agents: { id: string; name: string; handle: string; apiKey: string }[];
  competitions: { id: string; name: string; status: string }[];
}

/** Worlds of one server. Rule violations throw `DomainError` (SIM_WORLD_* codes). */
export interface WorldsControl {
  /**
   * Checks a management request's key: the server key, an active admin key of the default world
   * or, for `world`, that world's own admin key. Throws the 401 otherwise.
   */
  authorize(authorization: string | undefined, world?: string): Promise<void>;
  /** Builds a world; the limit answers 429. Resolves once it is durable (with --state). */
  create(input: CreateWorldInput): Promise<CreatedWorld>;
  /** The default world first, then the others in creation order. */
  list(): WorldInfo[];
  /** Drops a world and its state; unknown id is a 404, the default world a 400, a damaged world a 409 while its directory exists. */
  remove(id: string): Promise<void>;
  /**
   * The world a base path names, counted as in use (idle TTLs never expire it) until `release(id)`.
   * Throws the DomainError to answer instead: 404 for an unknown id, 503 for a damaged world.
   * Every door calls it when it selects a world for a request, and `release` once it answered.
   */
  acquire(id: string): HttpWorld;
  /** A request `acquire(id)` handed a world to is answered (a deleted world's state is closed only after its last request). */
  release(id: string): void;
}

/** World ids: lower-case letters, digits and dashes (they are path segments and directory names). */
export const WORLD_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Splits `/worlds/{id}/rest` into the id and `/rest` (`/` when nothing follows); null for other paths. */
export function splitWorldPath(path: string): { id: string; rest: string } | null {
  if (!path.startsWith('/worlds/')) return null;
  const slash = path.indexOf('/', 8);
  const id = slash < 0 ? path.slice(8) : path.slice(8, slash);
  if (id === '') return null;
  return { id, rest: slash < 0 ? '/' : path.slice(slash) };
}

/** A host as a URL may carry it: a DNS name or IPv4 address, or an IPv6 address in brackets, and an optional port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The first value of a (possibly comma-separated) forwarding header, if it is a valid host. */
function validHost(v: string | undefined): string | undefined {
  const h = v?.split(',')[0]?.trim();
  return h !== undefined && h.length <= 261 && HOST.test(h) ? h : undefined;
}

/**
 * The absolute base URL of a world as the caller reached this server: `X-Forwarded-Host` and
 * `X-Forwarded-Proto` when they hold a valid host and `http` or `https` (a proxy sets them), else
 * `Host` and `http`; the base path alone when no valid host is known. Anything else in those
 * headers is ignored, never echoed into the URL.
 */
export function worldUrl(headers: Record<string, string | undefined>, basePath: string): string {
  const host = validHost(headers['x-forwarded-host']) ?? validHost(headers.host);
  if (!host) return basePath;
  const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  return `${proto === 'https' || proto === 'http' ? proto : 'http'}://${host}${basePath}`;
}
