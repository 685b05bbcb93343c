// Entry of a pool worker thread: loads the task module once, then runs the tasks the pool sends until told to stop.
import { parentPort, workerData } from 'node:worker_threads';
import type { FromWorker, TaskFn, ToWorker } from './pool.js';

const { module, fn, setup } = workerData as { module: string; fn: string; setup: unknown };
const port = parentPort!;
const send = (m: FromWorker) => port.postMessage(m);

const mod = (await import(module)) as Record<string, unknown>;
const task = mod[fn] as TaskFn<unknown, unknown, unknown> | undefined;

port.on('message', (m: ToWorker) => {
  if (m.type === 'stop') {
    port.close();
    return;
  }
  const { index, input } = m;
  void (async () => {
    try {
      if (typeof task !== 'function') throw new Error(`${module} exports no function '${fn}'`);
      const output = await task(input, { setup, emit: (event) => send({ type: 'event', index, event }) });
      send({ type: 'done', index, output });
    } catch (err) {
      const e = err as Error;
      send({ type: 'error', index, message: e?.message ?? String(err), ...(e?.stack ? { stack: e.stack } : {}) });
    }
  })();
});
send({ type: 'ready' });
