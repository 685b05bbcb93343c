// Determinism: the same seed and command sequence give byte-identical response logs on fresh worlds and over HTTP; a snapshot/restore in the middle changes nothing later.
import { expect } from 'chai';
import { checkedInProcessTarget } from './helpers/answers.js';
import { runScenario, type ScenarioResult } from '../src/harness/runner.js';
import { parseScenario } from '../src/harness/schema.js';
import { httpTarget } from '../src/harness/targets.js';
import type { ScenarioDoc, Step } from '../src/harness/types.js';
import { ADMIN_KEY, startTestServer } from './helpers/server.js';
import { figures } from './property/budget.js';
import { TOKENS } from './property/model.js';
import { renderScenario } from './property/regressions.js';
import { recordRun } from './property/run-model.js';

const parse = (doc: ScenarioDoc, name: string) => parseScenario(renderScenario(doc), `${name}.scenario.json`);

/** The logged exchanges of a run without their step labels (what was asked and answered). */
const exchanges = (r: ScenarioResult) => r.log.trimEnd().split('\n').map((line) => {
  const { at: _at, ...rest } = JSON.parse(line) as { at: string };
  return JSON.stringify(rest);
});

describe('determinism of a world under a command sequence', function () {
  this.timeout(60_000);
  let doc: ScenarioDoc;
  before(async () => {
    // A recorded model run with upstream slippage: ids, keys and slippage all come from the seeded generator.
    doc = await recordRun(31, 40, 'upstream', figures('determinism'));
  });

  it('gives byte-identical response logs on two fresh worlds with the same seed, and the same log over HTTP', async () => {
    const one = await runScenario(parse(doc, 'one'), checkedInProcessTarget());
    const two = await runScenario(parse(doc, 'two'), checkedInProcessTarget());
    expect(one.ok, one.failure?.message).to.equal(true);
    expect(one.requests).to.be.greaterThan(30);
    expect(two.log).to.equal(one.log);
    expect(two.hash).to.equal(one.hash);
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    try {
      const served = await runScenario(parse(doc, 'served'), httpTarget(s.url, { adminKey: ADMIN_KEY }));
      expect(served.log).to.equal(one.log);
    } finally {
      await s.close();
    }
  });

  it('gives a different log under another seed (the hash really depends on the run)', async () => {
    const one = await runScenario(parse(doc, 'one'), checkedInProcessTarget());
    const other = await runScenario(parse({ ...doc, seed: 32 }, 'other'), checkedInProcessTarget());
    expect(other.hash).to.not.equal(one.hash);
  });

  it('changes nothing later when the world is snapshotted mid-run, disturbed, and restored', async () => {
    const k = Math.floor(doc.steps.length / 2);
    expect(k).to.be.greaterThan(4); // past the set-up steps, so a1 and c1 exist
    const any = { status: [200, 201, 400, 403, 404] };
    const disturb: Step[] = [
      { call: 'POST /api/admin/users', as: 'admin', body: { walletAddress: `0x${'7'.repeat(40)}`, agentName: 'intruder' }, expect: any },
      { call: 'POST /api/trade/execute', as: 'a1', body: { competitionId: '${c1.id}', fromToken: TOKENS.USDC.address, toToken: TOKENS.SOL.address, amount: '25', reason: 'detour' }, expect: any },
      { call: 'GET /api/trade/quote', as: 'a1', query: { competitionId: '${c1.id}', fromToken: TOKENS.USDC.address, toToken: TOKENS.SOL.address, amount: '500' }, expect: any },
      { setPrice: { token: TOKENS.SOL.address, specificChain: 'svm', price: 999 } },
      { advance: '2h' },
    ];
    const forked: ScenarioDoc = { ...doc, steps: [...doc.steps.slice(0, k), { snapshot: 'mid' }, ...disturb, { restore: 'mid' }, ...doc.steps.slice(k)] };
    const plain = await runScenario(parse(doc, 'plain'), checkedInProcessTarget());
    const fork = await runScenario(parse(forked, 'fork'), checkedInProcessTarget());
    expect(fork.ok, fork.failure?.message).to.equal(true);
    const after = (r: ScenarioResult, from: number) => exchanges(r).filter((_, i) => {
      const at = JSON.parse(r.log.trimEnd().split('\n')[i]!).at as string;
      const m = /^steps\[(\d+)\]$/.exec(at);
      return m !== null && Number(m[1]) >= from;
    });
    const tail = after(plain, k);
    expect(tail.length).to.be.greaterThan(10);
    expect(after(fork, k + disturb.length + 2)).to.deep.equal(tail);
  });
});
