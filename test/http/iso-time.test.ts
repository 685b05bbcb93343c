// The ISO formatter of the HTTP edge writes exactly what Date#toISOString writes, whatever instants it sees in whatever order.
import { expect } from 'chai';
import fc from 'fast-check';
import { iso } from '../../src/http/resources/shared/time.js';

/** What iso must give: toISOString's text, or its RangeError. */
function reference(ms: number): string {
  return new Date(ms).toISOString();
}

const DAY = 86_400_000;
const START = Date.UTC(2025, 5, 2, 12);

describe('iso (HTTP instants)', () => {
  it('agrees with toISOString over sequences of instants: same day, day edges, fractions, before 1970, six-digit years', () => {
    const near = fc.integer({ min: -3 * DAY, max: 3 * DAY }).map((d) => START + d);
    const edge = fc.tuple(fc.integer({ min: -20_000, max: 20_000 }), fc.integer({ min: -2, max: 2 })).map(([day, d]) => day * DAY + d);
    const wide = fc.double({ min: -8.64e15, max: 8.64e15, noNaN: true });
    const fraction = fc.tuple(near, fc.double({ min: -0.999, max: 0.999, noNaN: true })).map(([t, f]) => t + f);
    const instants = fc.array(fc.oneof(near, edge, wide, fraction, fc.constantFrom(0, -0, -1, 253_402_300_799_999, 253_402_300_800_000)), { minLength: 1, maxLength: 40 });
    fc.assert(fc.property(instants, (list) => {
      for (const ms of list) expect(iso(ms), String(ms)).to.equal(reference(ms));
    }), { seed: 20261123, numRuns: 400 });
  });

  it('keeps null as null and throws RangeError for instants Date cannot hold, like toISOString', () => {
    expect(iso(null)).to.equal(null);
    iso(START); // a cached day must not let an invalid instant through
    for (const bad of [Number.NaN, Infinity, -Infinity, 8.64e15 + 1, -8.64e15 - 1]) {
      expect(() => iso(bad), String(bad)).to.throw(RangeError);
    }
    expect(iso(START + 1)).to.equal('2025-06-02T12:00:00.001Z');
  });
});
