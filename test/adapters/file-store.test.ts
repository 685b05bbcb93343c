// Runs the store contract against the file adapter; after each contract test the directory is reopened and must hold the same state.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '../../src/adapters/file/file-store.js';
import { Counter, SCHEMA, storeContract, type T } from './store-contract.js';

const open: { store: FileStore<T>; dir: string }[] = [];

function make(freeze = false): FileStore<T> {
  const dir = mkdtempSync(join(tmpdir(), 'compsim-store-'));
  const store = new FileStore<T>(SCHEMA, { dir, freeze });
  open.push({ store, dir });
  return store;
}

describe('FileStore', () => {
  afterEach(async () => {
    for (const { store, dir } of open.splice(0)) {
      // An empty transaction journals aux states the test changed outside transactions.
      const before = await store.transact(() => undefined).then(() => store.dump(), () => null);
      await store.close();
      if (before) {
        const again = new FileStore<T>(SCHEMA, { dir });
        again.attach('counter', new Counter());
        expect(await again.dump(), `reopened ${dir}`).to.deep.equal(JSON.parse(JSON.stringify(before)));
        await again.close();
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  storeContract('file', () => make());
  storeContract('file (frozen rows)', () => make(true));
});
