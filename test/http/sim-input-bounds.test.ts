// Nothing is accepted that a world cannot store, value finitely, dump and load back: price feeds, amounts, trading constraints and the clock's range, on every door (create, reset, fixtures, load, cheat codes).
import { expect } from 'chai';
import { expectError } from '../helpers/actors.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { SERVER_KEY, startHostServer, type HostServer } from '../helpers/worlds.js';

const SOL = 'So11111111111111111111111111111111111111112';
const RANGE = '1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z';
const INSTANT = `must be an epoch-ms number or an ISO time from ${RANGE}`;

/** Option values a world refuses, each with the field and reason its 400 names (relative to the options). */
const BAD_OPTIONS: [string, Record<string, unknown>, string, string][] = [
  ['a negative constant price', { prices: { kind: 'constant', prices: { [`svm:${SOL}`]: -5 } } }, `prices.prices["svm:${SOL}"]`, 'must be a number from 0 to 1000000000000, got -5'],
  ['a constant price of 1e308', { prices: { kind: 'constant', prices: { [`svm:${SOL}`]: 1e308 } } }, `prices.prices["svm:${SOL}"]`, 'must be a number from 0 to 1000000000000, got 1e+308'],
  ['a negative tape point', { prices: { kind: 'tape', tapes: { [`svm:${SOL}`]: [[0, 1], [1000, -1]] } } }, `prices.tapes["svm:${SOL}"][1][1]`, 'must be a number from 0 to 1000000000000, got -1'],
  ['tapes that are a string', { prices: { kind: 'tape', tapes: 'str' } }, 'prices.tapes', 'must be an object of "<specificChain>:<address>": [[epochMs, price], ...]'],
  ['a tape key without a chain', { prices: { kind: 'tape', tapes: { [SOL]: [[0, 1]] } } }, `prices.tapes["${SOL}"]`, 'must be "<specificChain>:<address>"'],
  ['a step of "x"', { prices: { kind: 'randomWalk', stepMs: 'x' } }, 'prices.stepMs', 'must be a number >= 1, got "x"'],
  ['a step of 0', { prices: { kind: 'randomWalk', stepMs: 0 } }, 'prices.stepMs', 'must be a number >= 1, got 0'],
  ['a volatility of 1e308', { prices: { kind: 'randomWalk', volatility: 1e308 } }, 'prices.volatility', 'must be a number from 0 to 0.1, got 1e+308'],
  ['an origin that is no number', { prices: { kind: 'randomWalk', origin: '2025-01-01' } }, 'prices.origin', `must be an epoch-ms number from ${RANGE}, got "2025-01-01"`],
  ['a starting balance of 1e308', { defaultInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'sol', amount: 1e308 }] }, 'defaultInitialBalances[0].amount', 'must be a number from 0 to 1000000000000000000, got 1e+308'],
  ['a trading constraint of "x"', { defaultTradingConstraints: { minimumPairAgeHours: 'x' } }, 'defaultTradingConstraints.minimumPairAgeHours', 'must be a finite number >= 0, got "x"'],
  ['an unknown trading constraint', { defaultTradingConstraints: { minimumAge: 3 } }, 'defaultTradingConstraints.minimumAge', 'is not a trading constraint (minimumPairAgeHours, minimum24hVolumeUsd, minimumLiquidityUsd, minimumFdvUsd, minTradesPerDay)'],
  ['a start time past 9999', { startTime: 8639999999999000 }, 'startTime', `${INSTANT}, got 8639999999999000`],
  ['a start time before 1970', { startTime: '1969-12-31T23:59:59.999Z' }, 'startTime', `${INSTANT}, got "1969-12-31T23:59:59.999Z"`],
  ['fixture prices that are a number', { fixture: { prices: 5 } }, 'fixture.prices', 'must be an object with a kind (constant, tape or randomWalk), got 5'],
  ['a fixture balance of 1e308', { fixture: { competitions: [{ name: 'Big', paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1e308 }] }] } },
    'fixture.competitions[0].paperTradingInitialBalances[0].amount', 'must be a number from 0 to 1000000000000000000, got 1e+308'],
  ['a fixture end date past 9999', { fixture: { competitions: [{ name: 'Far', endDate: '+275760-01-01T00:00:00.000Z' }] } },
    'fixture.competitions[0].endDate', `${INSTANT}, got "+275760-01-01T00:00:00.000Z"`],
];

describe('world options from outside (POST /api/sim/worlds, POST /api/sim/reset)', () => {
  let s: HostServer;
  beforeEach(async () => {
    s = await startHostServer({}, { seed: 4 });
  });
  afterEach(() => s.close());
  const worldIds = async () => (await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).body.worlds.map((w: { id: string }) => w.id);

  for (const [what, options, field, reason] of BAD_OPTIONS) {
    it(`refuses ${what} at creation and at reset, naming the field, and changes nothing (400)`, async () => {
      expectError(await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: { options } }), 400, `Invalid request: options.${field} (${reason})`);
      expect(await worldIds()).to.deep.equal(['default']);
      const before = await s.world.dump();
      expectError(await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: { options } }), 400, `Invalid request: options.${field} (${reason})`);
      expect(await s.world.dump()).to.deep.equal(before);
    });
  }

  it('names a field given at the top of a creation as it was given, and takes no id for a refused one (400)', async () => {
    expectError(await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: { startTime: 8640000000000001 } }), 400,
      `Invalid request: startTime (${INSTANT}, got 8640000000000001)`);
    expectError(await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: { fixture: { prices: 5 } } }), 400,
      'Invalid request: fixture.prices (must be an object with a kind (constant, tape or randomWalk), got 5)');
    expect(await worldIds()).to.deep.equal(['default']);
    expect((await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: {} })).body.id).to.equal('w1');
  });

  it('refuses a fixture whose world would not load back from its own dump (400), and creates nothing', async () => {
    const fixture = { users: [{ walletAddress: `0x${'a'.repeat(40)}`, name: 5 }] };
    const res = await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: { fixture } });
    expect(res.status, JSON.stringify(res.body)).to.equal(400);
    expect(res.body.error).to.equal('Invalid request: options (the world would not load back from its own dump: tables.users[0].name must be a string or null)');
    expect(await worldIds()).to.deep.equal(['default']);
  });

  it('keeps the clock inside its range: a move past 9999 is refused and the worlds list keeps answering (400)', async () => {
    expect((await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: { options: { startTime: '9999-12-30T00:00:00.000Z' } } })).status).to.equal(200);
    expectError(await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 3 * 86_400_000 } }), 400,
      `Invalid request: advanceMs (the clock would reach ${new Date(Date.UTC(9999, 11, 30) + 3 * 86_400_000).toISOString()}, outside its range ${RANGE})`);
    // `set` is an RFC 3339 date-time, whose four-digit year cannot leave the range: an expanded year is not one.
    expectError(await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { set: '+010000-01-01T00:00:00.000Z' } }), 400, 'Invalid request: set (invalid datetime)');
    expect((await s.call('GET', '/api/sim/clock', { key: ADMIN_KEY })).body.now).to.equal('9999-12-30T00:00:00.000Z');
    expect((await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 86_400_000 } })).status).to.equal(200);
    expect((await s.call('GET', '/api/sim/worlds', { key: SERVER_KEY })).status).to.equal(200);
    await expectRejection(s.world.advance(2 * 86_400_000), `the clock would reach ${Date.UTC(9999, 11, 30) + 3 * 86_400_000} ms, outside its range (${RANGE})`);
  });

  it('refuses a world document whose clock is outside the range, changing nothing (400)', async () => {
    const doc = (await s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
    const before = await s.world.dump();
    expectError(await s.call('POST', '/api/sim/load', { key: ADMIN_KEY, body: { ...doc, aux: { ...doc.aux, clock: 8.6e15 } } }), 400,
      `Invalid world document: aux.clock puts the world at 8600000000000000 ms, outside the clock's range ${RANGE}`);
    expect(await s.world.dump()).to.deep.equal(before);
  });

  it('refuses amounts and prices beyond the bounds on the cheat codes, the price API and the admin API (400)', async () => {
    expectError(await s.call('POST', '/api/sim/prices', { key: ADMIN_KEY, body: { prices: [{ token: SOL, price: 1e308 }] } }), 400,
      'Invalid request: prices.0.price (must be <= 1000000000000)');
    expectError(await s.call('POST', '/api/sim/prices/tape', { key: ADMIN_KEY, body: { tapes: { [`svm:${SOL}`]: [[0, 1e13]] } } }), 400,
      `Invalid request: tapes (tape 'svm:${SOL}' has a bad point [0,10000000000000] (want [epochMs, price from 0 to 1000000000000]))`);
    const user = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: `0x${'b'.repeat(40)}`, agentName: 'Rich' } });
    const agentId = user.body.agent.id as string;
    const cup = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Cup', agentIds: [agentId] } });
    expectError(await s.call('POST', '/api/sim/balances', { key: ADMIN_KEY, body: { agentId, competitionId: cup.body.competition.id, balances: [{ token: SOL, amount: 1e308 }] } }), 400,
      'Invalid request: balances.0.amount (must be <= 1000000000000000000)');
    expectError(await s.call('POST', '/api/admin/competition/create', {
      key: ADMIN_KEY, body: { name: 'Huge', paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'sol', amount: 1e308 }] },
    }), 400, 'Invalid request: paperTradingInitialBalances.0.amount (must be <= 1000000000000000000)');
    // The world still dumps and loads back.
    const doc = (await s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
    expect((await s.call('POST', '/api/sim/load', { key: ADMIN_KEY, body: doc })).status).to.equal(200);
  });
});

async function expectRejection(p: Promise<unknown>, message: string): Promise<void> {
  try {
    await p;
  } catch (err) {
    expect((err as Error).message).to.equal(message);
    return;
  }
  throw new Error('expected a rejection');
}
