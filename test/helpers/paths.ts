// Test helper: the repository root and scratch folders under test/artifacts.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..');

/** A fresh scratch folder under test/artifacts (git-ignored). */
export function scratch(name: string): string {
  const dir = join(ROOT, 'test', 'artifacts', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
