// Test helper: compsim fork's I/O with a fake clock (waits pass at once and are recorded) and real or given fetch.
import type { ForkIo } from '../../src/research/fork-fetch.js';

/** A fake clock: `sleep` moves it and records the wait; fetch is the given one. */
export function fakeIo(f: typeof fetch = (i, init) => fetch(i, init)): ForkIo & { sleeps: number[]; clock: { t: number } } {
  const clock = { t: Date.UTC(2026, 0, 1) };
  const sleeps: number[] = [];
  return {
    clock, sleeps, fetch: f, now: () => clock.t,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.t += ms;
    },
  };
}
