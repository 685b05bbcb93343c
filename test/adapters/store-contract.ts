// Contract suite every Store adapter must pass (memory and file).
import { expect } from 'chai';
import type { AuxState, Schema, Store, WriteTx } from '../../src/ports/store.js';

/** Row types of the contract's tiny schema. */
export interface T { items: { id: string; group: string | null; n: number }; logs: { id: number; msg: string } }

/** The contract's schema: one indexed table, one serial table. */
export const SCHEMA: Schema<T> = { items: { key: 'id', indexes: { group: (r) => r.group } }, logs: { key: 'id' } };

/** A counter aux state, to check aux rollback and snapshots. */
export class Counter implements AuxState {
  value = 0;
  capture(): unknown { return this.value; }
  apply(v: unknown): void { this.value = v as number; }
}

/** Registers the contract tests for a store factory. */
export function storeContract(name: string, make: () => Store<T>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store<T>;
    let counter: Counter;
    beforeEach(() => {
      store = make();
      counter = new Counter();
      store.attach('counter', counter);
    });

    it('inserts, reads, finds by index and counts in insertion order', async () => {
      await store.transact((tx) => {
        tx.insert('items', { id: 'b', group: 'x', n: 1 });
        tx.insert('items', { id: 'a', group: 'x', n: 2 });
        tx.insert('items', { id: 'c', group: null, n: 3 });
      });
      await store.read((tx) => {
        expect((tx.all('items')).map((r) => r.id)).to.deep.equal(['b', 'a', 'c']);
        expect((tx.find('items', 'group', 'x')).map((r) => r.id)).to.deep.equal(['b', 'a']);
        expect(tx.count('items')).to.equal(3);
        expect(tx.count('items', 'group', 'x')).to.equal(2);
        expect(tx.get('items', 'zzz')).to.equal(undefined);
      });
    });

    it('slices the rows of an index key by position, like Array.prototype.slice', async () => {
      await store.transact((tx) => {
        for (let n = 0; n < 1200; n++) tx.insert('items', { id: `i${n}`, group: n % 2 === 0 ? 'even' : 'odd', n });
        tx.delete('items', 'i2');
      });
      await store.read((tx) => {
        const all = tx.find('items', 'group', 'even');
        const ns = (rows: { n: number }[]) => rows.map((r) => r.n);
        expect(ns(tx.slice('items', 'group', 'even', -1))).to.deep.equal([1198]);
        expect(ns(tx.slice('items', 'group', 'even', 0, 2))).to.deep.equal([0, 4]);
        expect(ns(tx.slice('items', 'group', 'even', 510, 515))).to.deep.equal(ns(all.slice(510, 515)));
        expect(ns(tx.slice('items', 'group', 'even', -3, -1))).to.deep.equal(ns(all.slice(-3, -1)));
        expect(tx.slice('items', 'group', 'even', 700)).to.deep.equal([]);
        expect(tx.slice('items', 'group', 'none', 0)).to.deep.equal([]);
      });
    });

    it('rejects a duplicate insert and keeps put in place, moving index entries', async () => {
      await store.transact((tx) => {
        tx.insert('items', { id: 'a', group: 'x', n: 1 });
        tx.insert('items', { id: 'b', group: 'y', n: 2 });
      });
      let err: unknown;
      try {
        await store.transact((tx) => tx.insert('items', { id: 'a', group: 'x', n: 9 }));
      } catch (e) { err = e; }
      expect(err).to.be.instanceOf(Error);
      await store.transact((tx) => tx.put('items', { id: 'a', group: 'y', n: 5 }));
      await store.read((tx) => {
        expect((tx.all('items')).map((r) => r.id)).to.deep.equal(['a', 'b']);
        expect((tx.find('items', 'group', 'y')).map((r) => r.id)).to.deep.equal(['a', 'b']);
        expect(tx.count('items', 'group', 'x')).to.equal(0);
      });
    });

    it('rolls back rows, indexes, sequences and aux states when a transaction throws', async () => {
      await store.transact((tx) => {
        tx.insert('items', { id: 'a', group: 'x', n: 1 });
        tx.insert('logs', { id: tx.nextSeq('logs'), msg: 'first' });
      });
      const before = await store.dump();
      try {
        await store.transact((tx) => {
          tx.put('items', { id: 'a', group: 'z', n: 2 });
          tx.insert('items', { id: 'b', group: 'z', n: 3 });
          tx.delete('items', 'a');
          tx.insert('logs', { id: tx.nextSeq('logs'), msg: 'second' });
          counter.value = 42;
          throw new Error('boom');
        });
      } catch { /* expected */ }
      expect(await store.dump()).to.deep.equal(before);
      expect(counter.value).to.equal(0);
      await store.read((tx) => {
        expect(tx.count('items', 'group', 'z')).to.equal(0);
        expect((tx.find('items', 'group', 'x')).map((r) => r.id)).to.deep.equal(['a']);
      });
      expect(await store.transact((tx) => tx.nextSeq('logs'))).to.equal(2);
    });

    it('restores a deleted row to its old position on rollback', async () => {
      await store.transact((tx) => {
        for (const id of ['a', 'b', 'c']) tx.insert('items', { id, group: 'g', n: 0 });
      });
      await store.transact((tx) => {
        tx.delete('items', 'b');
        throw new Error('undo');
      }).catch(() => undefined);
      expect((await store.read((tx) => tx.all('items'))).map((r) => r.id)).to.deep.equal(['a', 'b', 'c']);
    });

    it('runs each body at once and whole: a call sees every call made before it, awaited or not', async () => {
      await store.read(() => undefined); // a file store opens its directory on its first call
      const order: string[] = [];
      const t1 = store.transact((tx) => {
        tx.insert('items', { id: 'a', group: null, n: 1 });
        tx.insert('items', { id: 'b', group: null, n: 2 });
        order.push('t1');
      });
      const r1 = store.read((tx) => {
        order.push(`read-${tx.count('items')}`);
        return tx.count('items');
      });
      expect(order).to.deep.equal(['t1', 'read-2']);
      await t1;
      expect(await r1).to.equal(2);
    });

    it('refuses a body that returns a promise and rolls back what it wrote', async () => {
      // The port's types refuse an async body; a cast stands for a caller that got around them.
      const asyncBody = (async (tx: WriteTx<T>) => {
        tx.insert('items', { id: 'early', group: null, n: 1 });
        await Promise.resolve();
      }) as unknown as (tx: WriteTx<T>) => void;
      let err: unknown;
      try {
        await store.transact(asyncBody);
      } catch (e) { err = e; }
      expect(String(err)).to.equal('Error: a store call body must be synchronous: it returned a promise (its changes were rolled back)');
      expect(await store.read((tx) => tx.get('items', 'early'))).to.equal(undefined);
    });

    it('rejects a store call nested inside a transaction instead of deadlocking', async () => {
      let err: unknown;
      try {
        await store.transact(() => {
          void store.read(() => 1);
        });
      } catch (e) { err = e; }
      expect(String(err)).to.match(/nested/);
    });

    it('snapshots and restores rows, sequences and aux state; restoring twice forks identical runs', async () => {
      await store.transact((tx) => {
        tx.insert('items', { id: 'a', group: 'x', n: 1 });
        tx.nextSeq('logs');
      });
      counter.value = 7;
      const snap = await store.snapshot();
      const run = async () => {
        await store.restore(snap);
        await store.transact((tx) => {
          tx.insert('logs', { id: tx.nextSeq('logs'), msg: `n${counter.value}` });
          tx.put('items', { id: 'a', group: 'y', n: 2 });
          counter.value += 1;
        });
        return { dump: await store.dump(), counter: counter.value };
      };
      const first = await run();
      const second = await run();
      expect(second).to.deep.equal(first);
      expect(first.counter).to.equal(8);
      await store.restore(snap);
      expect(counter.value).to.equal(7);
      expect(await store.read((tx) => tx.count('items', 'group', 'x'))).to.equal(1);
    });

    it('moves a table version on every change of that table only, and never reuses one for other rows', async () => {
      const versions = () => store.read((tx) => ({ items: tx.version('items'), logs: tx.version('logs') }));
      const v0 = await versions();
      expect(await versions(), 'reads change nothing').to.deep.equal(v0);
      await store.transact((tx) => tx.insert('items', { id: 'a', group: 'x', n: 1 }));
      const v1 = await versions();
      expect(v1.items).to.not.equal(v0.items);
      expect(v1.logs, 'another table').to.equal(v0.logs);
      await store.transact(() => undefined);
      expect(await versions(), 'an empty transaction').to.deep.equal(v1);
      await store.transact((tx) => tx.put('items', { id: 'a', group: 'y', n: 2 }));
      const v2 = await versions();
      expect(v2.items).to.not.equal(v1.items);
      await store.transact((tx) => tx.delete('items', 'a'));
      const v3 = await versions();
      expect(v3.items).to.not.equal(v2.items);
      expect(await store.transact((tx) => tx.delete('items', 'zzz'))).to.equal(false);
      expect(await versions(), 'deleting nothing').to.deep.equal(v3);
      const seen = new Set([v0.items, v1.items, v2.items, v3.items]);
      expect(seen.size, 'distinct contents, distinct numbers').to.equal(4);
    });

    it('moves a table version inside a transaction, and again when the transaction is rolled back', async () => {
      await store.transact((tx) => tx.insert('items', { id: 'a', group: 'x', n: 1 }));
      const before = await store.read((tx) => tx.version('items'));
      let inside = 0;
      await store.transact((tx) => {
        tx.put('items', { id: 'a', group: 'x', n: 99 });
        inside = tx.version('items');
        throw new Error('undo');
      }).catch(() => undefined);
      expect(inside).to.not.equal(before);
      // A value cached from the rolled-back rows (version `inside`) must not look current.
      expect(await store.read((tx) => tx.version('items'))).to.not.equal(inside);
      expect((await store.read((tx) => tx.get('items', 'a')))!.n).to.equal(1);
    });

    it('moves a table version on restore and load when the rows differ', async () => {
      await store.transact((tx) => tx.insert('items', { id: 'a', group: 'x', n: 1 }));
      const snap = await store.snapshot();
      const atSnapshot = await store.read((tx) => tx.version('items'));
      await store.transact((tx) => tx.put('items', { id: 'a', group: 'x', n: 2 }));
      const changed = await store.read((tx) => tx.version('items'));
      await store.restore(snap);
      const restored = await store.read((tx) => tx.version('items'));
      expect(restored).to.not.equal(changed);
      expect((await store.read((tx) => tx.get('items', 'a')))!.n).to.equal(1);
      // Equal numbers mean equal rows: if a restore brings a number back, it is the snapshot's.
      if (restored !== atSnapshot) expect([atSnapshot, changed]).to.not.include(restored);
      const dump = await store.dump();
      await store.transact((tx) => tx.put('items', { id: 'a', group: 'x', n: 3 }));
      const beforeLoad = await store.read((tx) => tx.version('items'));
      await store.load(dump);
      expect(await store.read((tx) => tx.version('items'))).to.not.equal(beforeLoad);
    });

    it('round-trips dump and load (a versioned JSON document)', async () => {
      await store.transact((tx) => {
        tx.insert('items', { id: 'a', group: 'x', n: 1 });
        tx.insert('logs', { id: tx.nextSeq('logs'), msg: 'hello' });
      });
      counter.value = 3;
      const dump = JSON.parse(JSON.stringify(await store.dump()));
      expect(dump).to.include({ format: 'compsim-world', version: 1 });
      const other = make();
      const c2 = new Counter();
      other.attach('counter', c2);
      await other.load(dump);
      expect(await other.dump()).to.deep.equal(dump);
      expect(c2.value).to.equal(3);
      expect(await other.read((tx) => tx.find('items', 'group', 'x'))).to.have.length(1);
      expect(await other.transact((tx) => tx.nextSeq('logs'))).to.equal(2);
    });

    it('refuses a document that is not a compsim dump', async () => {
      let err: unknown;
      try {
        await store.load({ format: 'other' } as never);
      } catch (e) { err = e; }
      expect(String(err)).to.match(/not a compsim-world dump/);
    });
  });
}
