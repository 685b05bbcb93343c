// ${name.path} interpolation, dotted paths and durations of the scenario runner.
import { expect } from 'chai';
import { getPath, interpolate, interpolateString, parsePath, StepInputError } from '../../src/harness/interpolate.js';
import { parseCallLine, parseDuration } from '../../src/harness/steps.js';
import type { Json } from '../../src/harness/types.js';

const vars = new Map<string, Json>([
  ['alice', { name: 'alice', key: 'k_1', id: 'a-1' }],
  ['cup', { id: 'c-1', agents: [{ id: 'x' }, { id: 'y' }], value: 2500.5, open: true }],
  ['n', 7],
]);

describe('scenario interpolation', () => {
  it('parses dotted and bracketed paths', () => {
    expect(parsePath('')).to.deep.equal([]);
    expect(parsePath('agent.id')).to.deep.equal(['agent', 'id']);
    expect(parsePath('agents[0].id')).to.deep.equal(['agents', 0, 'id']);
    expect(parsePath('agents.1.id')).to.deep.equal(['agents', 1, 'id']);
    expect(parsePath('m[0][1]')).to.deep.equal(['m', 0, 1]);
    expect(() => parsePath('a..b')).to.throw(StepInputError, "bad path 'a..b' (empty segment)");
  });

  it('looks paths up and says when they are missing', () => {
    const v = { a: [{ b: null }] };
    expect(getPath(v, ['a', 0, 'b'])).to.deep.equal({ found: true, value: null });
    expect(getPath(v, ['a', 1])).to.deep.equal({ found: false, value: undefined });
    expect(getPath(v, ['a', 'length'])).to.deep.equal({ found: false, value: undefined });
  });

  it('replaces a whole-string reference by the typed value, and references inside text by their text', () => {
    expect(interpolateString('${cup.value}', vars)).to.equal(2500.5);
    expect(interpolateString('${cup.open}', vars)).to.equal(true);
    expect(interpolateString('${cup.agents}', vars)).to.deep.equal([{ id: 'x' }, { id: 'y' }]);
    expect(interpolateString('/api/competitions/${cup.id}/agents/${alice.id}', vars)).to.equal('/api/competitions/c-1/agents/a-1');
    expect(interpolateString('n=${n}, second=${cup.agents[1].id}, all=${cup.agents}', vars)).to.equal('n=7, second=y, all=[{"id":"x"},{"id":"y"}]');
    expect(interpolateString('Bearer ${alice.key}', vars)).to.equal('Bearer k_1');
  });

  it('keeps $${ as a literal ${ and leaves text without references alone', () => {
    expect(interpolateString('cost $${n} and $5', vars)).to.equal('cost ${n} and $5');
    expect(interpolateString('$${n}', vars)).to.equal('${n}');
    expect(interpolateString('no refs', vars)).to.equal('no refs');
  });

  it('interpolates every string value of a structure, not the keys', () => {
    expect(interpolate({ '${n}': ['${n}', { x: 'id ${alice.id}' }], y: 3 }, vars)).to.deep.equal({ '${n}': [7, { x: 'id a-1' }], y: 3 });
  });

  it('keeps a __proto__ key a member of the copy, as JSON.parse made it', () => {
    const copy = interpolate(JSON.parse('{"__proto__":{"admin":"${n}"},"a":1}') as Json, vars) as Record<string, Json>;
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect(Object.keys(copy)).to.deep.equal(['__proto__', 'a']);
    expect(JSON.stringify(copy)).to.equal('{"__proto__":{"admin":7},"a":1}');
  });

  it('fails with the known names for an unknown variable, and names a missing path', () => {
    expect(() => interpolateString('${bob.id}', vars)).to.throw(StepInputError, `unknown variable 'bob' in "\${bob.id}" (known: alice, cup, n)`);
    expect(() => interpolateString('x ${cup.nope}', vars)).to.throw(StepInputError, `'\${cup.nope}' in "x \${cup.nope}": cup has no 'nope'`);
    expect(() => interpolateString('${ }', vars)).to.throw(StepInputError, 'bad interpolation');
    expect(() => interpolateString('${cup..id}', vars)).to.throw(StepInputError, "bad path '.id' (empty segment)");
    expect(() => interpolateString('${bob..id}', vars)).to.throw(StepInputError, `unknown variable 'bob' in "\${bob..id}"`);
  });

  it('gives the same answers when a string is seen again, with the variables as they are now', () => {
    const now = new Map<string, Json>(vars);
    for (let round = 0; round < 2; round++) {
      expect(interpolateString('${cup.id}', now)).to.equal(round === 0 ? 'c-1' : 'c-2');
      expect(interpolateString('id ${cup.id} of $${n} ${n}', now)).to.equal(round === 0 ? 'id c-1 of ${n} 7' : 'id c-2 of ${n} 8');
      expect(() => interpolateString('x ${cup.nope}', now)).to.throw(StepInputError, `'\${cup.nope}' in "x \${cup.nope}": cup has no 'nope'`);
      expect(() => interpolateString('${cup..id}', now)).to.throw(StepInputError, "bad path '.id' (empty segment)");
      now.set('cup', { id: 'c-2' });
      now.set('n', 8);
    }
    expect(parsePath('agents[0].id')).to.deep.equal(['agents', 0, 'id']);
  });
});

describe('scenario step values', () => {
  it('parses durations into milliseconds', () => {
    expect(parseDuration(1500)).to.equal(1500);
    expect(parseDuration('500ms')).to.equal(500);
    expect(parseDuration('90s')).to.equal(90_000);
    expect(parseDuration('1h30m')).to.equal(5_400_000);
    expect(parseDuration('7d')).to.equal(604_800_000);
    expect(parseDuration('2w1d')).to.equal(15 * 86_400_000);
    expect(() => parseDuration('soon')).to.throw(StepInputError, 'not a duration: "soon"');
    expect(() => parseDuration(-1)).to.throw(StepInputError);
  });

  it('splits a call line into method, path and query', () => {
    expect(parseCallLine('GET /api/price?token=abc&chain=svm')).to.deep.equal({ method: 'GET', path: '/api/price', query: { token: 'abc', chain: 'svm' } });
    expect(parseCallLine('DELETE /api/x')).to.deep.equal({ method: 'DELETE', path: '/api/x', query: {} });
    expect(() => parseCallLine('get /x')).to.throw(StepInputError);
  });
});
