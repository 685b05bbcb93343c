// Long kill -9 torture of compsim serve --state (npm run test:torture): hundreds of seeded crashes; TORTURE_TRIALS and TORTURE_SEED override the defaults.
import { expect } from 'chai';
import { crashRun } from '../helpers/crash.js';

const TRIALS = Number(process.env.TORTURE_TRIALS ?? 300);
const SEED = Number(process.env.TORTURE_SEED ?? 7);

describe('compsim serve --state torture', function () {
  this.timeout(0);

  it(`keeps every acknowledged write across ${TRIALS} seeded kills (seed ${SEED})`, async () => {
    const t0 = performance.now();
    const stats = await crashRun({
      trials: TRIALS, seed: SEED, clients: 8, maxAcks: 80, compactMb: 0.5,
      log: (line) => process.stdout.write(`  ${((performance.now() - t0) / 1000).toFixed(1)}s ${line}\n`),
    });
    process.stdout.write(`  ${JSON.stringify(stats)}\n`);
    expect(stats.kills).to.equal(TRIALS);
  });
});
