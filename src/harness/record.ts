// Turns observed exchanges into a scenario skeleton: call steps with the observed status and body, keys replaced by actor names, ids by saved values.
import type { ActorDef, CallStep, FaultDef, Json, ScenarioDoc, Step } from './types.js';

/** One exchange seen by the recording proxy. */
export interface Exchange {
  method: string;
  /** Path with query string, as the client sent it. */
  url: string;
  /** Lower-case request headers. */
  headers: Record<string, string>;
  requestBody?: Json;
  status: number;
  responseBody?: Json;
}

const KEY_VALUE = /^[0-9a-f]{16}_[0-9a-f]{16}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function bearer(headers: Record<string, string>): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  return m?.[1];
}

/** Paths (dotted) of every object with a string `apiKey` in a body, with the object. */
function keyHolders(body: unknown, path = ''): { path: string; obj: Record<string, unknown> }[] {
  if (Array.isArray(body)) return body.flatMap((v, i) => keyHolders(v, path === '' ? String(i) : `${path}.${i}`));
  if (body === null || typeof body !== 'object') return [];
  const o = body as Record<string, unknown>;
  const here = typeof o.apiKey === 'string' ? [{ path, obj: o }] : [];
  return [...here, ...Object.entries(o).flatMap(([k, v]) => (k === 'apiKey' ? [] : keyHolders(v, path === '' ? k : `${path}.${k}`)))];
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** Every uuid in a body under a key `id` or `...Id`, in document order: its path and the name of the object or field holding it. */
function idsIn(body: unknown, path = '', owner = 'value'): { path: string; id: string; owner: string }[] {
  if (Array.isArray(body)) return body.flatMap((v, i) => idsIn(v, `${path}[${i}]`, owner));
  if (body === null || typeof body !== 'object') return [];
  return Object.entries(body as Record<string, unknown>).flatMap(([k, v]) => {
    const at = join(path, k);
    if (typeof v === 'string' && UUID.test(v) && (k === 'id' || k.endsWith('Id'))) return [{ path: at, id: v, owner: k === 'id' ? owner : k.slice(0, -2) }];
    return idsIn(v, at, k);
  });
}

/**
 * Builds a scenario from exchanges, in order. The admin key (given, or learned from a reset or
 * from a key that succeeded on /api/admin or /api/sim) becomes `admin`; keys created in a
 * response become actors named after the agent's handle; other keys become agent1, agent2, ...
 * declared with their literal key. Sim API calls become advance/setTime/setPrice/snapshot/
 * restore/fault steps; a reset starts the recording over with its seed and options.
 */
export class SkeletonBuilder {
  private steps: Step[] = [];
  private seed: number | string = 1;
  private startTime = '2025-01-01T00:00:00.000Z';
  private world: Record<string, Json> = {};
  private readonly names = new Map<string, string>();
  private declared: Record<string, ActorDef> = {};
  private snapshots = new Map<string, string>();
  private faults = new Map<string, string>();
  /** Ids seen in answers -> the reference later steps use (`name` of a saved value, or `actor.id`). */
  private ids = new Map<string, string>();
  private unnamed = 0;

  constructor(adminKey?: string) {
    if (adminKey) this.names.set(adminKey, 'admin');
  }

  private uniqueName(base: string): string {
    const taken = new Set([...this.names.values(), ...Object.keys(this.declared)]);
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
    return name;
  }

  private actorName(obj: Record<string, unknown>): string {
    for (const c of [obj.handle, obj.name]) {
      if (typeof c !== 'string') continue;
      const slug = c.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
      if (NAME.test(slug) && slug !== 'admin') return this.uniqueName(slug);
    }
    return this.uniqueName(`agent${++this.unnamed}`);
  }

  /** Replaces known keys in strings by `${name.key}` and known ids by their reference (`$${` escapes an existing `${`). */
  private substitute(v: unknown): Json {
    if (typeof v === 'string') {
      let s = v.split('${').join('$${');
      for (const [key, name] of this.names) s = s.split(key).join(`\${${name}.key}`);
      for (const [id, ref] of this.ids) s = s.split(id).join(`\${${ref}}`);
      return s;
    }
    if (Array.isArray(v)) return v.map((x) => this.substitute(x));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.substitute(x)]));
    return v as Json;
  }

  private restart(seed: unknown, options: unknown, now: unknown): void {
    this.steps = [];
    this.declared = {};
    this.snapshots = new Map();
    this.faults = new Map();
    this.ids = new Map();
    for (const [k, n] of [...this.names]) if (n !== 'admin') this.names.delete(k);
    const o = { ...(options as Record<string, Json> | undefined) };
    if (typeof seed === 'number' || typeof seed === 'string') this.seed = seed;
    const start = o.startTime ?? now;
    if (typeof start === 'string' || typeof start === 'number') this.startTime = new Date(typeof start === 'number' ? start : Date.parse(start)).toISOString();
    delete o.startTime;
    this.world = o;
  }

  /** The step a successful sim API exchange stands for; null when it stays a `call`. */
  private simStep(x: Exchange, path: string): Step | null {
    const req = (x.requestBody ?? {}) as Record<string, Json>;
    const res = (x.responseBody ?? {}) as Record<string, Json>;
    const post = x.method === 'POST';
    const idOf = (re: RegExp) => {
      const m = re.exec(path);
      return m ? decodeURIComponent(m[1]!) : undefined;
    };
    if (post && path === '/api/sim/clock') {
      if (typeof req.advanceMs === 'number') return { advance: req.advanceMs };
      return typeof req.set === 'string' ? { setTime: req.set } : null;
    }
    if (path === '/api/sim/prices' && x.method === 'DELETE') return { setPrice: 'clear' };
    if (path === '/api/sim/prices' && post && Array.isArray(req.prices)) {
      const list = req.prices as unknown as { token: string; specificChain?: string; price: number }[];
      return { setPrice: list.map((p) => ({ token: p.token, ...(p.specificChain ? { specificChain: p.specificChain } : {}), price: p.price })) };
    }
    if (path === '/api/sim/snapshots' && post && typeof res.id === 'string') {
      const name = `snapshot${this.snapshots.size + 1}`;
      this.snapshots.set(res.id, name);
      return { snapshot: name };
    }
    const restored = post ? this.snapshots.get(idOf(/^\/api\/sim\/snapshots\/([^/]+)\/restore$/) ?? '') : undefined;
    if (restored) return { restore: restored };
    if (path === '/api/sim/faults' && post && typeof res.id === 'string') {
      const name = `fault${this.faults.size + 1}`;
      this.faults.set(res.id, name);
      return { fault: req as FaultDef, name };
    }
    const removed = x.method === 'DELETE' ? this.faults.get(idOf(/^\/api\/sim\/faults\/([^/]+)$/) ?? '') : undefined;
    return removed ? { fault: { remove: removed } } : null;
  }

  /** Adds one exchange. */
  add(x: Exchange): void {
    const q = x.url.indexOf('?');
    const path = q < 0 ? x.url : x.url.slice(0, q);
    const key = bearer(x.headers);
    // A key that works on the admin or sim API is the admin's.
    if (key && !this.names.has(key) && /^\/api\/(admin|sim)(\/|$)/.test(path) && x.status !== 401 && x.status !== 403) this.names.set(key, 'admin');
    const ok = x.status >= 200 && x.status < 300;
    if (ok && x.method === 'POST' && path === '/api/sim/reset') {
      const req = (x.requestBody ?? {}) as Record<string, Json>;
      const res = (x.responseBody ?? {}) as Record<string, Json>;
      this.restart(req.seed ?? res.seed, req.options, res.now);
      if (typeof res.adminKey === 'string') this.names.set(res.adminKey, 'admin');
      return;
    }
    const sim = ok && path.startsWith('/api/sim/') ? this.simStep(x, path) : null;
    if (sim) {
      this.steps.push(sim);
      return;
    }
    const step: CallStep = { call: `${x.method} ${this.substitute(path) as string}` };
    if (key && this.names.has(key)) step.as = this.names.get(key)!;
    else if (key && x.status !== 401 && KEY_VALUE.test(key)) {
      const name = this.uniqueName(`agent${++this.unnamed}`);
      this.names.set(key, name);
      this.declared[name] = { key };
      step.as = name;
    } else if (x.headers.authorization) step.headers = { authorization: x.headers.authorization };
    if (q >= 0) step.query = this.substitute(Object.fromEntries(new URLSearchParams(x.url.slice(q + 1)))) as Record<string, string>;
    if (x.requestBody !== undefined && x.method !== 'GET') step.body = this.substitute(x.requestBody);
    // Keys created by this response become actors (the key itself is matched by type).
    const created = keyHolders(x.responseBody).filter((h) => !this.names.has(h.obj.apiKey as string));
    const expectBody = this.substitute(x.responseBody) as Json;
    for (const h of created) {
      const apiKey = h.obj.apiKey as string;
      const name = this.actorName(h.obj);
      if (step.actor === undefined) {
        step.actor = { name, key: join(h.path, 'apiKey'), ...(typeof h.obj.id === 'string' ? { id: join(h.path, 'id') } : {}) };
        const user = (x.responseBody as { user?: { id?: unknown } } | undefined)?.user;
        if (h.path === 'agent' && typeof user?.id === 'string') step.actor.userId = 'user.id';
        let target = expectBody as Record<string, Json>;
        for (const seg of h.path === '' ? [] : h.path.split('.')) target = target[seg] as Record<string, Json>;
        target.apiKey = { $type: 'string' };
        this.names.set(apiKey, name);
        if (typeof h.obj.id === 'string' && UUID.test(h.obj.id) && !this.ids.has(h.obj.id)) this.ids.set(h.obj.id, `${name}.id`);
      }
    }
    // Ids this answer introduces are saved, so later steps refer to them instead of to this run's values.
    if (ok) this.saveIds(step, x.responseBody);
    step.expect = { status: x.status, ...(x.responseBody !== undefined ? { body: expectBody } : {}) };
    this.steps.push(step);
  }

  /** Adds a `save` to `step` for every id in `body` not seen before, named after what holds it. */
  private saveIds(step: CallStep, body: unknown): void {
    for (const { path, id, owner } of idsIn(body)) {
      if (this.ids.has(id)) continue;
      const base = owner.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
      const taken = new Set([...this.ids.values(), ...this.names.values(), ...Object.keys(this.declared)]);
      let name = NAME.test(base) ? base : 'id';
      for (let i = 2; taken.has(name); i++) name = `${NAME.test(base) ? base : 'id'}_${i}`;
      step.save = { ...step.save, [name]: path };
      this.ids.set(id, name);
    }
  }

  /** The scenario document so far. */
  scenario(schemaRef?: string): ScenarioDoc {
    return {
      ...(schemaRef ? { $schema: schemaRef } : {}),
      description: 'Recorded by compsim record: a skeleton of call steps with the observed answers. Loosen expectations where values may change.',
      seed: this.seed, startTime: this.startTime, world: this.world as ScenarioDoc['world'],
      ...(Object.keys(this.declared).length > 0 ? { actors: this.declared } : {}),
      steps: this.steps,
    };
  }
}
