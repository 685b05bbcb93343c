// The containment attack (bench/attack.ts) against served --state children: every reproduction runs, with no process exit and no 5xx.
import { expect } from 'chai';
import { ATTACK_CASES } from '../bench/attack-cases.js';
import { printAttack, runAttack, type Launcher } from '../bench/attack.js';
import { CliPool } from './helpers/cli-pool.js';

describe('the containment attack on compsim serve --state', function () {
  this.timeout(300_000);
  let pool: CliPool;
  before(() => { pool = new CliPool(); });
  after(() => pool.close());

  /** Pre-loaded CLI children (compiled once), as the crash tests use. */
  const launcher = (): Launcher => ({
    async serve(args) {
      try {
        const { child, url } = await pool.serve(args);
        await child.waitFor(/server key: \S+/);
        return {
          url, pid: child.proc.pid, exited: child.exited, output: child.out,
          alive: () => child.proc.exitCode === null && child.proc.signalCode === null, kill: (sig) => child.proc.kill(sig),
        };
      } catch (err) {
        throw Object.assign(err as Error, { code: null, out: (err as Error).message });
      }
    },
  });

  it('runs every reproduction with 0 process exits and 0 unexpected 5xx (the idle-TTL wait on the wall clock runs in npm run attack only)', async () => {
    const report = await runAttack(launcher(), { wallClock: false, tokens: 12 });
    expect(report.cases.map((c) => c.name)).to.deep.equal(ATTACK_CASES.map((c) => c.name));
    expect(report.failures, printAttack(report)).to.deep.equal([]);
    expect(report.exits).to.equal(0);
    expect(report.fiveXX).to.equal(0);
    expect(report.expected503).to.equal(4);
    expect(report.requests).to.be.greaterThan(80);
  });
});
