// The worker pool: outputs in input order on any number of workers, the hand-out order, events, and a throwing task.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { runPool, TaskError } from '../../src/harness/pool.js';

const TASKS = new URL('../helpers/pool-task.ts', import.meta.url);

describe('worker pool', function () {
  this.timeout(120_000);
  const inputs = Array.from({ length: 9 }, (_, i) => ({ text: `input ${i}`, rounds: 200 + 150 * (i % 4) }));
  const expected = inputs.map((x) => {
    let h = `s:${x.text}`;
    for (let i = 0; i < x.rounds; i++) h = createHash('sha256').update(h).digest('hex');
    return { text: x.text, hash: h };
  });

  it('gives the outputs in input order on one worker (this thread) and on three worker threads', async () => {
    for (const workers of [1, 3]) {
      const finished: number[] = [];
      const events: [number, unknown][] = [];
      const out = await runPool(inputs, {
        module: TASKS, fn: 'chain', workers, setup: { salt: 's' },
        onDone: (i) => finished.push(i), onEvent: (i, e) => events.push([i, e]),
      });
      expect(out, `${workers} workers`).to.deep.equal(expected);
      expect([...finished].sort((a, b) => a - b)).to.deep.equal(inputs.map((_, i) => i));
      expect(events.sort((a, b) => a[0] - b[0])).to.deep.equal(inputs.map((x, i) => [i, { text: x.text }]));
    }
  });

  it('hands inputs out in the given order and still answers in input order', async () => {
    const order = [8, 0, 7, 1, 6, 2, 5, 3, 4];
    const started: number[] = [];
    const out = await runPool(inputs, { module: TASKS, fn: 'chain', workers: 1, setup: { salt: 's' }, order, onStart: (i) => started.push(i) });
    expect(started).to.deep.equal(order);
    expect(out).to.deep.equal(expected);
    const startedOnTwo: number[] = [];
    await runPool(inputs, { module: TASKS, fn: 'chain', workers: 2, setup: { salt: 's' }, order, onStart: (i) => startedOnTwo.push(i) });
    expect(startedOnTwo).to.deep.equal(order);
  });

  it('rejects with the failing input and its message, in this thread and on workers', async () => {
    for (const workers of [1, 2]) {
      let caught: unknown;
      await runPool(['a', 'b', 'bad', 'c'], { module: TASKS, fn: 'failing', workers, setup: null }).catch((e: unknown) => (caught = e));
      expect(caught, `${workers} workers`).to.be.instanceOf(TaskError);
      expect((caught as TaskError).index).to.equal(2);
      expect((caught as TaskError).message).to.equal("cannot handle 'bad'");
    }
  });

  it('refuses an order that does not list every input once, and a module without the function', async () => {
    let caught: unknown;
    await runPool(['a', 'b'], { module: TASKS, fn: 'failing', workers: 1, setup: null, order: [0, 0] }).catch((e: unknown) => (caught = e));
    expect((caught as Error).message).to.equal('runPool: order must list every input index once');
    await runPool(['a'], { module: TASKS, fn: 'nothing', workers: 1, setup: null }).catch((e: unknown) => (caught = e));
    expect((caught as Error).message).to.match(/exports no function 'nothing'$/);
    await runPool(['a', 'b'], { module: TASKS, fn: 'nothing', workers: 2, setup: null }).catch((e: unknown) => (caught = e));
    expect((caught as Error).message).to.match(/exports no function 'nothing'$/);
  });
});
