// compsim run --target against a server that does not answer: one infrastructure error with exit code 3, not a failure per scenario file.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_UNREACHABLE, parseRunArgs, runCommand, runMain } from '../../src/cli/run.js';
import { TargetUnreachable, type Target } from '../../src/harness/targets.js';
import { inProcessTarget } from '../../src/world/in-process-target.js';
import { parseXml } from '../helpers/xml.js';

const FILES = ['scenarios/health/health.scenario.json', 'scenarios/admin/setup.scenario.json', 'scenarios/competitions/fixture-world.scenario.json'];
const KEY = '0123456789abcdef_fedcba9876543210';

/** A local port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function io() {
  const text = { stdout: '', stderr: '' };
  return { text, streams: { stdout: { write: (s: string) => (text.stdout += s) }, stderr: { write: (s: string) => (text.stderr += s) } } };
}

describe('compsim run --target when the server does not answer', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'compsim-down-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 3 with one error naming the target, runs no file, and writes one JUnit <error> instead of a failure per file', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const junit = join(dir, 'junit.xml');
    const { text, streams } = io();
    const code = await runMain([...FILES, '--target', url, '--admin-key', KEY, '--junit', junit, '--json'], streams);
    expect(code).to.equal(EXIT_UNREACHABLE);
    expect(code).to.equal(3);
    const why = `cannot reach ${url}: connect ECONNREFUSED 127.0.0.1:${url.split(':')[2]}`;
    expect(text.stderr).to.include(`\n0 scenarios: 0 passed, 0 failed (target: ${url})\n`);
    expect(text.stderr.endsWith(`compsim run: ${why} (is the server up? start it with compsim serve --sim-api); 3 of 3 scenario files did not run\n`), text.stderr).to.equal(true);
    const json = JSON.parse(text.stdout) as { ok: boolean; unreachable: string; summary: { scenarios: number; failed: number } };
    expect(json).to.deep.include({ ok: false, unreachable: why });
    expect(json.summary).to.deep.include({ scenarios: 0, failed: 0 });
    const suites = parseXml(readFileSync(junit, 'utf8'));
    expect(suites.attrs).to.include({ tests: '1', failures: '0', errors: '1' });
    const cases = suites.children[0]!.children.filter((c) => c.name === 'testcase');
    expect(cases.map((c) => c.attrs.name)).to.deep.equal([`target ${url}`]);
    expect(cases[0]!.children[0]!).to.deep.include({ name: 'error', attrs: { message: why, type: 'unreachable' } });
  });

  it('reports a target that stops answering during the run once, keeping the results of the files that ran (exit 3)', async () => {
    let begun = 0;
    const inner = inProcessTarget();
    // Answers the first file, then refuses connections as a stopped server does.
    const flaky: Target = {
      label: 'http://flaky.example',
      begin: async (sc) => {
        begun += 1;
        if (begun > 1) throw new TargetUnreachable('cannot reach http://flaky.example: connect ECONNREFUSED');
        return inner.begin(sc);
      },
      send: (req) => inner.send(req),
      close: () => inner.close(),
    };
    const junit = join(dir, 'junit.xml');
    const { text, streams } = io();
    const code = await runCommand(parseRunArgs([...FILES, '--junit', junit]), streams, () => flaky);
    expect(code).to.equal(3);
    expect(text.stdout).to.include(`✓ ${FILES[0]}`);
    expect(text.stdout).to.include('\n1 scenario: 1 passed, 0 failed (target: http://flaky.example)\n');
    expect(text.stderr).to.equal('compsim run: cannot reach http://flaky.example: connect ECONNREFUSED (is the server up? start it with compsim serve --sim-api); 2 of 3 scenario files did not run\n');
    const suites = parseXml(readFileSync(junit, 'utf8'));
    expect(suites.attrs).to.include({ tests: '2', failures: '0', errors: '1' });
    expect(suites.children[0]!.children.filter((c) => c.name === 'testcase').map((c) => c.attrs.name)).to.deep.equal([FILES[0], 'target http://flaky.example']);
  });

  it('still counts an HTTP error answer as the scenario\'s failure (exit 1), not as an unreachable target', async () => {
    const inner = inProcessTarget();
    const refusing: Target = {
      label: 'refusing', begin: (sc) => inner.begin(sc), close: () => inner.close(),
      send: async (req) => (req.path === '/api/health' ? { status: 503, body: { success: false, error: 'down for maintenance' } } : inner.send(req)),
    };
    const { text, streams } = io();
    const code = await runCommand(parseRunArgs([FILES[0]!]), streams, () => refusing);
    expect(code).to.equal(1);
    expect(text.stderr).to.equal('');
    expect(text.stdout).to.include('0 passed, 1 failed');
  });
});
