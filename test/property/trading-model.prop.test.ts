// The trading command model (fast-check asyncModelRun): invariants after every command, and shrunk failures saved as regression scenarios.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { checkedInProcessTarget } from '../helpers/answers.js';
import { runScenario } from '../../src/harness/runner.js';
import { findScenarioFiles } from '../../src/harness/files.js';
import { loadScenario, parseScenario } from '../../src/harness/schema.js';
import { budget, figures, reportFigures, SEEDS, timed } from './budget.js';
import { Driver } from './driver.js';
import { expectUnchanged } from './harness.js';
import { Recorder, regressionHash, renderScenario, scenarioDoc } from './regressions.js';
import { runModel, type ModelRunResult } from './run-model.js';

const explain = (r: ModelRunResult) => (r.failed ? `${r.message}\nshrunk commands: ${r.counterexample}\nregression scenario: ${r.file ?? '(not written)'}` : '');

describe('trading command model (property)', function () {
  this.timeout(budget(120_000, 7_200_000));
  const none = figures('trading model, slippage none');
  const upstream = figures('trading model, upstream slippage');
  after(() => reportFigures([none, upstream]));

  it('keeps every invariant after every command with slippage none (value conserved by every trade)', async () => {
    const r = await timed(none, () => runModel({ seed: SEEDS.model, numRuns: budget(20, 1500, 4), maxCommands: budget(30, 60), slippage: 'none', fig: none }));
    if (r.failed) none.findings.push(r.message!);
    expect(r.failed, explain(r)).to.equal(false);
  });

  it('keeps every invariant after every command with upstream slippage (value drops by exactly the recorded slippage)', async () => {
    const r = await timed(upstream, () => runModel({ seed: SEEDS.upstream, numRuns: budget(12, 1000, 3), maxCommands: budget(30, 60), slippage: 'upstream', fig: upstream }));
    if (r.failed) upstream.findings.push(r.message!);
    expect(r.failed, explain(r)).to.equal(false);
  });
});

describe('regression writer (a deliberately broken model, never the product)', function () {
  this.timeout(120_000);
  let dir: string;
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'compsim-regressions-'));
    dir = join(root, 'scenarios', 'regressions');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes the shrunk failure as <hash>.scenario.json: schema-valid, short, and failing at the step the model got wrong', async () => {
    const fig = figures('writer');
    const opts = { seed: SEEDS.model, numRuns: 60, maxCommands: 30, slippage: 'none' as const, fig, fakeBug: 'maxTradeOff' as const, dir };
    const r = await runModel(opts);
    expect(r.failed, 'the broken model must fail').to.equal(true);
    expect(r.message).to.match(/POST \/api\/trade\/execute: expected status 200, got 400/);
    expect(existsSync(r.file!)).to.equal(true);
    // The library test finds scenarios in subfolders, so files written to scenarios/regressions run in npm test.
    expect(findScenarioFiles([join(root, 'scenarios')])).to.deep.equal([r.file]);
    expect(basename(r.file!)).to.match(/^[0-9a-f]{16}\.scenario\.json$/);
    const sc = loadScenario(r.file!);
    expect(basename(r.file!)).to.equal(`${regressionHash(sc.doc)}.scenario.json`);
    expect(sc.doc.$schema).to.equal('../../scenario.schema.json');
    expect(sc.doc.description).to.match(/^Shrunk counterexample/);
    // Shrunk: the four set-up steps (two agents, a competition, its start) and the one trade.
    expect(sc.doc.steps.length).to.be.at.most(6);
    const replay = await runScenario(sc, checkedInProcessTarget());
    expect(replay.ok).to.equal(false);
    expect(replay.failure!.at).to.equal(`steps[${sc.doc.steps.length - 1}]`);
    expect(replay.failure!.message).to.match(/expected status 200, got 400/);
    // The same failure gives the same file.
    const again = await runModel({ ...opts, fig: figures('writer again') });
    expect(again.file).to.equal(r.file);
    expect(readFileSync(again.file!, 'utf8')).to.equal(readFileSync(r.file!, 'utf8'));
  });

  it('records the model expectation that failed (a slippage fee the product does not charge) with ids as ${names}', async () => {
    const r = await runModel({ seed: SEEDS.upstream, numRuns: 60, maxCommands: 30, slippage: 'none', fig: figures('writer fee'), fakeBug: 'slippageFee', dir });
    expect(r.failed).to.equal(true);
    const text = readFileSync(r.file!, 'utf8');
    expect(text).to.include('"as":"a1"').and.include('${c1.id}').and.include('"$approx"');
    expect(text).to.not.match(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}/); // no raw uuid survives: every id is a ${name}
    expect(r.replay!.ok).to.equal(false);
    expect(r.replay!.failure!.message).to.match(/toAmount/);
  });

  it('records a rejected request that changed the world as a GET /api/sim/dump step expecting the earlier values', async () => {
    const start = { seed: 5, startTime: '2025-06-02T12:00:00.000Z', world: {} };
    const d = await Driver.create(start);
    const real = { d, rec: new Recorder(), fig: figures('dump expectation') };
    const before = await d.mark();
    // Stand-in for a product bug: something advanced the seeded generator behind a refusal.
    await d.world.deps.store.transact(() => {
      d.world.deps.ids.random();
    });
    let message = '';
    await expectUnchanged(real, before, 'probe').catch((err: Error) => {
      message = err.message;
    });
    expect(message).to.equal('probe was rejected but changed the world: aux.ids');
    expect(real.rec.steps).to.have.length(1);
    expect(real.rec.steps[0]).to.deep.include({ call: 'GET /api/sim/dump', as: 'admin' });
    // On a world where nothing went wrong the expectation holds; on the disturbed one it does not.
    const ok = await runScenario(parseScenario(renderScenario(scenarioDoc(start, real.rec.steps, 'dump')), 'dump.scenario.json'), checkedInProcessTarget());
    expect(ok.ok, ok.failure?.message).to.equal(true);
  });

  it('names target-chosen values and escapes literal ${ in recorded steps', () => {
    const rec = new Recorder();
    rec.name('11111111-2222-4333-8444-555555555555', '${a1.id}');
    rec.add({ call: 'GET /api/agents/11111111-2222-4333-8444-555555555555', expect: { body: { id: '11111111-2222-4333-8444-555555555555', note: 'cost ${x}' } } });
    expect(rec.steps[0]).to.deep.equal({ call: 'GET /api/agents/${a1.id}', expect: { body: { id: '${a1.id}', note: 'cost $${x}' } } });
    const doc = scenarioDoc({ seed: 1, startTime: '2025-06-02T12:00:00.000Z', world: {} }, rec.steps, 'one');
    expect(regressionHash(doc)).to.equal(regressionHash({ ...doc, description: 'another description' }));
  });
});
