// Summarises a V8 .cpuprofile (node --cpu-prof): self and total time per function, heaviest first.
import { readFileSync } from 'node:fs';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** Self and total (inclusive) milliseconds per function of a profile, heaviest self time first. */
export function summarise(profile: Profile): { name: string; selfMs: number; totalMs: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const label = (n: ProfileNode) => {
    const f = n.callFrame;
    const file = f.url.replace(/^.*\/work\/main\//, '').replace(/^file:\/\//, '');
    return `${f.functionName || '(anonymous)'} ${file ? `${file}:${f.lineNumber + 1}` : ''}`.trim();
  };
  const out = new Map<string, { selfMs: number; totalMs: number }>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const e = out.get(label(n)) ?? { selfMs: 0, totalMs: 0 };
    e.selfMs += ms;
    out.set(label(n), e);
    // Inclusive time: once per distinct function on the stack (recursion counted once).
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      const t = out.get(l) ?? { selfMs: 0, totalMs: 0 };
      t.totalMs += ms;
      out.set(l, t);
    }
  }
  return [...out].map(([name, v]) => ({ name, ...v })).sort((a, b) => b.selfMs - a.selfMs);
}

if (import.meta.filename === process.argv[1]) {
  const files = process.argv.slice(2).filter((a) => a.endsWith('.cpuprofile'));
  if (files.length === 0) {
    console.error('usage: node --import tsx bench/profile-summary.ts FILE.cpuprofile... [--top=40] [--total]');
    process.exit(2);
  }
  const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 40);
  // Several files (tsx's loader thread writes its own): the busiest one is the program's main thread.
  const rows = files.map((f) => summarise(JSON.parse(readFileSync(f, 'utf8')) as Profile))
    .sort((a, b) => b.reduce((s, r) => s + r.selfMs, 0) - a.reduce((s, r) => s + r.selfMs, 0))[0]!;
  if (process.argv.includes('--total')) rows.sort((a, b) => b.totalMs - a.totalMs);
  const all = rows.reduce((s, r) => s + r.selfMs, 0);
  console.log(`total ${all.toFixed(0)} ms sampled`);
  console.log(`${'self ms'.padStart(9)} ${'self %'.padStart(6)} ${'total ms'.padStart(9)}  function`);
  for (const r of rows.slice(0, top)) {
    console.log(`${r.selfMs.toFixed(1).padStart(9)} ${((r.selfMs / all) * 100).toFixed(1).padStart(6)} ${r.totalMs.toFixed(1).padStart(9)}  ${r.name}`);
  }
}
