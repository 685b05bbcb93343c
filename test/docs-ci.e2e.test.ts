// docs/ci.md as written: its install commands and its GitHub Actions workflow's shell steps, run in a temporary project with scenarios of its own.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { packedTarball } from './helpers/packed.js';
import { parseXml } from './helpers/xml.js';

const ROOT = join(import.meta.dirname, '..');
const DOC = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
/** The project's own scenarios (four files, so shard 1 of 4 runs one). */
const SCENARIOS = ['admin/setup', 'competitions/fixture-world', 'health/health', 'trading/execute-and-quote'].map((n) => `scenarios/${n}.scenario.json`);

/** The text of the `## heading` section (up to the next `## `). */
function section(heading: string): string {
  const start = DOC.indexOf(`\n## ${heading}\n`);
  expect(start, heading).to.be.greaterThan(-1);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end < 0 ? undefined : end);
}

/** The fenced code blocks of `text` in `lang`. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

/** The shell commands of a workflow's `run:` steps, in order (`run: command` or a `run: |` block). */
function runSteps(yaml: string): string[] {
  const lines = yaml.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:- )?run: (.*)$/.exec(lines[i]!);
    if (!m) continue;
    if (m[2] !== '|') {
      out.push(m[2]!);
      continue;
    }
    const body: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.search(/\S/) > m[1]!.length)) body.push(lines[++i]!.trim());
    out.push(body.join('\n'));
  }
  return out;
}

/** Runs `script` in bash in `cwd`, npm reading its cache first (the machine ran `npm ci`). */
function bash(script: string, cwd: string, env: Record<string, string> = {}): { status: number | null; out: string } {
  const r = spawnSync('bash', ['-e', '-c', script], {
    cwd, encoding: 'utf8',
    env: { ...process.env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...env },
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('docs/ci.md (its commands, run in a project of its own)', function () {
  this.timeout(600_000);
  let work: string;
  let project: string;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'compsim-ci-doc-'));
    project = join(work, 'my-project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'my-project', private: true }, null, 2)}\n`);
    for (const f of SCENARIOS) cpSync(join(ROOT, f), join(project, f));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('installs compsim from a tarball packed in a checkout, then runs the workflow\'s shell steps (shard 1 of 4) with JUnit results', () => {
    const [install] = blocks(section('Installing compsim in your project'), 'sh');
    const lines = install!.split('\n');
    // This clone stands in for the fresh checkout: it ran `npm ci` already (running it again would
    // replace the node_modules this test runs from), and its tarball is packed once per test run.
    const clone = 'git clone <compsim repository URL> /tmp/compsim && cd /tmp/compsim';
    const checkoutCi = lines.find((l) => l.startsWith('npm ci'));
    const pack = lines.find((l) => l.startsWith('npm pack'));
    expect(lines).to.include(clone);
    expect([checkoutCi, pack]).to.not.include(undefined);
    expect(pack).to.match(/^npm pack --pack-destination "\$PROJECT\/vendor"/);
    const tarball = packedTarball();
    expect(install, 'the install line names the tarball npm pack writes').to.include(`npm install --save-dev ./vendor/${basename(tarball)}`);
    const script = lines.map((l) => (l === clone ? `cd ${JSON.stringify(ROOT)}` : l === checkoutCi ? '' : l === pack ? `cp ${JSON.stringify(tarball)} "$PROJECT/vendor/"` : l)).join('\n');
    const installed = bash(script, project);
    expect(installed.status, installed.out).to.equal(0);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies.compsim).to.equal(`file:vendor/${basename(tarball)}`);

    const [workflow] = blocks(section('GitHub Actions: a matrix of shards with JUnit results'), 'yaml');
    const steps = runSteps(workflow!).map((s) => s.replaceAll('${{ matrix.shard }}', '1'));
    expect(steps.join('\n')).to.not.include('${{');
    expect(steps).to.have.length(2);
    for (const step of steps) {
      const r = bash(step, project);
      expect(r.status, `${step}\n${r.out}`).to.equal(0);
    }
    // The results step reads the file the run step wrote.
    const reportPaths = /report_paths: (.+)/.exec(workflow!)![1]!.trim().replaceAll('${{ matrix.shard }}', '1');
    const junit = parseXml(readFileSync(join(project, reportPaths), 'utf8'));
    expect(junit.attrs).to.include({ name: 'compsim run (shard 1/4)', tests: '1', failures: '0', errors: '0' });
    expect(junit.children[0]!.children.filter((c) => c.name === 'testcase').map((c) => c.attrs.name)).to.deep.equal([SCENARIOS[0]]);
    expect(existsSync(join(project, 'reports', 'shard-1', 'report.html'))).to.equal(true);
    expect(dirname(reportPaths)).to.equal('reports');
  });
});
