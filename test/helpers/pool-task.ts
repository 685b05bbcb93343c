// Test helper: task functions for the worker pool tests (a hash chain per input, a task that throws, one that reports events).
import { createHash } from 'node:crypto';
import type { TaskContext } from '../../src/harness/pool.js';

/** `rounds` SHA-256 rounds over `text` plus the setup's salt: deterministic work whose answer depends on every input. */
export function chain(input: { text: string; rounds: number }, ctx: TaskContext<{ salt: string }>): { text: string; hash: string } {
  let h = `${ctx.setup.salt}:${input.text}`;
  for (let i = 0; i < input.rounds; i++) h = createHash('sha256').update(h).digest('hex');
  ctx.emit({ text: input.text });
  return { text: input.text, hash: h };
}

/** Throws for the input 'bad'. */
export async function failing(input: string): Promise<string> {
  if (input === 'bad') throw new Error(`cannot handle '${input}'`);
  return input.toUpperCase();
}
