// Scenario validation: the shipped schema, unknown keys named with file, step and key, and the other messages.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario, parseScenario, ScenarioError, scenarioSchema, SCHEMA_URL } from '../../src/harness/schema.js';
import { RESETTABLE_OPTIONS } from '../../src/world/world.js';
import { FAULT_KINDS } from '../../src/ports/faults.js';

const FILE = 'scenarios/x.scenario.json';
const base = { seed: 1, startTime: '2025-06-02T12:00:00Z', world: {}, steps: [] as unknown[] };

/** The problems of a document (empty when it validates). */
function problems(doc: unknown, file = FILE): string[] {
  try {
    parseScenario(JSON.stringify(doc), file);
    return [];
  } catch (err) {
    expect(err).to.be.instanceOf(ScenarioError);
    return (err as ScenarioError).problems.map((p) => `${file}: ${p}`);
  }
}

describe('scenario schema', () => {
  it('ships scenario.schema.json at the package root and lists it in package.json files', () => {
    const root = join(import.meta.dirname, '..', '..');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).to.include('scenario.schema.json');
    expect(SCHEMA_URL.pathname.endsWith('/scenario.schema.json')).to.equal(true);
    expect(scenarioSchema()).to.include({ $id: 'https://compsim.dev/scenario.schema.json' });
  });

  it('keeps world options and fault kinds in step with the sim API, and accepts the demo fixture as a world', () => {
    const defs = (scenarioSchema() as { definitions: Record<string, { properties: Record<string, { enum?: string[] }> }> }).definitions;
    expect(['startTime', ...Object.keys(defs.world!.properties)].sort()).to.deep.equal([...RESETTABLE_OPTIONS].sort());
    expect(defs.faultDef!.properties.kind!.enum).to.deep.equal([...FAULT_KINDS]);
    const demo = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'worlds', 'demo.json'), 'utf8')) as unknown;
    expect(problems({ ...base, world: { fixture: demo } })).to.deep.equal([]);
  });

  it('takes a bundled world by name as the fixture, and no world at all (every option at its default)', () => {
    expect(problems({ ...base, world: { fixture: 'demo' } })).to.deep.equal([]);
    const { world: _w, ...withoutWorld } = base;
    expect(problems(withoutWorld)).to.deep.equal([]);
    expect(problems({ ...base, world: { fixture: '../demo' } })).to.deep.equal([`${FILE}: world.fixture: "../demo" is not valid (The name of a bundled world, such as "demo" (fixtures/worlds/demo.json).)`]);
  });

  it('accepts a minimal scenario and every step verb', () => {
    expect(problems({
      ...base,
      $schema: '../scenario.schema.json', description: 'all verbs', actors: { alice: {}, bob: { register: { agentName: 'Bob' } }, carol: { key: 'k' } },
      steps: [
        { call: 'GET /api/health', as: 'alice', query: { a: 1, b: true }, headers: { 'x-y': 'z' }, body: { any: ['json'] },
          expect: { status: [200, 201], body: { a: { $approx: 1, $tol: 0.1 }, b: { $type: ['string', 'null'] }, c: { $regex: '^x' }, d: { $any: true }, e: { $len: { $gte: 1 } } } },
          save: { v: 'a.b[0]' }, actor: { name: 'dave', key: 'agent.apiKey', id: 'agent.id', userId: 'user.id' } },
        { advance: '1h30m' }, { advance: 5000 }, { advance: '${v}' }, { setTime: '2025-06-03T00:00:00Z' },
        { setPrice: { token: 'So1', price: 2 } }, { setPrice: [{ token: 'So1', specificChain: 'svm', price: '${v}' }] }, { setPrice: 'clear' },
        { setBalance: { agentId: '${bot.id}', competitionId: '${cup}', balances: [{ token: 'So1', amount: 5 }, { token: '0xab', specificChain: 'base', amount: '${v}' }] } },
        { fault: { kind: 'priceMissing', token: 'So1' }, name: 'f' }, { fault: { kind: 'latency', path: '/api', ms: 5 } }, { fault: { remove: 'f' } },
        { snapshot: 's' }, { restore: 's' }, { note: 'hello' },
      ],
    })).to.deep.equal([]);
  });

  it('names the file, the step index and the key of an unknown key in a step', () => {
    expect(problems({ ...base, steps: [{ note: 'ok' }, { call: 'GET /api/health', bdy: {} }] }))
      .to.deep.equal([`${FILE}: steps[1] (call): unknown key 'bdy'`]);
  });

  it('names unknown keys at every depth: top level, world, actors, expect, actor, fault', () => {
    expect(problems({ ...base, sed: 1 })).to.deep.equal([`${FILE}: top level: unknown key 'sed'`]);
    expect(problems({ ...base, world: { prices: { kind: 'randomWalk', stepMS: 1 } } })).to.deep.equal([`${FILE}: world.prices: unknown key 'stepMS'`]);
    expect(problems({ ...base, actors: { carol: { regster: {} } } })).to.deep.equal([`${FILE}: actors.carol: unknown key 'regster'`]);
    expect(problems({ ...base, steps: [{ call: 'GET /x', expect: { stauts: 200 } }] })).to.deep.equal([`${FILE}: steps[0] (call).expect: unknown key 'stauts'`]);
    expect(problems({ ...base, steps: [{ call: 'GET /x', actor: { name: 'a', key: 'k', handle: 'h' } }] })).to.deep.equal([`${FILE}: steps[0] (call).actor: unknown key 'handle'`]);
    expect(problems({ ...base, steps: [{ fault: { kind: 'priceZero', token: 't', colour: 'red' } }] })).to.deep.equal([`${FILE}: steps[0] (fault).fault: unknown key 'colour'`]);
  });

  it('names unknown matcher operators and misuse inside expect.body', () => {
    expect(problems({ ...base, steps: [{ call: 'GET /x', expect: { body: { agent: { $aprox: 1 } } } }] }))
      .to.deep.equal([`${FILE}: steps[0] (call).expect.body.agent: unknown matcher operator '$aprox' (known: $approx, $tol, $rel, $type, $regex, $any, $absent, $len, $gt, $gte, $lt, $lte)`]);
    expect(problems({ ...base, steps: [{ call: 'GET /x', expect: { body: { a: { $type: 'string', b: 1 } } } }] }))
      .to.deep.equal([`${FILE}: steps[0] (call).expect.body.a: mixes operators ($type) with plain keys (b)`]);
    expect(problems({ ...base, steps: [{ call: 'GET /x', expect: { body: { a: [{ $tol: 1 }, { $regex: '(' }, { $type: 'float' }, { $any: false }] } } }] })).to.deep.equal([
      `${FILE}: steps[0] (call).expect.body.a[0]: $tol and $rel only go with $approx`,
      `${FILE}: steps[0] (call).expect.body.a[1].$regex: Invalid regular expression: /(/: Unterminated group`,
      `${FILE}: steps[0] (call).expect.body.a[2].$type: unknown type "float" (known: string, number, integer, boolean, null, array, object)`,
      `${FILE}: steps[0] (call).expect.body.a[3].$any: must be true or a non-empty list of matchers`,
    ]);
  });

  it('rejects a step without a verb, or with two', () => {
    expect(problems({ ...base, steps: [{ foo: 1 }] }))
      .to.deep.equal([`${FILE}: steps[0]: not a step (found 'foo'; expected exactly one of call, advance, setTime, setPrice, setBalance, fault, snapshot, restore, note)`]);
    expect(problems({ ...base, steps: [{ snapshot: 'a', restore: 'a' }] }))
      .to.deep.equal([`${FILE}: steps[0]: has 'snapshot' and 'restore'; a step does exactly one thing`]);
  });

  it('explains bad values: call line, duration, enum, missing keys, fault parameters, names', () => {
    expect(problems({ ...base, steps: [{ call: 'FETCH /x' }, { advance: '5 minutes' }, { setPrice: { token: 'x' } }, { fault: { kind: 'latency', path: '/api' } }, { call: 'GET /x', as: 'not a name' }, { setBalance: { agentId: 'a', competitionId: 'c', balances: [{ token: 'So1', amount: -1 }] } }] })).to.deep.equal([
      `${FILE}: steps[0] (call).call: "FETCH /x" is not valid ("METHOD /path", e.g. "POST /api/trade/execute" (a query string may follow the path).)`,
      `${FILE}: steps[1] (advance).advance: "5 minutes" is not valid (A duration such as "500ms", "90s", "5m", "1h30m", "7d", "2w" (or "\${saved.value}").)`,
      `${FILE}: steps[2] (setPrice).setPrice: missing key 'price'`,
      `${FILE}: steps[3] (fault).fault: missing key 'ms'`,
      `${FILE}: steps[4] (call).as: "not a name" is not valid (A name: a letter or _ first, then letters, digits, _ or -.)`,
      `${FILE}: steps[5] (setBalance).setBalance.balances[0].amount: must be >= 0`,
    ]);
    expect(problems({ ...base, world: { slippage: 'some' } })).to.deep.equal([`${FILE}: world.slippage: must be one of "upstream", "expected", "none"`]);
    expect(problems({ seed: 1.5, steps: [] })).to.deep.equal([
      `${FILE}: top level: missing key 'startTime'`, `${FILE}: seed: must be integer or string`,
    ]);
  });

  it("reserves the actor name 'admin' and refuses both register and key", () => {
    expect(problems({ ...base, actors: { admin: {} } })).to.deep.equal([`${FILE}: actors: the name 'admin' is reserved`]);
    expect(problems({ ...base, actors: { bob: { key: 'k', register: {} } } })).to.deep.equal([`${FILE}: actors.bob: give 'register' or 'key', not both`]);
  });

  it('reports malformed JSON and lists every problem of a file at once', () => {
    expect(problems('{"seed": 1,' as unknown)).to.have.length(1);
    try {
      parseScenario('{"seed": 1,', FILE);
      expect.fail('no error');
    } catch (err) {
      expect((err as Error).message).to.match(/^scenarios\/x\.scenario\.json: not valid JSON: /);
    }
    expect(problems({ ...base, sed: 1, steps: [{ call: 'GET /x', bdy: 1 }, { nope: true }] })).to.have.length(3);
  });

  it('loads a file as UTF-8 text, ASCII or not, and names a file it cannot read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compsim-schema-'));
    try {
      for (const note of ['plain ASCII ~ \\ "quoted"', 'café – ✓ 😀 ünïcödé', '\u00ff\u0080 latin-1 range', '\u{10ffff} and \ud7ff']) {
        const file = join(dir, 'x.scenario.json');
        const doc = { ...base, steps: [{ note }] };
        writeFileSync(file, JSON.stringify(doc, null, 2));
        expect(loadScenario(file).doc, note).to.deep.equal(doc);
      }
      // A byte order mark is not JSON, whichever way the bytes are read.
      writeFileSync(join(dir, 'bom.json'), `\ufeff${JSON.stringify(base)}`);
      expect(() => loadScenario(join(dir, 'bom.json'))).to.throw(ScenarioError, /not valid JSON/);
      expect(() => loadScenario(join(dir, 'missing.json'))).to.throw(ScenarioError, /missing\.json: cannot read: ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
