// A pool of worker threads running one task function over a list of inputs (an array, or a list made on demand); results come back in input order whatever the finishing order.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** What a task function receives besides its input. */
export interface TaskContext<S> {
  /** The pool's `setup`, the same for every task (cloned into each worker). */
  setup: S;
  /** Sends a progress event to the pool's `onEvent` (display only; never part of a result). */
  emit(event: unknown): void;
}

/**
 * The inputs of a pool: an array, or any list that makes input `i` on demand (a sweep's runs are
 * computed from their number, never held all at once).
 */
export interface InputList<I> { readonly length: number; at(index: number): I | undefined }

/** A task function: exported by name from a module, given one input, resolving to a structured-clonable output. */
export type TaskFn<I, O, S> = (input: I, ctx: TaskContext<S>) => Promise<O> | O;

/** Options of {@link runPool}. */
export interface PoolOptions<O, S> {
  /** The module that exports the task function (e.g. `new URL('./run-task.js', import.meta.url)`). */
  module: URL;
  /** Name of the exported task function. */
  fn: string;
  /**
   * Worker threads to use (at most one per input). 1 runs every task in this thread, one after
   * another, through the same function: the outputs are the same either way.
   */
  workers: number;
  /** Data every task gets as `ctx.setup` (structured-clonable). */
  setup: S;
  /** The order inputs are handed out in (indices; default input order). Outputs stay in input order. */
  order?: readonly number[];
  /** Called as each task finishes, in finishing order. */
  onDone?: (index: number, output: O) => void;
  /** Called when a task starts, in starting order. */
  onStart?: (index: number) => void;
  /** Progress events of the tasks (`ctx.emit`). */
  onEvent?: (index: number, event: unknown) => void;
}

/** The default number of workers: the cores this process may use. */
export function defaultWorkers(): number {
  return availableParallelism();
}

/** Messages between the pool and a worker. */
export type ToWorker = { type: 'task'; index: number; input: unknown } | { type: 'stop' };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'done'; index: number; output: unknown }
  | { type: 'event'; index: number; event: unknown }
  | { type: 'error'; index: number; message: string; stack?: string };

/**
 * A worker thread on the entry next to this file: the compiled `.js`, or, when this process runs
 * the TypeScript sources through tsx (whose loader hooks workers do not inherit), the `.ts` entry
 * behind tsx's loader registered inside the worker first.
 */
function startWorker(workerData: Record<string, unknown>): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./pool-worker.js', import.meta.url), { workerData });
  const entry = new URL('./pool-worker.ts', import.meta.url).href;
  return new Worker(new URL('./pool-boot.mjs', import.meta.url), { workerData: { ...workerData, entry } });
}

/** A task that threw: names the input's index and keeps the task's message. */
export class TaskError extends Error {
  constructor(readonly index: number, message: string, readonly taskStack?: string) {
    super(message);
  }
}

/**
 * Runs `module[fn](input, ctx)` for every input on up to `workers` worker threads, handing the next
 * input (in `order`) to whichever worker is free. Resolves to the outputs in input order; rejects
 * with a {@link TaskError} as soon as a task throws (the other workers are stopped).
 */
export async function runPool<I, O, S>(inputs: InputList<I>, options: PoolOptions<O, S>): Promise<O[]> {
  const order = options.order ?? Array.from({ length: inputs.length }, (_, i) => i);
  if (order.length !== inputs.length || new Set(order).size !== inputs.length || order.some((i) => !(i >= 0 && i < inputs.length))) {
    throw new Error('runPool: order must list every input index once');
  }
  const count = Math.max(1, Math.min(Math.floor(options.workers), inputs.length));
  return count === 1 ? inThisThread(inputs, order, options) : inWorkers(inputs, order, count, options);
}

async function inThisThread<I, O, S>(inputs: InputList<I>, order: readonly number[], options: PoolOptions<O, S>): Promise<O[]> {
  const mod = (await import(options.module.href)) as Record<string, unknown>;
  const fn = mod[options.fn];
  if (typeof fn !== 'function') throw new Error(`runPool: ${options.module.href} exports no function '${options.fn}'`);
  const outputs = new Array<O>(inputs.length);
  for (const index of order) {
    options.onStart?.(index);
    let output: O;
    try {
      output = await (fn as TaskFn<I, O, S>)(inputs.at(index)!, { setup: options.setup, emit: (event) => options.onEvent?.(index, event) });
    } catch (err) {
      throw new TaskError(index, (err as Error).message ?? String(err), (err as Error).stack);
    }
    outputs[index] = output;
    options.onDone?.(index, output);
  }
  return outputs;
}

function inWorkers<I, O, S>(inputs: InputList<I>, order: readonly number[], count: number, options: PoolOptions<O, S>): Promise<O[]> {
  const outputs = new Array<O>(inputs.length);
  let next = 0;
  let finished = 0;
  let failed = false;
  const workers: Worker[] = [];
  return new Promise<O[]>((resolve, reject) => {
    const stopAll = () => {
      for (const w of workers) void w.terminate();
    };
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      stopAll();
      reject(err);
    };
    const handOut = (w: Worker) => {
      if (failed) return;
      if (next >= order.length) {
        w.postMessage({ type: 'stop' } satisfies ToWorker);
        return;
      }
      const index = order[next++]!;
      options.onStart?.(index);
      w.postMessage({ type: 'task', index, input: inputs.at(index) } satisfies ToWorker);
    };
    for (let k = 0; k < count; k++) {
      const w = startWorker({ module: options.module.href, fn: options.fn, setup: options.setup });
      workers.push(w);
      w.on('message', (m: FromWorker) => {
        if (failed) return;
        if (m.type === 'ready') handOut(w);
        else if (m.type === 'event') options.onEvent?.(m.index, m.event);
        else if (m.type === 'error') fail(new TaskError(m.index, m.message, m.stack));
        else {
          outputs[m.index] = m.output as O;
          finished += 1;
          options.onDone?.(m.index, m.output as O);
          if (finished === inputs.length) {
            for (const x of workers) x.postMessage({ type: 'stop' } satisfies ToWorker);
            resolve(outputs);
          } else handOut(w);
        }
      });
      w.on('error', (err) => fail(err));
      w.on('exit', (code) => {
        if (code !== 0 && finished < inputs.length) fail(new Error(`a worker thread exited with code ${code}`));
      });
    }
  });
}
