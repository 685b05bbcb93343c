// Runs the store contract against the memory adapter, plus its row-freezing option.
import { expect } from 'chai';
import { MemoryStore } from '../../src/adapters/memory/memory-store.js';
import type { AuxState } from '../../src/ports/store.js';
import { SCHEMA, storeContract, type T } from './store-contract.js';

storeContract('memory', () => new MemoryStore<T>(SCHEMA));
storeContract('memory (frozen rows)', () => new MemoryStore<T>(SCHEMA, { freeze: true }));

describe('MemoryStore', () => {
  it('freezes stored rows when asked, so mutation throws', async () => {
    const store = new MemoryStore<T>(SCHEMA, { freeze: true });
    const row = await store.transact((tx) => tx.insert('items', { id: 'a', group: null, n: 1 }));
    expect(() => { (row as { n: number }).n = 2; }).to.throw(TypeError);
  });

  it('keeps a snapshot intact while the live tables change (copy-on-write across chunks and shards)', async () => {
    const store = new MemoryStore<T>(SCHEMA);
    await store.transact((tx) => {
      for (let n = 0; n < 3000; n++) tx.insert('items', { id: `i${n}`, group: `g${n % 7}`, n });
    });
    const before = await store.dump();
    const snap = await store.snapshot();
    await store.transact((tx) => {
      for (let n = 0; n < 3000; n += 3) tx.put('items', { id: `i${n}`, group: 'moved', n: -n });
      for (let n = 1; n < 3000; n += 5) tx.delete('items', `i${n}`);
      tx.insert('items', { id: 'new', group: 'g1', n: 1 });
    });
    expect(await store.read((tx) => tx.count('items', 'group', 'moved'))).to.equal(800); // every third moved, minus the deleted ones
    await store.restore(snap);
    expect(await store.dump()).to.deep.equal(before);
    expect(await store.read((tx) => tx.count('items', 'group', 'moved'))).to.equal(0);
    expect((await store.read((tx) => tx.find('items', 'group', 'g3'))).map((r) => r.n)).to.deep.equal(before.tables.items!.filter((r) => (r as { group: string }).group === 'g3').map((r) => (r as { n: number }).n));
  });

  it('gives restored tables the versions they had when the snapshot was taken (a cache of the same rows stays valid)', async () => {
    const store = new MemoryStore<T>(SCHEMA);
    await store.transact((tx) => tx.insert('items', { id: 'a', group: null, n: 1 }));
    const versions = () => store.read((tx) => [tx.version('items'), tx.version('logs')]);
    const taken = await versions();
    const snap = await store.snapshot();
    expect(await versions(), 'a snapshot changes no rows').to.deep.equal(taken);
    await store.transact((tx) => tx.put('items', { id: 'a', group: null, n: 2 }));
    await store.restore(snap);
    expect(await versions()).to.deep.equal(taken);
    await store.restore(snap);
    expect(await versions()).to.deep.equal(taken);
  });


  it('captures an aux state with a version only when the version moved', async () => {
    const store = new MemoryStore<T>(SCHEMA);
    let captures = 0;
    const aux: AuxState & { value: number; v: number } = {
      value: 1, v: 0,
      capture() { captures += 1; return this.value; },
      apply(x) { this.value = x as number; this.v += 1; },
      version() { return this.v; },
    };
    store.attach('versioned', aux);
    for (let i = 0; i < 5; i++) await store.transact(() => undefined);
    expect(captures).to.equal(1);
    await store.transact(() => {
      aux.value = 2;
      aux.v += 1;
      throw new Error('undo');
    }).catch(() => undefined);
    expect(aux.value).to.equal(1);
  });
});
