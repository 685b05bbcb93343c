// The seeded random walk of one token: cumulative log-returns step by step, kept as checkpoints so any instant costs bounded memory.
import { mix32 } from '../ids/rng.js';

/** Steps a walk goes at most either side of its origin; beyond, the price stays where the walk was there. */
export const MAX_WALK_STEPS = 5_000_000;

/** Steps between two kept cumulative values (checkpoints) of a walk. */
export const CHECKPOINT_STEPS = 1024;

/** Standard normal draw for step `k` of one token's walk (stateless hash, Box-Muller). */
export function stepNormal(base: number, k: number): number {
  const a = mix32(base, k >>> 0);
  const b = mix32(a, Math.floor(k / 2 ** 32) ^ 0x5bd1e995);
  const u1 = (a + 1) / (2 ** 32 + 1);
  const u2 = b / 2 ** 32;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/**
 * The cumulative log-return of one token's walk at any step, forwards (steps 0, 1, 2 ... after the
 * origin) or backwards (steps -1, -2 ... before it). A value is a running sum, one normal draw per
 * step added in step order, so the sum at step n is the same number however it is reached. The
 * walk keeps the sum at every {@link CHECKPOINT_STEPS}-th step (at most 2 x 4,883 numbers) and the
 * sums of the one block of steps last asked for (1,024 numbers): memory is bounded whatever the
 * instant, and a price near the last one costs no new draws. Reaching a step for the first time
 * costs one draw per step from the last checkpoint.
 */
export class WalkState {
  private readonly fwd: number[] = [0];
  private readonly back: number[] = [0];
  private readonly block = new Float64Array(CHECKPOINT_STEPS);
  /** Which block `block` holds: its index and direction (index -1: none yet). */
  private blockIndex = -1;
  private blockForward = true;

  constructor(private readonly base: number, private readonly vol: number) {}

  /** Cumulative log-return at step `k` (an integer, |k| <= {@link MAX_WALK_STEPS}). */
  at(k: number): number {
    const forward = k >= 0;
    const n = forward ? k : -k;
    const marks = forward ? this.fwd : this.back;
    const j = Math.floor(n / CHECKPOINT_STEPS);
    const o = n - j * CHECKPOINT_STEPS;
    if (o === 0 && j < marks.length) return marks[j]!;
    if (j === this.blockIndex && forward === this.blockForward) return this.block[o]!;
    while (marks.length <= j) marks.push(this.run(forward, (marks.length - 1) * CHECKPOINT_STEPS, marks.at(-1)!, null));
    this.run(forward, j * CHECKPOINT_STEPS, marks[j]!, this.block);
    this.blockIndex = j;
    this.blockForward = forward;
    return this.block[o]!;
  }

  /** Numbers the walk holds now (checkpoints and the block): at most 2 x 4,884 + 1,024. */
  held(): number {
    return this.fwd.length + this.back.length + this.block.length;
  }

  /**
   * Adds the draws of steps `from + 1` .. `from + CHECKPOINT_STEPS` to `value` (the sum at `from`)
   * in step order and returns the sum at the block's end; with `into`, also keeps the sum at each
   * step of the block (offset 0 being `from` itself).
   */
  private run(forward: boolean, from: number, value: number, into: Float64Array | null): number {
    const sign = forward ? 1 : -1;
    let v = value;
    if (into) into[0] = v;
    for (let i = from + 1; i <= from + CHECKPOINT_STEPS; i++) {
      // The same expression, in the same order, as the walk has always summed (prices of existing seeds stay the same).
      v += sign * this.vol * stepNormal(this.base, forward ? i - 1 : -i);
      if (into && i - from < CHECKPOINT_STEPS) into[i - from] = v;
    }
    return v;
  }
}
