// The state-directory lock under contention: child processes take it at once, on a free and on a stale lock; exactly one wins.
import { expect } from 'chai';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('../helpers/lock-child.ts', import.meta.url));
const CHILDREN = 8;
const ROUNDS = 20;

type Answer = { won: boolean; error: string | null };
const answer = (c: ChildProcess) => new Promise<Answer>((resolve) => c.once('message', (m) => resolve(m as Answer)));

describe('state directory lock', () => {
  const children: ChildProcess[] = [];
  const root = mkdtempSync(join(tmpdir(), 'compsim-lock-'));
  before(async () => {
    for (let i = 0; i < CHILDREN; i++) children.push(fork(CHILD, [], { execArgv: ['--import', 'tsx'] }));
    await Promise.all(children.map((c) => new Promise((resolve) => c.once('spawn', resolve))));
  });
  after(() => {
    for (const c of children) c.kill();
    rmSync(root, { recursive: true, force: true });
  });

  it('lets exactly one of many simultaneous processes take it, free or stale, every round', async function () {
    this.timeout(120_000);
    for (let round = 0; round < ROUNDS; round++) {
      const dir = join(root, `r${round}`);
      mkdirSync(dir);
      // Odd rounds start from the lock of a dead process (no pid is that high), which every child tries to take over.
      if (round % 2 === 1) writeFileSync(join(dir, 'LOCK'), '999999999\n');
      const answers = children.map(answer);
      for (const c of children) c.send({ dir });
      const all = await Promise.all(answers);
      expect(all.filter((a) => a.error), `round ${round}`).to.deep.equal([]);
      expect(all.filter((a) => a.won).length, `round ${round}`).to.equal(1);
      expect(readdirSync(dir), `round ${round}`).to.deep.equal(['LOCK']);
    }
  });
});
