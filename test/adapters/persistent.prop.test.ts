// The memory store's copy-on-write structures against plain models: IdMap against a Map, OrdList against a sorted array, through writes, deletes and snapshots.
import { expect } from 'chai';
import fc from 'fast-check';
import { Generation } from '../../src/adapters/memory/generation.js';
import type { Key } from '../../src/adapters/memory/hash-keys.js';
import { IdMap, type FrozenIdMap } from '../../src/adapters/memory/id-map.js';
import { OrdList } from '../../src/adapters/memory/ord-list.js';
import { budget } from '../property/budget.js';

type Op =
  | { kind: 'set'; key: Key }
  | { kind: 'delete'; key: Key }
  | { kind: 'snapshot' };

/** Keys a Map tells apart and a weak hash might not: equal ends, -0 and 0, NaN, numbers and their strings. */
const key: fc.Arbitrary<Key> = fc.oneof(
  fc.nat(3000).map((n) => `${'x'.repeat(12)}${n}${'x'.repeat(12)}`),
  fc.nat(3000),
  fc.nat(3000).map(String),
  fc.constantFrom<Key>(Number.NaN, -0, 0, 1.5, -1, 2 ** 40, '', 'NaN'),
);

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: key.map((k) => ({ kind: 'set' as const, key: k })) },
  { weight: 4, arbitrary: key.map((k) => ({ kind: 'delete' as const, key: k })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
);

/** A table in miniature: rows (just their ids) by ordinal, as the memory store lays them out. */
class Rows {
  ids: (Key | undefined)[] = [];
  keyAt = (ord: number): Key | undefined => this.ids[ord];
}

/** Where `map` and the model disagree (empty when they agree everywhere). */
function mismatches(map: IdMap, model: Map<Key, number>, rows: Rows, probes: readonly Key[]): string[] {
  const out: string[] = [];
  if (map.size !== model.size) out.push(`size ${map.size} vs ${model.size}`);
  for (const [k, ord] of model) if (map.get(k) !== ord) out.push(`get ${String(k)}: ${map.get(k)} vs ${ord}`);
  for (const k of probes) if (map.has(k) !== model.has(k)) out.push(`has ${String(k)}`);
  rows.ids.forEach((id, ord) => {
    if (id !== undefined && map.get(id) !== ord) out.push(`row ${ord} (${String(id)})`);
  });
  return out;
}

describe('IdMap', () => {
  it('answers like a Map through writes, deletes and snapshots, and a snapshot never changes afterwards', () => {
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 2500, size: 'max' }), fc.array(key, { maxLength: 50 }), (ops, probes) => {
      const g = new Generation();
      const rows = new Rows();
      const map = new IdMap(g, rows.keyAt);
      const model = new Map<Key, number>();
      const snaps: { frozen: FrozenIdMap; rows: Rows; model: Map<Key, number> }[] = [];
      for (const o of ops) {
        if (o.kind === 'set') {
          if (model.has(o.key)) continue; // an id keeps its ordinal: a put replaces the row, not the entry
          const ord = rows.ids.length;
          rows.ids.push(o.key);
          map.set(o.key, ord);
          model.set(o.key, ord);
        } else if (o.kind === 'delete') {
          expect(map.delete(o.key)).to.equal(model.has(o.key));
          const ord = model.get(o.key);
          if (ord !== undefined) rows.ids[ord] = undefined;
          model.delete(o.key);
        } else {
          const copy = new Rows();
          copy.ids = rows.ids.slice();
          snaps.push({ frozen: map.freeze(), rows: copy, model: new Map(model) });
          g.next();
        }
      }
      expect(mismatches(map, model, rows, probes), 'live map').to.deep.equal([]);
      snaps.forEach((s, i) => {
        expect(mismatches(new IdMap(new Generation(), s.rows.keyAt, s.frozen), s.model, s.rows, probes), `snapshot ${i}`).to.deep.equal([]);
      });
    }), { seed: 20251123, numRuns: budget(40, 2000, 10), endOnFailure: true });
  });

  it('keeps every entry through shard growth and deleted-slot reuse at scale', () => {
    const g = new Generation();
    const rows = new Rows();
    const map = new IdMap(g, rows.keyAt);
    const n = 70_000;
    for (let i = 0; i < n; i++) {
      rows.ids.push(`id-${i}`);
      map.set(`id-${i}`, i);
    }
    for (let i = 0; i < n; i += 3) {
      expect(map.delete(`id-${i}`)).to.equal(true);
      rows.ids[i] = undefined;
    }
    for (let i = 0; i < n; i += 3) {
      rows.ids.push(`again-${i}`);
      map.set(`again-${i}`, rows.ids.length - 1);
    }
    expect(map.size).to.equal(n);
    rows.ids.forEach((id, ord) => {
      if (id !== undefined) expect(map.get(id)).to.equal(ord);
    });
    expect(map.get('id-0')).to.equal(undefined);
    expect(map.get('id-1')).to.equal(1);
  });
});

type ListOp = { kind: 'add'; v: number } | { kind: 'remove'; v: number } | { kind: 'snapshot' };

/** Mostly appends (ordinals grow), sometimes values below the last one, removals and snapshots. */
function listOps(): fc.Arbitrary<ListOp[]> {
  const op = fc.oneof(
    { weight: 20, arbitrary: fc.constant({ kind: 'add' as const, v: -1 }) },
    { weight: 2, arbitrary: fc.nat(3000).map((v) => ({ kind: 'add' as const, v })) },
    { weight: 2, arbitrary: fc.nat(3000).map((v) => ({ kind: 'remove' as const, v })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'snapshot' as const }) },
  );
  return fc.array(op, { minLength: 1, maxLength: 3000, size: 'max' });
}

function contents(list: OrdList): number[] {
  const out: number[] = [];
  list.forEach((v) => out.push(v));
  return out;
}

describe('OrdList', () => {
  it('holds the same sorted values as a model through appends, inserts, removals and snapshots (filled chunks included)', () => {
    fc.assert(fc.property(listOps(), fc.nat(3000), fc.nat(3000), (ops, a, b) => {
      let gen = 1;
      let list = new OrdList(gen);
      let model: number[] = [];
      let next = 0;
      const snaps: { list: OrdList; model: number[] }[] = [];
      for (const o of ops) {
        if (o.kind === 'snapshot') {
          snaps.push({ list, model: model.slice() });
          gen += 1;
          list = list.clone(gen);
          continue;
        }
        const v = o.kind === 'add' && o.v < 0 ? (next += 1 + (next % 3)) : o.v;
        if (o.kind === 'add') {
          list.add(v);
          if (!model.includes(v)) model = [...model, v].sort((x, y) => x - y);
        } else {
          expect(list.remove(v)).to.equal(model.includes(v));
          model = model.filter((x) => x !== v);
        }
      }
      const [from, to] = [Math.min(a, b, model.length), Math.min(Math.max(a, b), model.length)];
      for (const s of [...snaps, { list, model }]) {
        expect(contents(s.list)).to.deep.equal(s.model);
        expect(s.list.size).to.equal(s.model.length);
        expect(s.list.last()).to.equal(s.model.length === 0 ? -1 : s.model[s.model.length - 1]);
      }
      expect(list.range(from, to)).to.deep.equal(model.slice(from, to));
    }), { seed: 20251124, numRuns: budget(40, 2000, 10), endOnFailure: true });
  });
});
