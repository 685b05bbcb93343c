// Step requests: the clock request of `setTime` and `at` (an instant already written as toISOString writes it is sent as it is, anything else is formatted), and a call's query.
import { expect } from 'chai';
import fc from 'fast-check';
import { callRequest, setTimeRequest } from '../../src/harness/steps.js';
import type { CallStep } from '../../src/harness/types.js';
import { StepInputError } from '../../src/harness/interpolate.js';

/** What the request carried before strings in toISOString's form were passed through: parse, then format. */
function formatted(value: string | number): string | null {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}

function sent(value: string | number): string | null {
  try {
    return setTimeRequest(value, 'at').body.set;
  } catch (err) {
    expect(err).to.be.instanceOf(StepInputError);
    expect((err as Error).message).to.equal(`at: not an ISO instant: "${String(value)}"`);
    return null;
  }
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

describe('scenario clock requests', () => {
  it('send the instant toISOString gives, for any date-like text, day and hour overflow included', () => {
    // Every field drawn past its range too: V8 reads 2025-02-30 as 2 March and hour 24 as the next day.
    const text = fc.tuple(
      fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 999 }),
      fc.constantFrom('Z', '+00:00', '', 'z'),
    ).map(([y, mo, d, h, mi, s, ms, zone]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}${zone}`);
    const instant = fc.integer({ min: -8.64e15, max: 8.64e15 });
    const value = fc.oneof(text, instant, instant.map((ms) => new Date(ms).toISOString()), fc.string());
    fc.assert(fc.property(value, (v) => {
      expect(sent(v)).to.equal(formatted(v));
    }), { seed: 20261123, numRuns: 5000 });
  });

  it('keep the leap-year rule (29 February only in leap years), month ends and hour 24', () => {
    expect(sent('2024-02-29T00:00:00.000Z')).to.equal('2024-02-29T00:00:00.000Z');
    expect(sent('2000-02-29T12:00:00.000Z')).to.equal('2000-02-29T12:00:00.000Z');
    expect(sent('1900-02-29T00:00:00.000Z')).to.equal('1900-03-01T00:00:00.000Z');
    expect(sent('2025-02-29T00:00:00.000Z')).to.equal('2025-03-01T00:00:00.000Z');
    expect(sent('2025-04-31T23:59:59.999Z')).to.equal('2025-05-01T23:59:59.999Z');
    // Hour 24 parses only as 24:00:00.000, too rare for the property to draw.
    expect(sent('2025-01-01T24:00:00.000Z')).to.equal('2025-01-02T00:00:00.000Z');
    expect(sent('2025-12-31T24:00:00.000Z')).to.equal('2026-01-01T00:00:00.000Z');
    expect(sent('2025-13-01T00:00:00.000Z')).to.equal(null);
  });
});

describe('scenario call requests', () => {
  it('merge the call line query and the step query as strings, the step winning, a __proto__ key kept as a member', () => {
    const step = JSON.parse('{"call":"GET /api/x?a=1&b=2&__proto__=line","query":{"b":3,"c":true,"__proto__":"step"}}') as CallStep;
    const req = callRequest(step, 'k1');
    expect(req).to.deep.equal({ method: 'GET', path: '/api/x', headers: { authorization: 'Bearer k1' }, query: JSON.parse('{"a":"1","b":"3","__proto__":"step","c":"true"}') });
    expect(Object.keys(req.query)).to.deep.equal(['a', 'b', '__proto__', 'c']);
    // deep.equal passes over own __proto__ members: read it directly.
    expect(Object.getOwnPropertyDescriptor(req.query, '__proto__')?.value).to.equal('step');
    expect(Object.getPrototypeOf(req.query)).to.equal(Object.prototype);
    expect(callRequest({ call: 'GET /api/y?z=9' }, undefined).query).to.deep.equal({ z: '9' });
    // Only in the step's query.
    const own = callRequest(JSON.parse('{"call":"GET /api/y","query":{"__proto__":1}}') as CallStep, undefined).query;
    expect(Object.keys(own)).to.deep.equal(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(own, '__proto__')?.value).to.equal('1');
    expect(Object.getPrototypeOf(own)).to.equal(Object.prototype);
  });
});
