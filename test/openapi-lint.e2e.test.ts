// The served OpenAPI document passes `redocly lint` (the recommended rules, as configured in redocly.yaml) with no error and no warning.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ADMIN_KEY, startTestServer } from './helpers/server.js';

const ROOT = join(import.meta.dirname, '..');
const REDOCLY = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

/** One problem as `redocly lint --format=json` reports it. */
interface Problem { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] }

/** Runs `redocly lint` on `file` with the project's configuration; resolves with the problems it found. */
function lint(file: string): Promise<Problem[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [REDOCLY, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json'],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      (_err, stdout) => {
        // Exit code 1 means "problems found": the JSON on stdout says which.
        try {
          resolve((JSON.parse(stdout) as { problems: Problem[] }).problems);
        } catch {
          reject(new Error(`redocly lint printed no report: ${stdout.slice(0, 2000)}`));
        }
      });
  });
}

describe('GET /api/openapi.json under redocly lint', function () {
  this.timeout(120_000);

  it('has no error and no warning (recommended rules)', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    const dir = mkdtempSync(join(tmpdir(), 'compsim-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify((await s.call('GET', '/api/openapi.json')).body));
      const problems = await lint(file);
      expect(problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`)).to.deep.equal([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await s.close();
    }
  });

  it('reports a broken document (the linter really runs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compsim-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: {} } } } }));
      const problems = await lint(file);
      expect(problems.filter((p) => p.severity === 'error').length).to.be.greaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
