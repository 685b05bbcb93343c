// editDistance: insertions, deletions, substitutions and a swap of neighbours each cost one edit.
import { expect } from 'chai';
import { editDistance } from '../../src/domain/edit-distance.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions, and a swap of two neighbours as one edit', () => {
    expect(editDistance('port', 'port')).to.equal(0);
    expect(editDistance('', 'abc')).to.equal(3);
    expect(editDistance('abc', '')).to.equal(3);
    expect(editDistance('seeds', 'seed')).to.equal(1);
    expect(editDistance('kitten', 'sitting')).to.equal(3);
    expect(editDistance('prot', 'port')).to.equal(1);
    expect(editDistance('mpc', 'mcp')).to.equal(1);
    expect(editDistance('formToken', 'fromToken')).to.equal(1);
  });

  it('is symmetric', () => {
    for (const [a, b] of [['prot', 'port'], ['sim', 'sim-api'], ['kitten', 'sitting'], ['ca', 'abc']] as const) {
      expect(editDistance(a, b), `${a} ${b}`).to.equal(editDistance(b, a));
    }
  });
});
