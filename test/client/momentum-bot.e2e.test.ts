// examples/momentum-bot.ts run as a child process against a served world.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorldFixture } from '../../src/world/fixture.js';
import { ADMIN_KEY, startTestServer } from '../helpers/server.js';
import { ROOT } from '../helpers/paths.js';

const DEMO = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture;

describe('examples/momentum-bot.ts', function () {
  this.timeout(180_000);

  it('trades every 5 virtual minutes for a virtual day against a served world and prints its rank', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, fixture: DEMO });
    try {
      const agent = s.world.fixture.agents[0]!;
      const competition = s.world.fixture.competitions.find((c) => c.status === 'active')!;
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'examples', 'momentum-bot.ts')], {
        cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, COMPSIM_URL: s.url, COMPSIM_AGENT_KEY: agent.apiKey, COMPSIM_ADMIN_KEY: ADMIN_KEY },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, out).to.equal(0);

      const lines = out.trim().split('\n');
      expect(lines[0]).to.equal(`Momentum Max in competition ${competition.id}, from 2025-06-02T12:00:00.000Z`);
      expect(lines).to.include('288 trades, 0 refused, until 2025-06-03T12:00:00.000Z');
      const trades = await s.world.deps.store.read((tx) => tx.all('trades'));
      expect(trades.filter((t) => t.agentId === agent.id && t.competitionId === competition.id)).to.have.length(288);
      const board = await s.call('GET', `/api/competitions/${competition.id}/agents`, { query: { limit: '100' } });
      const me = (board.body.agents as { id: string; rank: number; portfolioValue: number }[]).find((a) => a.id === agent.id)!;
      expect(lines.at(-1)).to.equal(`rank ${me.rank} of ${board.body.agents.length}`);
      expect(lines.at(-2)).to.match(new RegExp(`^portfolio \\$${me.portfolioValue.toFixed(2).replace('.', '\\.')} \\(-?\\d+\\.\\d{2}%\\)$`));
    } finally {
      await s.close();
    }
  });
});
