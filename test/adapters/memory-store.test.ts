// Runs the store contract against the memory adapter, plus its row-freezing option.
import { expect } from 'chai';
import { MemoryStore } from '../../src/adapters/memory/memory-store.js';
import { SCHEMA, storeContract, type T } from './store-contract.js';

storeContract('memory', () => new MemoryStore<T>(SCHEMA));
storeContract('memory (frozen rows)', () => new MemoryStore<T>(SCHEMA, { freeze: true }));

describe('MemoryStore', () => {
  it('freezes stored rows when asked, so mutation throws', async () => {
    const store = new MemoryStore<T>(SCHEMA, { freeze: true });
    const row = await store.transact((tx) => tx.insert('items', { id: 'a', group: null, n: 1 }));
    expect(() => { (row as { n: number }).n = 2; }).to.throw(TypeError);
  });
});
