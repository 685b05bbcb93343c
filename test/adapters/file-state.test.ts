// The file store's state directory: torn ends cut with a notice, corruption and newer versions refused, group commit, compaction, the lock.
import { expect } from 'chai';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as zlib from 'node:zlib';
import { crc32Fallback } from '../../src/adapters/file/crc32.js';
import { FileStore, type FileStoreOptions } from '../../src/adapters/file/file-store.js';
import { encodeFrame, scanFrames } from '../../src/adapters/file/frame.js';
import { readState } from '../../src/adapters/file/recovery.js';
import { listStateFiles } from '../../src/adapters/file/state-files.js';
import { RateLimiter } from '../../src/http/rate-limit.js';
import { Counter, SCHEMA, type T } from './store-contract.js';

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'compsim-state-'));
  dirs.push(d);
  return d;
};

/** Opens a store on `dir` with a counter attached and a log collecting notices. */
function openStore(dir: string, options: Omit<FileStoreOptions, 'dir'> = {}) {
  const notices: string[] = [];
  const store = new FileStore<T>(SCHEMA, { dir, log: { info: (m) => notices.push(m), warn: (m) => notices.push(m) }, ...options });
  const counter = new Counter();
  store.attach('counter', counter);
  return { store, counter, notices };
}

/** Writes `n` transactions (one row, one log line and a counter bump each), closes, returns the dump. */
async function fill(dir: string, n: number, options: Omit<FileStoreOptions, 'dir'> = {}) {
  const { store, counter } = openStore(dir, options);
  for (let i = 0; i < n; i++) {
    await store.transact((tx) => {
      tx.put('items', { id: `i${i % 7}`, group: `g${i % 3}`, n: i });
      tx.insert('logs', { id: tx.nextSeq('logs'), msg: `line ${i} ${'x'.repeat(100)}` });
      counter.value += 1;
    });
  }
  const dump = await store.dump();
  await store.close();
  return dump;
}

const lastJournal = (dir: string) => join(dir, listStateFiles(dir).journals.at(-1)!.name);

async function reopenError(dir: string): Promise<Error> {
  const { store } = openStore(dir);
  try {
    await store.dump();
  } catch (err) {
    return err as Error;
  } finally {
    await store.close();
  }
  throw new Error('expected the directory to be refused');
}

describe('FileStore state directory', () => {
  after(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('survives a reopen with rows, order, indexes, sequences and aux states', async () => {
    const dir = fresh();
    const before = await fill(dir, 20);
    const { store, counter } = openStore(dir);
    expect(await store.dump()).to.deep.equal(before);
    expect(counter.value).to.equal(20);
    expect((await store.read((tx) => tx.find('items', 'group', 'g1'))).map((r) => r.id)).to.deep.equal(['i2', 'i5', 'i6']);
    expect(await store.transact((tx) => tx.nextSeq('logs'))).to.equal(21);
    await store.close();
  });

  it('cuts a torn last record (a crash mid-append) with a notice naming the file and offset', async () => {
    const dir = fresh();
    const before = await fill(dir, 5);
    const file = lastJournal(dir);
    const size = statSync(file).size;
    const frame = encodeFrame(JSON.stringify({ seq: 6, w: 0, k: 'tx', ops: [['p', 'items', { id: 'torn', group: null, n: 0 }]] }));
    appendFileSync(file, frame.subarray(0, frame.length - 3));
    const { store, notices } = openStore(dir);
    expect(await store.dump()).to.deep.equal(before);
    expect(notices.join('\n')).to.include(`journal ${file}: cutting a torn last record at byte offset ${size}`);
    expect(statSync(file).size).to.equal(size);
    await store.close();
  });

  it('cuts a zero-filled end (blocks a power cut left unwritten)', async () => {
    const dir = fresh();
    const before = await fill(dir, 5);
    appendFileSync(lastJournal(dir), Buffer.alloc(8192));
    const { store, notices } = openStore(dir);
    expect(await store.dump()).to.deep.equal(before);
    expect(notices.join('\n')).to.include('zero-filled end');
    await store.close();
  });

  const INSPECT = (dir: string) => `Run \`compsim state inspect ${dir}\` to see what the directory still holds. compsim never loads a partial state: `
    + 'restore the directory from a backup, or start with another --state directory';

  it('refuses a journal cut short of its last acknowledged record, naming the file, the missing records and state inspect', async () => {
    const dir = fresh();
    await fill(dir, 40);
    const file = lastJournal(dir);
    const { frames } = scanFrames(readFileSync(file), file, false);
    const acked = JSON.parse(frames.at(-1)!.payload.toString()).seq as number;
    const half = Math.floor(statSync(file).size / 2);
    truncateSync(file, half);
    const left = scanFrames(readFileSync(file), file, true).frames.at(-1)!;
    const kept = JSON.parse(left.payload.toString()).seq as number;
    const err = await reopenError(dir);
    expect(err.message).to.equal(`corrupt state file ${file} at byte offset ${half}: the journal ends at record ${kept}, but records up to ${acked} `
      + `were acknowledged: records ${kept + 1}..${acked} are missing (the file was truncated). ${INSPECT(dir)}`);
    expect(statSync(file).size).to.equal(half);
    // state inspect reads it anyway and reports the loss.
    const { state, report } = readState(dir, undefined, true);
    expect(report.missing).to.equal(`${file}: the journal ends at record ${kept}, but records up to ${acked} were acknowledged: records ${kept + 1}..${acked} are missing (the file was truncated)`);
    expect(state.seq).to.equal(kept);
  });

  it('refuses a journal emptied or cut inside its header where no snapshot exists, and leaves the directory as it was', async () => {
    for (const bytes of [0, 5, 10]) {
      const dir = fresh();
      await fill(dir, 3);
      const file = lastJournal(dir);
      truncateSync(file, bytes);
      const err = await reopenError(dir);
      expect(err.message).to.equal(`corrupt state file ${file} at byte offset ${bytes}: the file has no complete header (${bytes} bytes): `
        + `it was truncated or emptied, and every record it held is missing. ${INSPECT(dir)}`);
      expect(readdirSync(dir)).to.deep.equal(['compsim-state.json', basename(file)]);
      expect(statSync(file).size).to.equal(bytes);
    }
  });

  it('refuses a directory whose journal and snapshot files are all gone instead of starting an empty state over it', async () => {
    const dir = fresh();
    await fill(dir, 3);
    for (const f of readdirSync(dir)) if (f.startsWith('journal-')) unlinkSync(join(dir, f));
    const err = await reopenError(dir);
    expect(err.message).to.equal(`corrupt state file ${join(dir, 'compsim-state.json')} at byte offset 0: the directory held a compsim state (this file says so) `
      + `but every journal and snapshot file is gone: the records they held are missing. ${INSPECT(dir)}`);
    expect(readdirSync(dir)).to.deep.equal(['compsim-state.json']);
    expect(readState(dir, undefined, true).report.missing).to.include('every journal and snapshot file is gone');
  });

  it('reads a journal written before marks existed, and goes on in a new file instead of writing over its header', async () => {
    const dir = fresh();
    await fill(dir, 5);
    const file = lastJournal(dir);
    const buf = readFileSync(file);
    writeFileSync(file, buf.subarray(scanFrames(buf, file, false).frames[1]!.offset)); // without its mark frame
    const before = await fill(dir, 3);
    expect(listStateFiles(dir).journals.map((j) => j.name)).to.have.length(2);
    expect(readFileSync(file).subarray(0, 40).equals(buf.subarray(scanFrames(buf, file, false).frames[1]!.offset).subarray(0, 40))).to.equal(true);
    const { store } = openStore(dir);
    expect(await store.dump()).to.deep.equal(before);
    await store.close();
  });

  it('refuses a flipped byte in any complete record, the last one included, naming the file and offset', async () => {
    for (const which of ['middle', 'last'] as const) {
      const dir = fresh();
      await fill(dir, 8);
      const file = lastJournal(dir);
      const buf = readFileSync(file);
      const { frames } = scanFrames(buf, file, false);
      const f = frames[which === 'middle' ? 4 : frames.length - 1]!;
      buf[f.offset + 30]! ^= 0x01;
      writeFileSync(file, buf);
      const err = await reopenError(dir);
      expect(err.name).to.equal('StateCorruptError');
      expect(err.message).to.include(`corrupt state file ${file} at byte offset ${f.offset}: payload checksum mismatch`);
    }
  });

  it('refuses a record with a valid checksum but the wrong shape, naming the file, the offset and the field', async () => {
    const cases: [unknown, string][] = [
      [{ seq: 3, w: 0, k: 'tx', ops: 'x' }, 'ops is not an array'],
      [{ seq: 3, w: 0, k: 'tx', ops: [['p', 'items', { group: 'g' }]] }, 'ops[0] is not ["p", table, row] or ["d", table, id]'],
      [{ seq: 3, w: 0, k: 'state', tables: { items: 5 }, seqs: {}, aux: {} }, 'tables.items is not an array'],
      [{ seq: 3, w: 0, k: 'named', tables: {}, seqs: {}, aux: {} }, 'a named snapshot record has no id'],
      [{ seq: 3, w: 0, k: 'tx', ops: [], auxChanges: { counter: 7 } }, 'auxChanges.counter is not a list of [key, ...values] entries'],
      [{ seq: 3, w: 0, k: 'wipe' }, 'unknown record kind "wipe"'],
      [null, 'the record is not an object'],
      [{ w: 0, k: 'tx', ops: [] }, 'the record has no seq'],
    ];
    for (const [record, reason] of cases) {
      const dir = fresh();
      await fill(dir, 2);
      const file = lastJournal(dir);
      const offset = statSync(file).size;
      appendFileSync(file, encodeFrame(JSON.stringify(record)));
      appendFileSync(file, encodeFrame(JSON.stringify({ seq: 4, w: 0, k: 'tx', ops: [] })));
      const err = await reopenError(dir);
      expect(err.name).to.equal('StateCorruptError');
      expect(err.message).to.include(`corrupt state file ${file} at byte offset ${offset}: ${reason}.`);
    }
  });

  it('refuses a directory written by a newer format version', async () => {
    const dir = fresh();
    await fill(dir, 2);
    const file = lastJournal(dir);
    const buf = readFileSync(file);
    buf.writeUInt16LE(2, 4);
    buf.writeUInt32LE(zlib.crc32(buf.subarray(0, 16)) >>> 0, 16);
    writeFileSync(file, buf);
    const err = await reopenError(dir);
    expect(err.name).to.equal('StateVersionError');
    expect(err.message).to.include(`state file ${file} was written by a newer compsim (format version 2; this build reads version 1)`);
  });

  it('shares one sync among transactions that commit while another sync runs (group commit)', async () => {
    const dir = fresh();
    const { store } = openStore(dir);
    await store.transact((tx) => { tx.insert('items', { id: 'first', group: null, n: 0 }); });
    const syncsBefore = store.stateDir!.syncs;
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.transact((tx) => {
      tx.insert('items', { id: `c${i}`, group: null, n: i });
    })));
    const used = store.stateDir!.syncs - syncsBefore;
    expect(used).to.be.within(1, 20);
    const before = await store.dump();
    await store.close();
    const again = openStore(dir);
    expect(await again.store.dump()).to.deep.equal(before);
    await again.store.close();
  });

  it('compacts into an atomic snapshot, drops the journal before it, and refuses a damaged snapshot', async () => {
    const dir = fresh();
    const before = await fill(dir, 200, { compactBytes: 4096 });
    const files = listStateFiles(dir);
    expect(files.snapshots).to.have.length(1);
    expect(files.journals).to.have.length(1);
    expect(files.journals[0]!.base).to.equal(files.snapshots[0]!.seq + 1);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).to.deep.equal([]);
    const { store } = openStore(dir);
    expect(await store.dump()).to.deep.equal(before);
    await store.close();

    const snap = join(dir, files.snapshots[0]!.name);
    const buf = readFileSync(snap);
    const { frames } = scanFrames(buf, snap, false);
    buf[frames[1]!.offset + 40]! ^= 0x20;
    writeFileSync(snap, buf);
    const err = await reopenError(dir);
    expect(err.message).to.include(`corrupt state file ${snap} at byte offset ${frames[1]!.offset}`);
  });

  it('lets one process hold a directory at a time and takes over the lock of a dead process or a reused pid', async () => {
    const dir = fresh();
    const first = openStore(dir);
    await first.store.dump();
    const err = await reopenError(dir);
    expect(err.name).to.equal('StateLockedError');
    expect(err.message).to.include(`is in use by process ${process.pid}`);
    await first.store.close();
    // A pid nobody has, then this very pid with another start time (a pid reused after a crash).
    for (const stale of ['999999999', `${process.pid} 1`]) {
      writeFileSync(join(dir, 'LOCK'), `${stale}\n`);
      const next = openStore(dir);
      await next.store.dump();
      expect(next.notices.join('\n'), stale).to.include('taking over the stale lock');
      await next.store.close();
    }
  });

  it('journals rate-limit windows as changes, a few bytes per request, and gets them back', async () => {
    const dir = fresh();
    const open = () => {
      const store = new FileStore<T>(SCHEMA, { dir });
      const limiter = new RateLimiter();
      store.attach('rateLimits', limiter);
      return { store, limiter };
    };
    const { store, limiter } = open();
    await store.dump();
    const before = statSync(lastJournal(dir)).size;
    for (let i = 0; i < 2000; i++) await store.transact(() => limiter.consume(`key${i}`, '/api/agents', 0));
    await store.transact((tx) => tx.put('items', { id: 'x', group: null, n: 1 })); // the last pending changes ride along
    const perRequest = (statSync(lastJournal(dir)).size - before) / 2000;
    expect(perRequest).to.be.below(150); // three windows a request; the whole map each time was tens of kilobytes
    const windows = limiter.capture();
    await store.close();
    const again = open();
    await again.store.dump();
    expect(again.limiter.capture()).to.deep.equal(windows);
    expect(again.limiter.kept).to.equal(6000);
    await again.store.close();
  });

  it('computes the same CRC-32 as zlib with the fallback table', () => {
    const data = Buffer.from('compsim journal frame \u00e9\u4e16'.repeat(50));
    expect(crc32Fallback(data)).to.equal(zlib.crc32(data) >>> 0);
    expect(crc32Fallback(data.subarray(10), crc32Fallback(data.subarray(0, 10)))).to.equal(zlib.crc32(data) >>> 0);
  });
});
