// Runs one scenario against a Target: reset, actors, steps with interpolation, expectations and captures, a hashed response log.
import { createHash } from 'node:crypto';
import { bodyDiff } from './diff.js';
import { getPath, interpolate, interpolateShared, parsePath, StepInputError } from './interpolate.js';
import { ResponseLog, type LogEntry } from './log.js';
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

/** An answer as the log holds it: the status, and the body unless there is none. */
function loggedAnswer(res: TargetResponse): LogEntry['response'] {
  const body = res.body;
  return body !== undefined ? { status: res.status, body } : { status: res.status };
}

function statusOk(expected: CallStep['expect'], status: number): string | null {
  const want = expected?.status;
  if (want === undefined) return status >= 200 && status < 300 ? null : `expected a 2xx status, got ${status}`;
  const list = Array.isArray(want) ? want : [want];
  return list.includes(status) ? null : `expected status ${list.join(' or ')}, got ${status}`;
}

/** Runs a validated scenario; never throws for a failing step (the result says why). */
export async function runScenario(sc: Scenario, target: Target, options: RunOptions = {}): Promise<ScenarioResult> {
  const { doc } = sc;
  const keepLog = options.keepLog ?? true;
  const checks = options.checkExpectations ?? true;
  const log = new ResponseLog(keepLog);
  const vars = new Map<string, Json>();
  const keys = new Map<string, string>();
  const ids = { snapshot: new Map<string, string>(), fault: new Map<string, string>() };
  let passed = 0;
  let failure: StepFailure | undefined;
  let adminKey = '';

  const exchange = async (
    at: string, req: TargetRequest, as: string | undefined, clock?: LogEntry['clock'],
  ): Promise<{ res: TargetResponse; logged: LogEntry['request'] }> => {
    // Logged as the actor's name, not its key; empty parts are left out.
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
    const res = await target.send(req);
    const response = loggedAnswer(res);
    log.add(clock !== undefined ? { at, clock, request: logged, response } : { at, request: logged, response });
    options.onExchange?.(at, res);
    return { res, logged };
  };
  const setActor = (name: string, value: { key: string; id?: Json; userId?: Json }) => {
    keys.set(name, value.key);
    vars.set(name, { name, ...value } as Json);
  };
  const capture = (body: unknown, path: string, what: string): unknown => {
    const hit = getPath(body, parsePath(path));
    if (!hit.found) throw new Stop({ message: `${what}: no '${path}' in the response body` });
    return hit.value;
  };
  const adminHeaders = () => ({ authorization: `Bearer ${adminKey}` });
  /** A call's `at`: the clock request `setTime` would send, its answer kept for the call's log line. */
  const moveClock = async (instant: Json): Promise<NonNullable<LogEntry['clock']>> => {
    const req = setTimeRequest(instant, 'at');
    const { set } = req.body;
    // Spelled out rather than spread: a replay moves the clock before every trade.
    const res = await target.send({ method: req.method, path: req.path, query: req.query, headers: adminHeaders(), body: req.body });
    if (res.status < 200 || res.status >= 300) throw new Stop({ message: `at: moving the clock to ${set}, ${simRefusal(res)}`, response: res });
    const { status, body } = loggedAnswer(res);
    return body !== undefined ? { set, status, body } : { set, status };
  };

  const reset = async () => {
    const body: Json = { seed: doc.seed, options: { startTime: doc.startTime, ...(doc.world as Record<string, Json> | undefined) } };
    const { res, logged } = await exchange('reset', { method: 'POST', path: '/api/sim/reset', query: {}, headers: adminHeaders(), body }, 'admin');
    if (res.status !== 200) throw new Stop({ message: `reset failed with status ${res.status}: ${SIM_HINT}`, request: logged, response: res });
    const given = (res.body as { adminKey?: unknown } | undefined)?.adminKey;
    if (typeof given === 'string' && given !== '') {
      adminKey = given;
      log.redactKey(given);
    }
    setActor('admin', { key: adminKey });
  };

  let phase = 'actors';
  const declareActors = async () => {
    for (const [name, def] of Object.entries(doc.actors ?? {})) {
      phase = `actors.${name}`;
      if (def.key !== undefined) {
        setActor(name, { key: def.key });
        continue;
      }
      const body = { walletAddress: actorWallet(name), agentName: name, ...interpolate(def.register ?? {}, vars) } as Json;
      const { res, logged } = await exchange(`actors.${name}`, { method: 'POST', path: '/api/admin/users', query: {}, headers: adminHeaders(), body }, 'admin');
      if (res.status !== 201) throw new Stop({ message: `registering actor '${name}' failed with status ${res.status}`, request: logged, response: res });
      const key = capture(res.body, 'agent.apiKey', `actor '${name}'`);
      if (typeof key !== 'string') throw new Stop({ message: `actor '${name}': agent.apiKey is not a string`, request: logged, response: res });
      setActor(name, { key, id: capture(res.body, 'agent.id', `actor '${name}'`) as Json, userId: capture(res.body, 'user.id', `actor '${name}'`) as Json });
    }
  };

  const runCall = async (at: string, raw: CallStep) => {
    let authKey: string | undefined;
    if (raw.as !== undefined) {
      authKey = keys.get(raw.as);
      if (authKey === undefined) throw new Stop({ message: `unknown actor '${raw.as}' (known: ${[...keys.keys()].join(', ')})` });
    }
    // The parts a request is made of, interpolated in this order (the first bad reference names the step's error).
    const instant = raw.at !== undefined ? interpolate(raw.at as Json, vars) : undefined;
    // Only the body reaches the target as an object of its own; the other parts are read and copied
    // here, so when they refer to nothing they are the step's own.
    const step: CallStep = {
      call: interpolate(raw.call, vars), query: interpolateShared(raw.query, vars), headers: interpolateShared(raw.headers, vars),
      body: interpolate(raw.body, vars), expect: interpolateShared(raw.expect, vars),
    };
    const request = callRequest(step, authKey);
    const clock = instant !== undefined ? await moveClock(instant) : undefined;
    const { res, logged } = await exchange(at, request, raw.as, clock);
    const mismatches: Mismatch[] = [];
    const statusProblem = checks ? statusOk(step.expect, res.status) : null;
    if (statusProblem) mismatches.push({ path: 'status', message: statusProblem });
    // The quick check first; only a failing expectation is explained.
    const bodyMismatches = checks && step.expect !== undefined && 'body' in step.expect && !matches(step.expect.body, res.body) ? match(step.expect.body, res.body) : [];
    mismatches.push(...bodyMismatches);
    if (mismatches.length > 0) {
      const diff = bodyMismatches.length > 0 ? bodyDiff(step.expect!.body, res.body) : undefined;
      throw new Stop({ message: mismatches.map((m) => `${m.path}: ${m.message}`).join('; '), request: logged, response: res, mismatches, ...(diff ? { diff } : {}) });
    }
    for (const [name, path] of Object.entries(raw.save ?? {})) {
      if (keys.has(name)) throw new Stop({ message: `save: '${name}' is an actor`, request: logged, response: res });
      vars.set(name, capture(res.body, path, `save ${name}`) as Json);
    }
    if (raw.actor) {
      const a = raw.actor;
      const key = capture(res.body, a.key, `actor ${a.name}`);
      if (typeof key !== 'string') throw new Stop({ message: `actor ${a.name}: '${a.key}' is ${show(key)}, not a key`, request: logged, response: res });
      setActor(a.name, {
        key, ...(a.id !== undefined ? { id: capture(res.body, a.id, `actor ${a.name}`) as Json } : {}),
        ...(a.userId !== undefined ? { userId: capture(res.body, a.userId, `actor ${a.name}`) as Json } : {}),
      });
    }
  };

  const runSim = async (at: string, index: number, raw: Exclude<Step, CallStep>) => {
    const step = interpolate(raw, vars);
    const sim = simRequest(step, index, (kind, name) => {
      const id = ids[kind].get(name);
      if (id === undefined) throw new StepInputError(`no ${kind} named '${name}' (known: ${[...ids[kind].keys()].join(', ') || 'none'})`);
      return id;
    });
    if (!sim) return;
    const { res, logged } = await exchange(at, { ...sim.request, headers: adminHeaders() }, 'admin');
    if (res.status < 200 || res.status >= 300) {
      throw new Stop({ message: simRefusal(res), request: logged, response: res });
    }
    if (sim.keepId) {
      const id = (res.body as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string' && typeof id !== 'number') throw new Stop({ message: `the sim API answer has no id`, request: logged, response: res });
      ids[sim.keepId.kind].set(sim.keepId.name, String(id));
    }
  };

  const fail = (at: string, index: number | null, verb: StepFailure['verb'], err: unknown) => {
    if (err instanceof Stop) failure = { at, index, verb, ...err.failure };
    else if (err instanceof StepInputError) failure = { at, index, verb, message: err.message };
    else if (err instanceof TargetUnreachable) failure = { at, index, verb, message: err.message, unreachable: true };
    else failure = { at, index, verb, message: (err as Error).message ?? String(err) };
  };

  try {
    ({ adminKey } = await target.begin(sc));
    log.redactKey(adminKey);
    await reset();
  } catch (err) {
    fail('reset', null, 'reset', err);
  }
  if (!failure) {
    try {
      await declareActors();
    } catch (err) {
      fail(phase, null, 'actor', err);
    }
  }
  for (let i = 0; i < doc.steps.length && !failure; i++) {
    const step = doc.steps[i]!;
    const verb = verbOf(step);
    const at = `steps[${i}]`;
    options.onEvent?.({ kind: 'step', index: i, total: doc.steps.length, verb, label: stepLabel(step) });
    try {
      if ('call' in step) await runCall(at, step);
      else await runSim(at, i, step);
      passed += 1;
    } catch (err) {
      fail(at, i, verb, err);
    }
  }
  if (options.afterSteps && adminKey !== '') await options.afterSteps(adminKey);
  const hash = log.hash();
  let text: string | undefined;
  const result: ScenarioResult = {
    file: sc.file, name: sc.name, ...(doc.description !== undefined ? { description: doc.description } : {}), seed: doc.seed,
    ok: failure === undefined, steps: doc.steps.length, stepsPassed: passed, requests: log.size, hash,
    // Made on first read: a week's log is hundreds of MB, and most runs only need its hash.
    get log() {
      return (text ??= log.text());
    },
    ...(failure ? { failure } : {}),
  };
  options.onEvent?.({ kind: 'done', result });
  return result;
}
