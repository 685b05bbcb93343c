// Runs one scenario against a Target: reset, actors, steps with interpolation, expectations and captures, a hashed response log of the answers as sent.
import { createHash } from 'node:crypto';
import { bodyDiff } from './diff.js';
import { getPath, interpolate, interpolateShared, parsePath, StepInputError } from './interpolate.js';
import { ResponseLog, type LogEntry, type LoggedAnswer } from './log.js';
import { match, matches, show, type Mismatch } from './matcher.js';
import { callRequest, setTimeRequest, simRequest } from './steps.js';
import { TargetUnreachable, type Target, type TargetRequest, type TargetResponse } from './targets.js';
import { verbOf, type CallStep, type Json, type Scenario, type Step, type Verb } from './types.js';

/** Why a scenario stopped. */
export interface StepFailure {
  /** `reset`, `actors.<name>` or `steps[<i>]`. */
  at: string;
  /** Step index, or null for the reset and actor set-up. */
  index: number | null;
  verb: Verb | 'reset' | 'actor' | 'file';
  message: string;
  /** The request as logged (actor name instead of the key). */
  request?: LogEntry['request'];
  response?: TargetResponse;
  mismatches?: Mismatch[];
  /** Expected-vs-actual body diff lines (`- expected`, `+ actual`). */
  diff?: string[];
  /** The target did not answer at all (an infrastructure failure, not the scenario's). */
  unreachable?: true;
}

/** Outcome of one scenario. */
export interface ScenarioResult {
  file: string;
  name: string;
  description?: string;
  seed: number | string;
  ok: boolean;
  /** Steps in the file / steps that ran to completion. */
  steps: number;
  stepsPassed: number;
  /** Exchanges in the response log. */
  requests: number;
  /** SHA-256 of the response log. */
  hash: string;
  /** The response log (canonical JSON lines), made when first read; throws if the run did not keep it ({@link RunOptions.keepLog}). */
  log: string;
  failure?: StepFailure;
}

/** Progress notifications (for the CLI's display; they never change the outcome). */
export type RunEvent =
  | { kind: 'step'; index: number; total: number; verb: Verb; label: string }
  | { kind: 'done'; result: ScenarioResult };

/** Options of {@link runScenario}. */
export interface RunOptions {
  onEvent?: (e: RunEvent) => void;
  /** Called after the steps (pass or fail) with the admin key, before the next scenario resets the target. */
  afterSteps?: (adminKey: string) => Promise<void>;
  /**
   * Called with every logged exchange as it happens (`at` as in the log: `reset`, `actors.alice`,
   * `steps[3]`). Reading `response.body` here gives what the log holds, without parsing the log back.
   * The clock answer of a call's `at` goes into that call's line and is not reported on its own.
   */
  onExchange?: (at: string, response: TargetResponse) => void;
  /**
   * Keep the log's text for {@link ScenarioResult.log} (default true). False keeps only its hash:
   * a week's log is hundreds of MB, and reading `log` then throws.
   */
  keepLog?: boolean;
  /**
   * Check each call's `expect` (default true). False lets every answer pass (a refused trade stays
   * refused and the run goes on): a sweep reads outcomes under other seeds and settings, where the
   * file's expected values no longer hold. Captures (`save`, `actor`) still need their values.
   */
  checkExpectations?: boolean;
}

/** Thrown inside the runner to stop at a step. */
class Stop extends Error {
  readonly failure: Omit<StepFailure, 'at' | 'index' | 'verb'>;

  constructor(failure: Omit<StepFailure, 'at' | 'index' | 'verb'>) {
    super(failure.message);
    this.failure = failure;
  }
}

/** Wallet of a declared actor: derived from its name, so it is the same on every run. */
export function actorWallet(name: string): string {
  return `0x${createHash('sha256').update(`compsim-actor:${name}`).digest('hex').slice(0, 40)}`;
}

/** One-line label of a step for progress output. */
export function stepLabel(step: Step): string {
  if ('call' in step) return `${step.call}${step.as ? ` as ${step.as}` : ''}`;
  if ('note' in step) return step.note;
  if ('fault' in step) return 'remove' in step.fault ? `fault remove ${String(step.fault.remove)}` : `fault ${String(step.fault.kind)}`;
  const verb = verbOf(step);
  const v = (step as Record<string, unknown>)[verb];
  return `${verb} ${typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v)}`;
}

const SIM_HINT = 'does the target serve the sim API (compsim serve --sim-api) and accept this admin key?';

/** Why a sim API answer stops the run, with a hint when the target seems to lack the sim API. */
function simRefusal(res: TargetResponse): string {
  return `the sim API answered ${res.status} ${show(res.body)}${res.status === 404 || res.status === 401 ? `: ${SIM_HINT}` : ''}`;
}

/** An answer as the log holds it: the status and the text as sent. */
function loggedAnswer(res: TargetResponse): LoggedAnswer {
  return { status: res.status, text: res.text, json: res.json };
}

function statusOk(expected: CallStep['expect'], status: number): string | null {
  const want = expected?.status;
  if (want === undefined) return status >= 200 && status < 300 ? null : `expected a 2xx status, got ${status}`;
  const list = Array.isArray(want) ? want : [want];
  return list.includes(status) ? null : `expected status ${list.join(' or ')}, got ${status}`;
}

/** The value at `path` of a response body, or a stop naming what was looked for. */
function capture(body: unknown, path: string, what: string): unknown {
  const hit = getPath(body, parsePath(path));
  if (!hit.found) throw new Stop({ message: `${what}: no '${path}' in the response body` });
  return hit.value;
}

/** One run of a scenario against a target: its variables, actors, snapshot and fault ids, and the response log. */
class Run {
  readonly log: ResponseLog;
  readonly vars = new Map<string, Json>();
  private readonly keys = new Map<string, string>();
  private readonly ids = { snapshot: new Map<string, string>(), fault: new Map<string, string>() };
  adminKey = '';

  constructor(private readonly sc: Scenario, private readonly target: Target, private readonly options: RunOptions) {
    this.log = new ResponseLog(options.keepLog ?? true);
  }

  /** Sends a request and logs the exchange (as the actor's name, not its key; empty parts left out). */
  async exchange(at: string, req: TargetRequest, as: string | undefined, clock?: LogEntry['clock']): Promise<{ res: TargetResponse; logged: LogEntry['request'] }> {
    const logged: LogEntry['request'] = { method: req.method, path: req.path };
    for (const _ in req.query) {
      logged.query = req.query;
      break;
    }
    if (as !== undefined) logged.as = as;
    let headers: Record<string, string> | undefined;
    for (const k in req.headers) if (as === undefined || k !== 'authorization') (headers ??= {})[k] = req.headers[k]!;
    if (headers !== undefined) logged.headers = headers;
    if (req.body !== undefined) logged.body = req.body;
    const res = await this.target.send(req);
    const response = loggedAnswer(res);
    this.log.add(clock !== undefined ? { at, clock, request: logged, response } : { at, request: logged, response });
    this.options.onExchange?.(at, res);
    return { res, logged };
  }

  setActor(name: string, value: { key: string; id?: Json; userId?: Json }): void {
    this.keys.set(name, value.key);
    this.vars.set(name, { name, ...value } as Json);
  }

  private adminHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.adminKey}` };
  }

  /** `POST /api/sim/reset` with the scenario's seed and world; a new admin key in the answer becomes `admin`. */
  async reset(): Promise<void> {
    const { doc } = this.sc;
    const body: Json = { seed: doc.seed, options: { startTime: doc.startTime, ...(doc.world as Record<string, Json> | undefined) } };
    const { res, logged } = await this.exchange('reset', { method: 'POST', path: '/api/sim/reset', query: {}, headers: this.adminHeaders(), body }, 'admin');
    if (res.status !== 200) throw new Stop({ message: `reset failed with status ${res.status}: ${SIM_HINT}`, request: logged, response: res });
    const given = (res.body as { adminKey?: unknown } | undefined)?.adminKey;
    if (typeof given === 'string' && given !== '') {
      this.adminKey = given;
      this.log.redactKey(given);
    }
    this.setActor('admin', { key: this.adminKey });
  }

  /** Registers the declared actors in declaration order; `onActor` hears each name first (where a failure happened). */
  async declareActors(onActor: (name: string) => void): Promise<void> {
    for (const [name, def] of Object.entries(this.sc.doc.actors ?? {})) {
      onActor(name);
      if (def.key !== undefined) {
        this.setActor(name, { key: def.key });
        continue;
      }
      const body = { walletAddress: actorWallet(name), agentName: name, ...interpolate(def.register ?? {}, this.vars) } as Json;
      const { res, logged } = await this.exchange(`actors.${name}`, { method: 'POST', path: '/api/admin/users', query: {}, headers: this.adminHeaders(), body }, 'admin');
      if (res.status !== 201) throw new Stop({ message: `registering actor '${name}' failed with status ${res.status}`, request: logged, response: res });
      const key = capture(res.body, 'agent.apiKey', `actor '${name}'`);
      if (typeof key !== 'string') throw new Stop({ message: `actor '${name}': agent.apiKey is not a string`, request: logged, response: res });
      this.setActor(name, { key, id: capture(res.body, 'agent.id', `actor '${name}'`) as Json, userId: capture(res.body, 'user.id', `actor '${name}'`) as Json });
    }
  }

  /** A call's `at`: the clock request `setTime` would send, its answer kept for the call's log line. */
  private async moveClock(instant: Json): Promise<NonNullable<LogEntry['clock']>> {
    const req = setTimeRequest(instant, 'at');
    const { set } = req.body;
    // Spelled out rather than spread: a replay moves the clock before every trade.
    const res = await this.target.send({ method: req.method, path: req.path, query: req.query, headers: this.adminHeaders(), body: req.body });
    if (res.status < 200 || res.status >= 300) throw new Stop({ message: `at: moving the clock to ${set}, ${simRefusal(res)}`, response: res });
    return { set, ...loggedAnswer(res) };
  }

  /** Runs a `call` step: interpolation, the request, its expectations (the body is read only when they name it), captures. */
  async call(at: string, raw: CallStep): Promise<void> {
    let authKey: string | undefined;
    if (raw.as !== undefined) {
      authKey = this.keys.get(raw.as);
      if (authKey === undefined) throw new Stop({ message: `unknown actor '${raw.as}' (known: ${[...this.keys.keys()].join(', ')})` });
    }
    const { vars } = this;
    // The parts a request is made of, interpolated in this order (the first bad reference names the step's error).
    const instant = raw.at !== undefined ? interpolate(raw.at as Json, vars) : undefined;
    // Only the body reaches the target as an object of its own; the other parts are read and copied
    // here, so when they refer to nothing they are the step's own.
    const step: CallStep = {
      call: interpolate(raw.call, vars), query: interpolateShared(raw.query, vars), headers: interpolateShared(raw.headers, vars),
      body: interpolate(raw.body, vars), expect: interpolateShared(raw.expect, vars),
    };
    const clock = instant !== undefined ? await this.moveClock(instant) : undefined;
    const { res, logged } = await this.exchange(at, callRequest(step, authKey), raw.as, clock);
    if (this.options.checkExpectations ?? true) checkAnswer(step.expect, res, logged);
    this.keep(raw, res, logged);
  }

  /** A call's `save` and `actor` captures from its answer. */
  private keep(raw: CallStep, res: TargetResponse, logged: LogEntry['request']): void {
    for (const [name, path] of Object.entries(raw.save ?? {})) {
      if (this.keys.has(name)) throw new Stop({ message: `save: '${name}' is an actor`, request: logged, response: res });
      this.vars.set(name, capture(res.body, path, `save ${name}`) as Json);
    }
    if (!raw.actor) return;
    const a = raw.actor;
    const key = capture(res.body, a.key, `actor ${a.name}`);
    if (typeof key !== 'string') throw new Stop({ message: `actor ${a.name}: '${a.key}' is ${show(key)}, not a key`, request: logged, response: res });
    this.setActor(a.name, {
      key, ...(a.id !== undefined ? { id: capture(res.body, a.id, `actor ${a.name}`) as Json } : {}),
      ...(a.userId !== undefined ? { userId: capture(res.body, a.userId, `actor ${a.name}`) as Json } : {}),
    });
  }

  /** Runs a step other than `call`: its sim API request (none for `note`), which must answer 2xx; snapshot and fault ids are kept by name. */
  async sim(at: string, index: number, raw: Exclude<Step, CallStep>): Promise<void> {
    const step = interpolate(raw, this.vars);
    const sim = simRequest(step, index, (kind, name) => {
      const id = this.ids[kind].get(name);
      if (id === undefined) throw new StepInputError(`no ${kind} named '${name}' (known: ${[...this.ids[kind].keys()].join(', ') || 'none'})`);
      return id;
    });
    if (!sim) return;
    const { res, logged } = await this.exchange(at, { ...sim.request, headers: this.adminHeaders() }, 'admin');
    if (res.status < 200 || res.status >= 300) throw new Stop({ message: simRefusal(res), request: logged, response: res });
    if (sim.keepId) {
      const id = (res.body as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string' && typeof id !== 'number') throw new Stop({ message: `the sim API answer has no id`, request: logged, response: res });
      this.ids[sim.keepId.kind].set(sim.keepId.name, String(id));
    }
  }
}

/** Stops at a call whose status or body (read only when the expectation names it) does not match. */
function checkAnswer(expect: CallStep['expect'], res: TargetResponse, logged: LogEntry['request']): void {
  const mismatches: Mismatch[] = [];
  const statusProblem = statusOk(expect, res.status);
  if (statusProblem) mismatches.push({ path: 'status', message: statusProblem });
  // The quick check first; only a failing expectation is explained.
  const bodyMismatches = expect !== undefined && 'body' in expect && !matches(expect.body, res.body) ? match(expect.body, res.body) : [];
  mismatches.push(...bodyMismatches);
  if (mismatches.length === 0) return;
  const diff = bodyMismatches.length > 0 ? bodyDiff(expect!.body, res.body) : undefined;
  throw new Stop({ message: mismatches.map((m) => `${m.path}: ${m.message}`).join('; '), request: logged, response: res, mismatches, ...(diff ? { diff } : {}) });
}

/** The failure of a step (or of the reset or an actor) from what it threw. */
function failureOf(at: string, index: number | null, verb: StepFailure['verb'], err: unknown): StepFailure {
  if (err instanceof Stop) return { at, index, verb, ...err.failure };
  if (err instanceof StepInputError) return { at, index, verb, message: err.message };
  if (err instanceof TargetUnreachable) return { at, index, verb, message: err.message, unreachable: true };
  return { at, index, verb, message: (err as Error).message ?? String(err) };
}

/** Target set-up, reset and actors; the failure that stopped them, if any. */
async function prepare(sc: Scenario, target: Target, run: Run): Promise<StepFailure | undefined> {
  try {
    ({ adminKey: run.adminKey } = await target.begin(sc));
    run.log.redactKey(run.adminKey);
    await run.reset();
  } catch (err) {
    return failureOf('reset', null, 'reset', err);
  }
  let phase = 'actors';
  try {
    await run.declareActors((name) => (phase = `actors.${name}`));
  } catch (err) {
    return failureOf(phase, null, 'actor', err);
  }
  return undefined;
}

/** Runs a validated scenario; never throws for a failing step (the result says why). */
export async function runScenario(sc: Scenario, target: Target, options: RunOptions = {}): Promise<ScenarioResult> {
  const { doc } = sc;
  const run = new Run(sc, target, options);
  let failure = await prepare(sc, target, run);
  let passed = 0;
  for (let i = 0; i < doc.steps.length && !failure; i++) {
    const step = doc.steps[i]!;
    const verb = verbOf(step);
    const at = `steps[${i}]`;
    options.onEvent?.({ kind: 'step', index: i, total: doc.steps.length, verb, label: stepLabel(step) });
    try {
      if ('call' in step) await run.call(at, step);
      else await run.sim(at, i, step);
      passed += 1;
    } catch (err) {
      failure = failureOf(at, i, verb, err);
    }
  }
  if (options.afterSteps && run.adminKey !== '') await options.afterSteps(run.adminKey);
  const { log } = run;
  let text: string | undefined;
  const result: ScenarioResult = {
    file: sc.file, name: sc.name, ...(doc.description !== undefined ? { description: doc.description } : {}), seed: doc.seed,
    ok: failure === undefined, steps: doc.steps.length, stepsPassed: passed, requests: log.size, hash: log.hash(),
    // Made on first read: a week's log is hundreds of MB, and most runs only need its hash.
    get log() {
      return (text ??= log.text());
    },
    ...(failure ? { failure } : {}),
  };
  options.onEvent?.({ kind: 'done', result });
  return result;
}
