// The replay's answer recorder: of a trade answer it keeps the error and the transaction fields the outcome reads, the same for any answer.
import { expect } from 'chai';
import fc from 'fast-check';
import { parseTrades } from '../../src/research/replay-input.js';
import { ReplayRecorder } from '../../src/research/replay-outcome.js';
import { replayPlan, replayScenario } from '../../src/research/replay-plan.js';
import type { Json } from '../../src/harness/types.js';

const T0 = Date.UTC(2025, 5, 2, 12);
const scenario = replayScenario(replayPlan(parseTrades(`timestamp,agent,fromToken,toToken,amount\n${T0},a,x,y,1\n`, 't.csv'), {}, { seed: 1, slippage: 'none', intervalMs: 300_000, rules: 'lenient' }));
const step = scenario.tradeSteps[0]!;
const READ = ['fromAmount', 'toAmount', 'tradeAmountUsd', 'fromTokenSymbol', 'toTokenSymbol'];

describe('ReplayRecorder', () => {
  it('keeps of a trade answer its status, its error and the transaction fields read back, and nothing else', () => {
    const field = fc.oneof(fc.string(), fc.double({ noNaN: true }), fc.constantFrom(null, true, [1], { nested: 1 })) as fc.Arbitrary<Json>;
    const transaction = fc.dictionary(fc.constantFrom(...READ, 'id', 'reason'), field);
    const body = fc.oneof(fc.record({ success: fc.boolean(), transaction, error: field }, { requiredKeys: [] }), field);
    fc.assert(fc.property(fc.integer({ min: 200, max: 599 }), fc.option(body, { nil: undefined }), (status, answer) => {
      const r = new ReplayRecorder(scenario);
      // The agent's balance read (step 1) is kept whole.
      r.observe('steps[1]', { status, body: { balances: [] } });
      r.observe(`steps[${step}]`, { status, body: answer });
      expect(r.balances(0)).to.deep.equal({ status, body: { balances: [] } });
      const kept = r.trade(0)!;
      expect(kept.status).to.equal(status);
      if (answer === undefined || answer === null || typeof answer !== 'object') {
        expect(kept.body).to.equal(undefined);
        return;
      }
      const a = answer as Record<string, Json>;
      const tx = a.transaction as Record<string, Json> | undefined;
      expect(kept.body).to.deep.equal({
        ...('error' in a ? { error: a.error } : {}),
        ...(tx !== undefined ? { transaction: Object.fromEntries(READ.map((k) => [k, tx[k]])) } : {}),
      });
    }), { seed: 20261126, numRuns: 500 });
  });
});
