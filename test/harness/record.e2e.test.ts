// compsim record as a child process: a proxy recording into a skeleton that compsim run passes, in-process and against the target.
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { compsim, runToEnd, serveSim, SERVE_KEY } from './child.js';
import { ROOT, scratch } from '../helpers/paths.js';

describe('compsim record (child processes)', function () {
  this.timeout(60_000);

  it('records traffic through the proxy into a skeleton that compsim run then passes, in-process and against the target', async () => {
    const server = await serveSim();
    const dir = scratch('record');
    const out = join(dir, 'recorded.scenario.json');
    const rec = compsim(['record', '--target', server.url, '--out', relative(ROOT, out), '--port', '0', '--admin-key', SERVE_KEY, '--seed', '42']);
    try {
      const [, proxy] = await rec.waitFor(/proxy on (http:\/\/127\.0\.0\.1:\d+)/);
      const call = async (method: string, path: string, key?: string, body?: unknown) => {
        const res = await fetch(`${proxy}${path}`, {
          method, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, body: await res.json() as Record<string, any> };
      };
      const user = await call('POST', '/api/admin/users', SERVE_KEY, { walletAddress: '0x00000000000000000000000000000000000000aa', agentName: 'Rec Bot' });
      expect(user.status).to.equal(201);
      const key = user.body.agent.apiKey as string;
      const cup = await call('POST', '/api/admin/competition/start', SERVE_KEY, { name: 'Rec Cup', agentIds: [user.body.agent.id] });
      expect(cup.status).to.equal(200);
      expect((await call('POST', '/api/sim/clock', SERVE_KEY, { advanceMs: 600_000 })).status).to.equal(200);
      const trade = await call('POST', '/api/trade/execute', key, {
        fromToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', toToken: 'So11111111111111111111111111111111111111112', amount: '100', reason: 'recorded',
      });
      expect(trade.status).to.equal(200);
      expect((await call('GET', `/api/agent/balances?competitionId=${cup.body.competition.id as string}`, key)).status).to.equal(200);
      expect((await call('GET', '/api/agent/balances', 'bogus_key')).status).to.equal(401);
      rec.child.kill('SIGINT');
      expect(await rec.exited).to.equal(0);
      expect(rec.stdout(), rec.stderr()).to.include('wrote test/artifacts/record/recorded.scenario.json (6 steps)');

      const doc = JSON.parse(readFileSync(out, 'utf8'));
      expect(doc).to.include({ $schema: '../../../scenario.schema.json', seed: 42 });
      expect(existsSync(resolve(dirname(out), doc.$schema as string)), 'the $schema path resolves from the written file').to.equal(true);
      expect(doc.steps.map((s: Record<string, unknown>) => (s.call ? `${String(s.call)}${s.as ? ` as ${String(s.as)}` : ''}` : Object.keys(s)[0]))).to.deep.equal([
        'POST /api/admin/users as admin', 'POST /api/admin/competition/start as admin', 'advance',
        'POST /api/trade/execute as rec_bot', 'GET /api/agent/balances as rec_bot', 'GET /api/agent/balances',
      ]);
      expect(doc.steps[5].headers).to.deep.equal({ authorization: 'Bearer bogus_key' });
      // Ids of the recorded run are references to the answers that introduced them.
      expect(doc.steps[1].body.agentIds).to.deep.equal(['${rec_bot.id}']);
      expect(JSON.stringify(doc.steps.slice(1))).to.not.include(user.body.agent.id as string);
      expect(doc.steps[4].query).to.deep.equal({ competitionId: '${competition}' });
      expect(readFileSync(out, 'utf8')).to.not.include(key);

      const local = await runToEnd(['run', relative(ROOT, out), '--json']);
      expect(local.code, local.stderr).to.equal(0);
      const remote = await runToEnd(['run', relative(ROOT, out), '--json', '--target', server.url, '--admin-key', SERVE_KEY]);
      expect(remote.code, remote.stderr).to.equal(0);
      expect(JSON.parse(remote.stdout).scenarios[0].hash).to.equal(JSON.parse(local.stdout).scenarios[0].hash);
    } finally {
      if (rec.child.exitCode === null) rec.child.kill('SIGINT');
      await server.stop();
    }
  });
});
