// Finds scenario files: named files as given, folders searched recursively for *.scenario.json in sorted order.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Suffix of scenario files found in folders. */
export const SCENARIO_SUFFIX = '.scenario.json';

/** A path that is neither a file nor a folder. */
export class MissingPathError extends Error {}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const p = join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : walk(p);
      return e.isFile() && e.name.endsWith(SCENARIO_SUFFIX) ? [p] : [];
    });
}

/** Expands files and folders into scenario files (duplicates dropped, first occurrence kept). */
export function findScenarioFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new MissingPathError(`no such file or folder: ${p}`);
    }
    for (const f of st.isDirectory() ? walk(p) : [p]) if (!out.includes(f)) out.push(f);
  }
  return out;
}
