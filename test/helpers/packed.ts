// Test helper: compsim packed with `npm pack` (which runs the build, as a publish would) once per test process, for the tests that install it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = join(import.meta.dirname, '..', '..');
let tarball: string | undefined;

/** The path of compsim's tarball, packed on first use into a temporary folder removed when the process exits. */
export function packedTarball(): string {
  if (tarball !== undefined) return tarball;
  const dir = mkdtempSync(join(tmpdir(), 'compsim-packed-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = spawnSync(npm, ['pack', '--json', '--pack-destination', dir, '--loglevel=error'], { cwd: ROOT, encoding: 'utf8' });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stdout}${packed.stderr}`);
  const [entry] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  tarball = join(dir, entry!.filename);
  return tarball;
}
