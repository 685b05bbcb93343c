// Under unknownTokens "synthetic", a listed token is never priced as a made-up one: without specificChain it gets its listed price, and no trade between listed tokens makes money beyond slippage.
import { expect } from 'chai';
import fc from 'fast-check';
import { readTokensFile } from '../../src/adapters/prices/catalogue.js';
import type { WorldOptions } from '../../src/world/config.js';
import { getPrice } from '../../src/domain/trading/prices.js';
import { API_VERSIONS, rule, type ApiVersion } from '../../src/domain/versions.js';
import { SPECIFIC_CHAINS, type SpecificChain } from '../../src/ports/prices.js';
import { createWorld, type World } from '../../src/world/world.js';
import { budget } from '../property/budget.js';
import { createAgent } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

const TOKENS = readTokensFile();
const EVM_CHAINS = SPECIFIC_CHAINS.filter((c) => c !== 'svm');

/** A token as the catalogue file lists it (constant feed: its price is the file's). */
interface Listed { chain: SpecificChain; address: string; symbol: string; price: number; burn: boolean }

const LISTED: Listed[] = [
  ...SPECIFIC_CHAINS.flatMap((chain) => (TOKENS.chains[chain] ?? []).map((t) => ({
    chain, address: t.address, symbol: t.symbol, price: t.price ?? (t.kind === 'stable' ? 1 : Number.NaN), burn: false,
  }))),
  ...(TOKENS.burn ?? []).map((b) => ({ chain: (b.parent === 'svm' ? 'svm' : 'eth') as SpecificChain, address: b.address, symbol: 'BURN', price: 0, burn: true })),
];

/** The catalogue entry that lists `address` on `chain` (EVM addresses in any case; burn addresses on every chain of their kind). */
function listing(address: string, chain: SpecificChain): Listed | undefined {
  const same = (a: string) => (chain === 'svm' ? a === address : a.toLowerCase() === address.toLowerCase());
  return LISTED.find((t) => !t.burn && t.chain === chain && same(t.address))
    ?? LISTED.find((t) => t.burn && (t.chain === 'svm') === (chain === 'svm') && t.address.toLowerCase() === address.toLowerCase());
}

/** The answer the catalogue alone gives without specificChain: the first chain of the discovery order that lists the address. */
function expectedWithoutChain(address: string, order: readonly SpecificChain[]): { chain: SpecificChain; token: Listed } | null {
  for (const chain of address.startsWith('0x') ? order : (['svm'] as SpecificChain[])) {
    const token = listing(address, chain);
    if (token) return { chain, token };
  }
  return null;
}

/** An EVM address with the case of each letter chosen by `flips` (Solana addresses are kept as they are). */
const spell = (address: string, flips: readonly boolean[]) => (address.startsWith('0x')
  ? `0x${[...address.slice(2)].map((ch, i) => (flips[i % flips.length] ? ch.toUpperCase() : ch.toLowerCase())).join('')}`
  : address);

const version = fc.constantFrom<ApiVersion>(...API_VERSIONS);
/** A discovery order: the version's default, or any order of any EVM chains (world option `evmChains`). */
const order = fc.option(fc.shuffledSubarray(EVM_CHAINS, { minLength: 1 }), { nil: undefined });

/** Runs of the listed-pairs property (a third of them at least must trade). */
const LISTED_RUNS = budget(150, 1500, 60);

describe('synthetic prices never shadow a listed token', function () {
  this.timeout(600_000);

  it('gives every listed token on every chain its listed price without specificChain, as a world without synthetic tokens does', async () => {
    const worlds = new Map<string, World>();
    const world = async (options: WorldOptions) => {
      const k = JSON.stringify(options);
      let w = worlds.get(k);
      if (!w) worlds.set(k, (w = await createWorld({ ...options, tokens: TOKENS, prices: { kind: 'constant' } })));
      return w;
    };
    await fc.assert(fc.asyncProperty(version, order, fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), async (v, evmChains, flips) => {
      const options: WorldOptions = { apiVersion: v, ...(evmChains ? { evmChains } : {}) };
      const synthetic = await world({ ...options, unknownTokens: 'synthetic' });
      const refuse = await world(options);
      const discovery = evmChains ?? rule(v, 'evmChains');
      for (const t of LISTED) {
        const token = spell(t.address, flips);
        const got = getPrice(synthetic.deps, { token });
        expect({ ...got, timestamp: 0 }, `${t.chain} ${t.symbol}`).to.deep.equal({ ...getPrice(refuse.deps, { token }), timestamp: 0 });
        const want = expectedWithoutChain(token, discovery);
        if (want === null) {
          expect(got.found, `${t.chain} ${t.symbol} is listed on no chain of ${discovery.join(',')}`).to.equal(false);
        } else {
          expect(got, `${t.chain} ${t.symbol}`).to.include({ found: true, price: want.token.price, specificChain: want.chain, symbol: want.token.symbol });
        }
        // On its own chain it is the listed token in every discovery order.
        expect(getPrice(synthetic.deps, { token, specificChain: t.chain }), `${t.chain} ${t.symbol} on its chain`)
          .to.include({ found: true, price: t.price, specificChain: t.chain, symbol: t.symbol });
      }
    }), { seed: 20261201, numRuns: budget(40, 400, 10) });
  });

  describe('trades between listed tokens, without specificChain', () => {
    /** One server per version: synthetic tokens, constant prices, seeded slippage, a started competition without limits. */
    const servers = new Map<ApiVersion, { s: TestServer; agentId: string; apiKey: string; cid: string; snap: string }>();
    before(async () => {
      for (const v of API_VERSIONS) {
        const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, apiVersion: v, unknownTokens: 'synthetic', prices: { kind: 'constant' }, maxTradePercentage: 100 });
        const a = await createAgent(s, ADMIN_KEY, `Arbitrageur ${v}`);
        const start = await s.call('POST', '/api/admin/competition/start', {
          key: ADMIN_KEY,
          body: {
            name: 'Free Lunch Cup', agentIds: [a.agentId], tradingType: 'allow',
            tradingConstraints: { minimumPairAgeHours: 0, minimum24hVolumeUsd: 0, minimumLiquidityUsd: 0, minimumFdvUsd: 0 },
            paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }],
          },
        });
        expect(start.status, JSON.stringify(start.body)).to.equal(200);
        servers.set(v, { s, agentId: a.agentId, apiKey: a.apiKey, cid: start.body.competition.id, snap: await s.world.snapshot() });
      }
    });
    after(async () => { for (const x of servers.values()) await x.s.close(); });

    /** The agent's whole holdings in USD, as its balances answer values them. */
    async function holdings(x: { s: TestServer; apiKey: string; cid: string }): Promise<number> {
      const res = await x.s.call('GET', '/api/agent/balances', { key: x.apiKey, query: { competitionId: x.cid } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return (res.body.balances as { value?: number }[]).reduce((sum, b) => sum + (b.value ?? 0), 0);
    }

    it('create no value beyond slippage, whatever the pair and the spelling', async () => {
      const sellable = LISTED.filter((t) => !t.burn && t.price > 0);
      let traded = 0;
      await fc.assert(fc.asyncProperty(
        version, fc.constantFrom(...sellable), fc.constantFrom(...LISTED), fc.double({ min: 1, max: 20_000, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }), fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        async (v, from, to, usd, share, flips) => {
          const x = servers.get(v)!;
          await x.s.world.restore(x.snap);
          const amount = usd / from.price;
          const set = await x.s.call('POST', '/api/sim/balances', {
            key: ADMIN_KEY, body: { agentId: x.agentId, competitionId: x.cid, balances: [{ token: from.address, specificChain: from.chain, amount }] },
          });
          expect(set.status, JSON.stringify(set.body)).to.equal(200);
          const before = await holdings(x);
          const res = await x.s.call('POST', '/api/trade/execute', {
            key: x.apiKey,
            body: { competitionId: x.cid, fromToken: spell(from.address, flips), toToken: spell(to.address, flips), amount: String(amount * share), reason: 'free lunch?' },
          });
          const after = await holdings(x);
          const eps = 1e-9 * before;
          expect(after, `${from.chain} ${from.symbol} -> ${to.chain} ${to.symbol}: ${JSON.stringify(res.body)}`).to.be.at.most(before + eps);
          if (res.status !== 200) {
            expect(res.body.success).to.equal(false);
            expect(after).to.be.closeTo(before, eps);
            return;
          }
          traded += 1;
          const t = res.body.transaction;
          // Slippage takes at most 15 % of the trade's value; a burn takes all of it.
          const lost = to.burn || t.toAmount === 0 ? t.tradeAmountUsd : 0.15 * t.tradeAmountUsd;
          expect(before - after, `${from.symbol} -> ${to.symbol}`).to.be.at.most(lost + eps);
        },
      ), { seed: 20261202, numRuns: LISTED_RUNS });
      // Most pairs trade (the rest: a token no discovery chain lists, a cross-chain pair refused, ...).
      expect(traded).to.be.greaterThan(LISTED_RUNS / 3);
    });
  });
});
