// The replay's answer recorder: a trade answer read as sent (the in-process target's) gives what reading its JSON round trip gives.
import { expect } from 'chai';
import fc from 'fast-check';
import { parseTrades, replayPlan, ReplayRecorder } from '../../src/sim/scenario/replay.js';
import type { TargetResponse } from '../../src/sim/scenario/targets.js';

const T0 = Date.UTC(2025, 5, 2, 12);
const plan = replayPlan(parseTrades(`timestamp,agent,fromToken,toToken,amount\n${T0},a,x,y,1\n`, 't.csv'), {}, { seed: 1, slippage: 'none', intervalMs: 300_000, rules: 'lenient' });
const step = plan.tradeSteps[0]!;

/** A response as the in-process target gives it: `sent`, and `body` (the JSON round trip) counted when read. */
function sentResponse(status: number, sent: unknown, reads: { n: number }): TargetResponse {
  return {
    status, sent,
    get body() {
      reads.n += 1;
      const text = JSON.stringify(sent);
      return text === undefined ? undefined : JSON.parse(text);
    },
  };
}

/** What the recorder keeps of a response that only has the parsed body (an HTTP target's). */
function fromBody(status: number, sent: unknown) {
  const r = new ReplayRecorder(plan);
  const text = JSON.stringify(sent);
  r.observe(`steps[${step}]`, { status, body: text === undefined ? undefined : JSON.parse(text) });
  return r.step(step);
}

/** Values a trade answer's fields might hold, the ones JSON changes or drops included. */
const field = fc.oneof(
  fc.string(), fc.double(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, null, undefined, true, 1e21),
  fc.constant({ toJSON: () => 'x' }), fc.constant(() => 1), fc.constant([1, 2]), fc.constant({ nested: 1 }), fc.constant(Symbol('s')),
);
const transaction = fc.oneof(
  fc.record({ fromAmount: field, toAmount: field, tradeAmountUsd: field, fromTokenSymbol: field, toTokenSymbol: field, id: fc.string() }, { requiredKeys: [] }),
  field,
);
const answer = fc.oneof(
  fc.record({ success: fc.boolean(), transaction, error: field }, { requiredKeys: [] }),
  fc.constant({ success: true, transaction: { toJSON: () => ({ fromAmount: 1 }) } }),
  field,
);

describe('ReplayRecorder', () => {
  it('keeps the same fields of a trade answer read as sent as of its JSON round trip', () => {
    fc.assert(fc.property(fc.integer({ min: 200, max: 599 }), answer, (status, sent) => {
      const r = new ReplayRecorder(plan);
      r.observe(`steps[${step}]`, sentResponse(status, sent, { n: 0 }));
      expect(r.step(step)).to.deep.equal(fromBody(status, sent));
    }), { numRuns: 2000 });
  });

  it('reads a plain trade answer without the whole-answer copy `body` makes', () => {
    const reads = { n: 0 };
    const sent = { success: true, transaction: { id: 't', fromAmount: 15, toAmount: -0, tradeAmountUsd: NaN, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL', reason: 'r' } };
    const r = new ReplayRecorder(plan);
    r.observe(`steps[${step}]`, sentResponse(200, sent, reads));
    expect(reads.n).to.equal(0);
    expect(r.step(step)).to.deep.equal({ status: 200, body: { transaction: { fromAmount: 15, toAmount: 0, tradeAmountUsd: null, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL' } } });
    expect(Object.is((r.step(step)!.body!.transaction as { toAmount: number }).toAmount, 0)).to.equal(true);
  });

  it('falls back to `body` when a field read is not a JSON scalar', () => {
    const reads = { n: 0 };
    const r = new ReplayRecorder(plan);
    r.observe(`steps[${step}]`, sentResponse(400, { success: false, error: { toJSON: () => 'boom' } }, reads));
    expect(reads.n).to.equal(1);
    expect(r.step(step)).to.deep.equal({ status: 400, body: { error: 'boom' } });
  });
});
