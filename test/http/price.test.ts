// GET /api/price: chain detection, EVM discovery order, explicit chains, burn addresses, missing prices.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/actors.js';

const WETH_BASE = '0x4200000000000000000000000000000000000006';

describe('GET /api/price', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: '2025-02-01T00:00:00Z' }); });
  after(() => s.close());
  const price = (query: Record<string, string>) => s.call('GET', '/api/price', { key: ADMIN_KEY, query });

  it('prices an svm token (200)', async () => {
    const res = await price({ token: 'So11111111111111111111111111111111111111112' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true, price: 150, token: 'So11111111111111111111111111111111111111112', chain: 'svm', specificChain: 'svm',
      symbol: 'SOL', timestamp: '2025-02-01T00:00:00.000Z',
    });
  });

  it('discovers an EVM token on the first chain of the order (base before optimism)', async () => {
    const res = await price({ token: WETH_BASE });
    expect(res.body).to.include({ success: true, chain: 'evm', specificChain: 'base', symbol: 'WETH' });
  });

  it('prices an EVM token with an explicit chain only there, with no fallback', async () => {
    expect((await price({ token: WETH_BASE, specificChain: 'optimism' })).body).to.include({ success: true, specificChain: 'optimism' });
    expect((await price({ token: WETH_BASE, specificChain: 'eth' })).body).to.include({ success: false, price: null });
  });

  it('finds bsc tokens only with an explicit chain (bsc is not in the discovery order)', async () => {
    const wbnb = '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c';
    expect((await price({ token: wbnb })).body.success).to.equal(false);
    expect((await price({ token: wbnb, specificChain: 'bsc' })).body).to.include({ success: true, price: 600, symbol: 'WBNB' });
  });

  it('prices the burn addresses at 0', async () => {
    expect((await price({ token: '0x000000000000000000000000000000000000dEaD' })).body).to.include({ success: true, price: 0, symbol: 'BURN' });
    expect((await price({ token: '1nc1nerator11111111111111111111111111111111' })).body).to.include({ success: true, price: 0, symbol: 'BURN' });
  });

  it('answers an unknown token with 200 and success false', async () => {
    const res = await price({ token: 'InvalidTokenAddressFormat123' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ success: false, price: null, chain: 'svm' });
  });

  it('uses manual price overrides on top of the feed', async () => {
    s.world.deps.prices.overrides.set({ address: WETH_BASE, specificChain: 'base', price: 4321 });
    expect((await price({ token: WETH_BASE })).body.price).to.equal(4321);
    s.world.deps.prices.overrides.clear();
  });

  it('rejects a missing token (400)', async () => {
    expectError(await price({}), 400, 'Token address is required');
  });
});
