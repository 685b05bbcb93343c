// `sweep merge`: shard directories of one sweep read back (each sweep.json checked) and joined into the data an unsharded sweep writes.
import { join } from 'node:path';
import { InputFileError, readInput } from './replay-input.js';
import { SweepInputError } from './sweep-input.js';
import type { SweepData, SweepRun } from './sweep-stats.js';
import type { SweepFile } from './sweep.js';

/** Reads and checks `dir/sweep.json` (size bounded; format, version and the run records' shape). */
export function readSweepFile(dir: string): SweepFile {
  const path = join(dir, 'sweep.json');
  let doc: SweepFile;
  try {
    doc = JSON.parse(readInput(path)) as SweepFile;
  } catch (err) {
    const why = err instanceof InputFileError ? err.reason : (err as Error).message;
    throw new SweepInputError(`cannot read ${path}: ${why}`);
  }
  const isRun = (r: unknown) => r !== null && typeof r === 'object' && Number.isInteger((r as SweepRun).run) && Array.isArray((r as SweepRun).standings);
  if (doc === null || typeof doc !== 'object' || doc.format !== 'compsim-sweep' || doc.version !== 1 || !Array.isArray(doc.runs)
    || !isRun(doc.base) || !doc.runs.every(isRun) || !Array.isArray(doc.seeds) || !Array.isArray(doc.vary) || !Number.isInteger(doc.totalRuns)) {
    throw new SweepInputError(`${path} is not the sweep.json of compsim sweep`);
  }
  return doc;
}

/** The data of shard directories `dirs` of one sweep (same scenario, seeds and `--vary`; each shard once, all of them). */
export function mergeSweeps(dirs: readonly string[]): SweepData {
  if (dirs.length === 0) throw new SweepInputError('name the shard directories to merge');
  const parts = dirs.map(readSweepFile);
  const first = parts[0]!;
  const same = (p: SweepFile) => p.docHash === first.docHash && p.source === first.source && JSON.stringify(p.seeds) === JSON.stringify(first.seeds)
    && JSON.stringify(p.vary) === JSON.stringify(first.vary) && p.base.hash === first.base.hash;
  const other = parts.findIndex((p) => !same(p));
  if (other >= 0) throw new SweepInputError(`${dirs[other]} is a sweep of another scenario, seed list or --vary than ${dirs[0]}`);
  const count = first.shard?.count ?? 1;
  const indices = parts.map((p) => p.shard?.index ?? 1);
  if (parts.some((p) => (p.shard?.count ?? 1) !== count)) throw new SweepInputError('the directories come from different --shard counts');
  const missing = Array.from({ length: Math.min(count, 1000) }, (_, i) => i + 1).filter((i) => !indices.includes(i));
  const twice = indices.find((x, i) => indices.indexOf(x) !== i);
  if (twice !== undefined) throw new SweepInputError(`shard ${twice}/${count} is given twice`);
  if (missing.length > 0) throw new SweepInputError(`missing shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')}`);
  const runs = parts.flatMap((p) => p.runs).sort((a, b) => a.run - b.run);
  if (runs.length !== first.totalRuns || runs.some((r, i) => r.run !== i + 1)) throw new SweepInputError(`the shards hold ${runs.length} runs, not the ${first.totalRuns} runs 1..${first.totalRuns}`);
  return { source: first.source, docHash: first.docHash, seeds: first.seeds, vary: first.vary, base: first.base, runs };
}
