// The world-per-scenario target: on a server holding many worlds, each scenario runs in a world of its own, created before it and deleted after it.
import { httpTarget, parseBody, unreachable, type Target } from './targets.js';

/** A world a scenario ran in. */
export interface ScenarioWorld {
  /** The scenario file. */
  file: string;
  id: string;
  /** Base URL of the world (`<server>/worlds/<id>`). */
  url: string;
  adminKey: string;
}

/** Options of {@link worldTarget}. */
export interface WorldTargetOptions {
  /** A key that may create worlds on the server: its server key or an admin key of its default world. */
  adminKey: string;
  /** Keep every world after its scenario (default: delete it). */
  keep?: boolean;
  /** `fetch` implementation (tests). */
  fetch?: typeof fetch;
}

/**
 * A target that creates a fresh world (`POST /api/sim/worlds`) for each scenario and runs it
 * there, so the server's default world and every other world stay as they were. A world is
 * deleted when the next scenario begins or the target closes (after the run's report reads), unless
 * `keep` is set; `worlds` lists the ones that were kept. The requests the runner logs are the same
 * as on any other target (paths stay `/api/...`), so the hashes are too.
 */
export function worldTarget(baseUrl: string, options: WorldTargetOptions): Target & { readonly worlds: readonly ScenarioWorld[] } {
  const base = baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const auth = { authorization: `Bearer ${options.adminKey}` };
  const kept: ScenarioWorld[] = [];
  let current: { world: ScenarioWorld; target: Target } | undefined;

  const call = async (method: string, path: string, body?: unknown) => {
    try {
      const res = await doFetch(`${base}${path}`, {
        method, headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: parseBody(await res.text()) as Record<string, unknown> | string | undefined };
    } catch (err) {
      throw unreachable(base, err);
    }
  };

  const finish = async () => {
    const done = current;
    current = undefined;
    if (!done) return;
    if (options.keep) {
      kept.push(done.world);
      return;
    }
    const res = await call('DELETE', `/api/sim/worlds/${encodeURIComponent(done.world.id)}`);
    // Already gone (an idle TTL, someone else) is as good as deleted.
    if (res.status !== 200 && res.status !== 404) throw new Error(`cannot delete world ${done.world.id} on ${base}: ${res.status} ${JSON.stringify(res.body)}`);
  };

  return {
    label: base,
    get worlds() {
      return kept;
    },
    async begin(sc) {
      await finish();
      const res = await call('POST', '/api/sim/worlds', { seed: sc.doc.seed });
      const b = (typeof res.body === 'object' && res.body !== null ? res.body : {}) as Record<string, unknown>;
      if (res.status !== 201 || typeof b.id !== 'string' || typeof b.adminKey !== 'string' || typeof b.basePath !== 'string') {
        throw new Error(`cannot create a world on ${base}: POST /api/sim/worlds answered ${res.status} ${JSON.stringify(res.body)} `
          + '(a compsim server started with --sim-api creates worlds with its server key or the admin key of its default world; '
          + 'run in the default world instead with --target-world default)');
      }
      const world = { file: sc.file, id: b.id, url: `${base}${b.basePath}`, adminKey: b.adminKey };
      current = { world, target: httpTarget(world.url, { adminKey: world.adminKey, ...(options.fetch ? { fetch: options.fetch } : {}) }) };
      return { adminKey: world.adminKey };
    },
    async send(req) {
      if (!current) throw new Error('world target: begin() was not called');
      return current.target.send(req);
    },
    close: finish,
  };
}
