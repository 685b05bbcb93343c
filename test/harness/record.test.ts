// `compsim record`: the skeleton builder (keys -> actor names, sim calls -> steps) and the proxy end to end.
import { expect } from 'chai';
import { parseRecordArgs } from '../../src/cli/record.js';
import { UsageError } from '../../src/cli/args.js';
import { SkeletonBuilder, type Exchange } from '../../src/harness/record.js';
import { parseScenario } from '../../src/harness/schema.js';

const ADMIN = '1111111111111111_1111111111111111';
const ALICE = 'aaaaaaaaaaaaaaaa_aaaaaaaaaaaaaaaa';
const OTHER = 'cccccccccccccccc_cccccccccccccccc';
const bearer = (k: string) => ({ authorization: `Bearer ${k}` });

function x(method: string, url: string, headers: Record<string, string>, status: number, requestBody?: unknown, responseBody?: unknown): Exchange {
  return { method, url, headers, status, ...(requestBody !== undefined ? { requestBody: requestBody as never } : {}), ...(responseBody !== undefined ? { responseBody: responseBody as never } : {}) };
}

describe('compsim record skeleton', () => {
  it('names the admin key, actors from the responses that created their keys, and other keys agent1, agent2', () => {
    const b = new SkeletonBuilder(ADMIN);
    b.add(x('POST', '/api/admin/users', bearer(ADMIN), 201, { walletAddress: '0x1', agentName: 'Alice Bot' },
      { success: true, user: { id: 'u1' }, agent: { id: 'a1', handle: 'alice_bot', apiKey: ALICE } }));
    b.add(x('GET', '/api/price?token=So1&chain=svm', bearer(ALICE), 200, undefined, { price: 150 }));
    b.add(x('GET', `/api/admin/agents/a1/key`, bearer(ADMIN), 200, undefined, { agent: { id: 'a1', apiKey: ALICE } }));
    b.add(x('GET', '/api/agent/balances', bearer(OTHER), 200, undefined, { balances: [] }));
    b.add(x('GET', '/api/agent/balances', bearer('bogus'), 401, undefined, { success: false }));
    b.add(x('POST', '/api/admin/competition/create', bearer(ADMIN), 201, { name: 'Cost $${x} ${y}' }, { competition: { name: 'Cost $${x} ${y}' } }));
    const doc = b.scenario('../scenario.schema.json');
    expect(doc.actors).to.deep.equal({ agent1: { key: OTHER } });
    expect(doc.steps).to.deep.equal([
      { call: 'POST /api/admin/users', as: 'admin', body: { walletAddress: '0x1', agentName: 'Alice Bot' },
        actor: { name: 'alice_bot', key: 'agent.apiKey', id: 'agent.id', userId: 'user.id' },
        expect: { status: 201, body: { success: true, user: { id: 'u1' }, agent: { id: 'a1', handle: 'alice_bot', apiKey: { $type: 'string' } } } } },
      { call: 'GET /api/price', as: 'alice_bot', query: { token: 'So1', chain: 'svm' }, expect: { status: 200, body: { price: 150 } } },
      { call: 'GET /api/admin/agents/a1/key', as: 'admin', expect: { status: 200, body: { agent: { id: 'a1', apiKey: '${alice_bot.key}' } } } },
      { call: 'GET /api/agent/balances', as: 'agent1', expect: { status: 200, body: { balances: [] } } },
      { call: 'GET /api/agent/balances', headers: { authorization: 'Bearer bogus' }, expect: { status: 401, body: { success: false } } },
      { call: 'POST /api/admin/competition/create', as: 'admin', body: { name: 'Cost $$${x} $${y}' }, expect: { status: 201, body: { competition: { name: 'Cost $$${x} $${y}' } } } },
    ]);
    expect(() => parseScenario(JSON.stringify(doc), 'rec.scenario.json')).to.not.throw();
  });

  it('saves the ids answers introduce and refers to them in later paths, queries, bodies and expectations', () => {
    const CUP = '11111111-2222-4333-8444-555555555555';
    const AGENT = '99999999-8888-4777-8666-555555555555';
    const b = new SkeletonBuilder(ADMIN);
    b.add(x('POST', '/api/admin/users', bearer(ADMIN), 201, { walletAddress: '0x1', agentName: 'Bob' },
      { success: true, agent: { id: AGENT, handle: 'bob', apiKey: ALICE } }));
    b.add(x('POST', '/api/admin/competition/start', bearer(ADMIN), 200, { name: 'Cup', agentIds: [AGENT] },
      { success: true, competition: { id: CUP, name: 'Cup', agentIds: [AGENT] } }));
    b.add(x('GET', `/api/competitions/${CUP}/agents?competitionId=${CUP}`, {}, 200, undefined, { agents: [{ id: AGENT, competitionId: CUP }] }));
    const steps = b.scenario().steps as Record<string, unknown>[];
    expect(steps[1]).to.deep.include({
      body: { name: 'Cup', agentIds: ['${bob.id}'] },
      save: { competition: 'competition.id' },
      // The answer that introduces an id shows it literally: it is saved only after this step.
      expect: { status: 200, body: { success: true, competition: { id: CUP, name: 'Cup', agentIds: ['${bob.id}'] } } },
    });
    expect(steps[2]).to.deep.include({
      call: 'GET /api/competitions/${competition}/agents', query: { competitionId: '${competition}' },
      expect: { status: 200, body: { agents: [{ id: '${bob.id}', competitionId: '${competition}' }] } },
    });
    expect(JSON.stringify(steps.slice(2))).to.not.include(CUP);
  });

  it('learns the admin key from a key that works on the admin API, and turns sim calls into steps', () => {
    const b = new SkeletonBuilder();
    b.add(x('POST', '/api/sim/reset', bearer(ADMIN), 200, { seed: 9, options: { startTime: '2025-06-01T00:00:00Z', slippage: 'none' } }, { success: true, seed: 9, now: '2025-06-01T00:00:00.000Z', adminKey: ADMIN }));
    b.add(x('POST', '/api/sim/clock', bearer(ADMIN), 200, { advanceMs: 60000 }, { success: true }));
    b.add(x('POST', '/api/sim/clock', bearer(ADMIN), 200, { set: '2025-06-02T00:00:00.000Z' }, { success: true }));
    b.add(x('POST', '/api/sim/prices', bearer(ADMIN), 200, { prices: [{ token: 'So1', price: 2 }] }, { success: true }));
    b.add(x('DELETE', '/api/sim/prices', bearer(ADMIN), 200, undefined, { success: true }));
    b.add(x('POST', '/api/sim/snapshots', bearer(ADMIN), 200, undefined, { success: true, id: 'snap-7' }));
    b.add(x('POST', '/api/sim/snapshots/snap-7/restore', bearer(ADMIN), 200, undefined, { success: true }));
    b.add(x('POST', '/api/sim/faults', bearer(ADMIN), 200, { kind: 'priceZero', token: 'So1' }, { success: true, id: 'fault-1' }));
    b.add(x('DELETE', '/api/sim/faults/fault-1', bearer(ADMIN), 200, undefined, { success: true }));
    b.add(x('GET', '/api/sim/faults', bearer(ADMIN), 200, undefined, { success: true, faults: [] }));
    const doc = b.scenario();
    expect([doc.seed, doc.startTime, doc.world]).to.deep.equal([9, '2025-06-01T00:00:00.000Z', { slippage: 'none' }]);
    expect(doc.steps).to.deep.equal([
      { advance: 60000 }, { setTime: '2025-06-02T00:00:00.000Z' }, { setPrice: [{ token: 'So1', price: 2 }] }, { setPrice: 'clear' },
      { snapshot: 'snapshot1' }, { restore: 'snapshot1' }, { fault: { kind: 'priceZero', token: 'So1' }, name: 'fault1' }, { fault: { remove: 'fault1' } },
      { call: 'GET /api/sim/faults', as: 'admin', expect: { status: 200, body: { success: true, faults: [] } } },
    ]);
    const other = new SkeletonBuilder();
    other.add(x('GET', '/api/admin/agents', bearer(OTHER), 200, undefined, { agents: [] }));
    expect(other.scenario().steps[0]).to.include({ as: 'admin' });
  });

  it('starts over at a reset in the middle of a recording', () => {
    const b = new SkeletonBuilder(ADMIN);
    b.add(x('GET', '/api/health', {}, 200, undefined, { status: 'ok' }));
    b.add(x('POST', '/api/sim/reset', bearer(ADMIN), 200, { seed: 'again' }, { success: true, seed: 'again', now: '2025-01-01T00:00:00.000Z', adminKey: ADMIN }));
    expect(b.scenario().steps).to.deep.equal([]);
    expect(b.scenario().seed).to.equal('again');
  });

  it('parses its options', () => {
    expect(parseRecordArgs(['--target', 'http://h:1/', '--out', 'f.json'])).to.deep.equal({ target: 'http://h:1', out: 'f.json', port: 3001, host: '127.0.0.1' });
    expect(parseRecordArgs(['--target=http://h:1', '--out=f', '--port', '0', '--admin-key', 'k', '--seed', '7'])).to.include({ port: 0, adminKey: 'k', seed: 7 });
    for (const args of [[], ['--out', 'f'], ['--target', 'http://h'], ['--target', 'h:1', '--out', 'f'], ['--target', 'http://h', '--out', 'f', '--seed', '1'], ['--target', 'http://h', '--out', 'f', '--port', 'x']]) {
      expect(() => parseRecordArgs(args), args.join(' ')).to.throw(UsageError);
    }
  });
});
