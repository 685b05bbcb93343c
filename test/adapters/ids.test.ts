// Seeded ids: formats, determinism per seed, and state capture/restore.
import { expect } from 'chai';
import { SeededIds } from '../../src/adapters/ids/seeded-ids.js';

describe('SeededIds', () => {
  it('produces upstream formats', () => {
    const ids = new SeededIds(1);
    expect(ids.uuid()).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.apiKey()).to.match(/^[0-9a-f]{16}_[0-9a-f]{16}$/);
    expect(ids.nonce()).to.match(/^[A-Za-z0-9]{17}$/);
    expect(ids.wallet()).to.match(/^0x[0-9a-f]{40}$/);
    const r = ids.random();
    expect(r).to.be.at.least(0).and.below(1);
  });

  it('repeats the same sequence for the same seed (number or string) and differs across seeds', () => {
    const seq = (s: number | string) => { const i = new SeededIds(s); return [i.uuid(), i.apiKey(), i.random()]; };
    expect(seq(42)).to.deep.equal(seq(42));
    expect(seq('demo')).to.deep.equal(seq('demo'));
    expect(seq(42)).to.not.deep.equal(seq(43));
    expect(seq('a')).to.not.deep.equal(seq('b'));
  });

  it('resumes exactly from a captured state', () => {
    const a = new SeededIds(9);
    a.uuid();
    const st = a.capture();
    const next = [a.apiKey(), a.uuid()];
    const b = new SeededIds(1);
    b.apply(JSON.parse(JSON.stringify(st)));
    expect([b.apiKey(), b.uuid()]).to.deep.equal(next);
  });
});
