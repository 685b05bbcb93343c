// Wallet verification: nonces on the virtual clock and every check of upstream's verify in order, with signatures from independent ethers wallets.
import { expect } from 'chai';
import { Wallet, verifyMessage } from 'ethers';
import { recoverPersonalSigner } from '../../src/domain/agents/wallet-verification.js';
import { signWalletVerification, walletVerificationMessage } from '../../src/world/signing.js';
import { createAgent, expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

/** Upstream's e2e key and the reference's second test key (fixed, public test keys). */
const KEY_A = '0x1234567890123456789012345678901234567890123456789012345678901234';
const KEY_B = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDR_A = '0x2e988a386a799f506693793c6a5af6b54dfaabfb';
const ADDR_B = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const DOMAIN = 'http://localhost:3001';
const MINUTE = 60_000;

/** The five-line message, written out independently of the library helper. */
function message(nonce: string, timestamp: string, over: { header?: string; domain?: string; purpose?: string; extra?: string } = {}): string {
  const lines = [over.header ?? 'VERIFY_WALLET_OWNERSHIP', `Timestamp: ${timestamp}`, `Domain: ${over.domain ?? DOMAIN}`, `Purpose: ${over.purpose ?? 'WALLET_VERIFICATION'}`, `Nonce: ${nonce}`];
  if (over.extra !== undefined) lines.push(over.extra);
  return lines.join('\n');
}

describe('wallet verification (GET /api/auth/agent/nonce, POST /api/auth/verify)', () => {
  let s: TestServer;
  let agent: Awaited<ReturnType<typeof createAgent>>;
  const now = () => new Date(s.world.deps.clock.now()).toISOString();
  const nonce = async (key = agent.apiKey) => {
    const res = await s.call('GET', '/api/auth/agent/nonce', { key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.nonce as string;
  };
  const verify = (body: unknown, key = agent.apiKey) => s.call('POST', '/api/auth/verify', { key, body });
  const signed = async (text: string, key = KEY_A) => ({ message: text, signature: await new Wallet(key).signMessage(text) });

  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, walletDomain: DOMAIN });
    agent = await createAgent(s, ADMIN_KEY, 'Signer');
  });
  afterEach(() => s.close());

  describe('GET /api/auth/agent/nonce', () => {
    it('answers a 17-character alphanumeric nonce (200)', async () => {
      const res = await s.call('GET', '/api/auth/agent/nonce', { key: agent.apiKey });
      expect(res.status).to.equal(200);
      expect(res.body.nonce).to.match(/^[A-Za-z0-9]{17}$/);
    });

    it('supersedes older nonces: only the newest verifies', async () => {
      const first = await nonce();
      const second = await nonce();
      expectError(await verify(await signed(message(first, now()))), 400, 'Invalid nonce');
      expect((await verify(await signed(message(second, now())))).status).to.equal(200);
    });

    it('refuses an admin key with upstream\'s 401', async () => {
      expectError(await s.call('GET', '/api/auth/agent/nonce', { key: ADMIN_KEY }), 401, 'Agent authentication required');
    });

    it('requires a key (401)', async () => {
      expectError(await s.call('GET', '/api/auth/agent/nonce'), 401,
        '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
    });
  });

  describe('a valid signature', () => {
    it('sets the agent\'s wallet (lower-case) and makes it verified (200)', async () => {
      const res = await verify(await signed(message(await nonce(), now())));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({ success: true, walletAddress: ADDR_A, message: 'Wallet verified successfully' });
      const view = await s.call('GET', `/api/admin/agents/${agent.agentId}`, { key: ADMIN_KEY });
      expect(view.body.agent).to.include({ walletAddress: ADDR_A, isVerified: true });
    });

    it('accepts a timestamp exactly 5 minutes old and one 30 seconds ahead of the virtual clock', async () => {
      const t = s.world.deps.clock.now();
      expect((await verify(await signed(message(await nonce(), new Date(t - 5 * MINUTE).toISOString())))).status).to.equal(200);
      expect((await verify(await signed(message(await nonce(), new Date(t + 30_000).toISOString()), KEY_A))).status).to.equal(200);
    });

    it('lets the same agent re-verify, and replaces its wallet with a new one', async () => {
      expect((await verify(await signed(message(await nonce(), now())))).status).to.equal(200);
      expect((await verify(await signed(message(await nonce(), now())))).status).to.equal(200);
      const res = await verify(await signed(message(await nonce(), now()), KEY_B));
      expect(res.body.walletAddress).to.equal(ADDR_B);
    });

    it('is what the library helper signs (same message, same recovered wallet)', async () => {
      const n = await nonce();
      const lib = await signWalletVerification(KEY_A.slice(2), { nonce: n, domain: DOMAIN, timestamp: s.world.deps.clock.now() });
      expect(lib.message).to.equal(message(n, now()));
      expect(lib.message).to.equal(walletVerificationMessage({ nonce: n, domain: DOMAIN, timestamp: now() }));
      expect(verifyMessage(lib.message, lib.signature).toLowerCase()).to.equal(ADDR_A);
      expect((await verify({ message: lib.message, signature: lib.signature })).body.walletAddress).to.equal(ADDR_A);
    });

    it('recovers upstream\'s published test vector', async () => {
      const text = 'VERIFY_WALLET_OWNERSHIP\nTimestamp: 2025-01-01T00:00:00.000Z\nDomain: http://localhost:3001\nPurpose: WALLET_VERIFICATION\nNonce: abcdefghijklmnopq';
      const sig = '0x3d321995742418e4045334983fb370dd8d30ae0588221a0e8a4d7230381aff397ca8dcc7e862b5c8b96b4c3ce530f7455d2617a45be1a04ad1fa8f0cb26525931c';
      expect(await recoverPersonalSigner(text, sig)).to.equal(ADDR_A);
    });
  });

  describe('rejections, in upstream\'s order', () => {
    it('0. requires message and signature (400)', async () => {
      expectError(await verify({}), 400, 'Message and signature are required');
      expectError(await verify({ message: 'x' }), 400, 'Message and signature are required');
      expectError(await verify({ message: '', signature: '0x' }), 400, 'Message and signature are required');
      for (const body of [[], { message: 5, signature: true }]) expectError(await verify(body), 400, 'Message and signature are required');
    });

    it('0b. refuses an admin key (401)', async () => {
      expectError(await verify(await signed(message(await nonce(), now())), ADMIN_KEY), 401, 'Agent authentication required');
    });

    it('1. checks the header line (400)', async () => {
      expectError(await verify(await signed(message(await nonce(), now(), { header: 'VERIFY_WALLET' }))), 400, 'Invalid message header');
    });

    it('2-3. needs Timestamp, Domain and Purpose, then Nonce (400)', async () => {
      const n = await nonce();
      expectError(await verify(await signed(`VERIFY_WALLET_OWNERSHIP\nTimestamp: ${now()}\nDomain: ${DOMAIN}\nNonce: ${n}`)), 400, 'Missing required message fields');
      expectError(await verify(await signed(`VERIFY_WALLET_OWNERSHIP\nTimestamp: ${now()}\nDomain: ${DOMAIN}\nPurpose: WALLET_VERIFICATION`)), 400, 'Nonce is required');
    });

    it('4. compares the domain exactly with the configured one (400)', async () => {
      const n = await nonce();
      expectError(await verify(await signed(message(n, now(), { domain: 'http://localhost:3001/' }))), 400, 'Invalid domain');
      expectError(await verify(await signed(message(n, now(), { domain: 'https://evil.example' }))), 400, 'Invalid domain');
    });

    it('5. checks the purpose (400)', async () => {
      expectError(await verify(await signed(message(await nonce(), now(), { purpose: 'LOGIN' }))), 400, 'Invalid purpose');
    });

    it('6. refuses an expired timestamp: older than 5 minutes of virtual time (400)', async () => {
      const n = await nonce();
      const text = message(n, now());
      await s.world.advance(5 * MINUTE + 1);
      expectError(await verify(await signed(text)), 400, 'Message timestamp too old');
      expectError(await verify(await signed(message(n, 'not a date'))), 400, 'Message timestamp too old');
    });

    it('7. refuses a timestamp more than 30 seconds ahead (400)', async () => {
      const ahead = new Date(s.world.deps.clock.now() + 30_001).toISOString();
      expectError(await verify(await signed(message(await nonce(), ahead))), 400, 'Message timestamp too far in the future');
    });

    it('8. refuses an unknown nonce (400)', async () => {
      await nonce();
      expectError(await verify(await signed(message('AAAAAAAAAAAAAAAAA', now()))), 400, 'Invalid nonce');
    });

    it('9. refuses another agent\'s nonce (400)', async () => {
      const other = await createAgent(s, ADMIN_KEY, 'Other');
      const theirs = await nonce(other.apiKey);
      expectError(await verify(await signed(message(theirs, now()))), 400, 'Nonce does not belong to this agent');
    });

    it('10. refuses a replayed nonce (400)', async () => {
      const req = await signed(message(await nonce(), now()));
      expect((await verify(req)).status).to.equal(200);
      expectError(await verify(req), 400, 'Nonce already used');
    });

    it('11. refuses a nonce older than 10 minutes of virtual time (400)', async () => {
      const n = await nonce();
      await s.world.advance(10 * MINUTE + 1);
      expectError(await verify(await signed(message(n, now()))), 400, 'Nonce expired');
    });

    it('12. refuses malformed signatures, and the nonce is burnt anyway (400)', async () => {
      const n = await nonce();
      const text = message(n, now());
      const good = await new Wallet(KEY_A).signMessage(text);
      expectError(await verify({ message: text, signature: '0x1234' }), 400, 'Invalid signature');
      expectError(await verify({ message: text, signature: good }), 400, 'Nonce already used');
      for (const bad of [`0x${'zz'.repeat(65)}`, `${good.slice(0, -8)}deadbeef`, `0x${'00'.repeat(65)}`]) {
        expectError(await verify({ message: message(await nonce(), now()), signature: bad }), 400, 'Invalid signature');
      }
    });

    it('13. refuses the wallet of a user account, e.g. the owner\'s login wallet (409)', async () => {
      const owner = await createAgent(s, ADMIN_KEY, 'Owned', { walletAddress: new Wallet(KEY_B).address });
      const req = await signed(message(await nonce(owner.apiKey), now()), KEY_B);
      expectError(await verify(req, owner.apiKey), 409, 'Wallet address already associated with a user account');
      expectError(await verify(req, owner.apiKey), 400, 'Nonce already used');
    });

    it('14. refuses a wallet another agent verified (409)', async () => {
      const other = await createAgent(s, ADMIN_KEY, 'First');
      expect((await verify(await signed(message(await nonce(other.apiKey), now())), other.apiKey)).status).to.equal(200);
      expectError(await verify(await signed(message(await nonce(), now()))), 409, 'Wallet address already associated with another agent');
    });

    it('runs the checks in order: a bad domain wins over a bad nonce and a bad signature', async () => {
      expectError(await verify({ message: message('nope', now(), { domain: 'x' }), signature: '0x00' }), 400, 'Invalid domain');
    });
  });

  describe('tampered text', () => {
    it('records whatever wallet a signature over other text recovers: there is no claimed address (upstream)', async () => {
      const n = await nonce();
      const original = message(n, now());
      const sig = await new Wallet(KEY_A).signMessage(original);
      const tampered = message(n, now(), { extra: 'Note: tampered' });
      const res = await verify({ message: tampered, signature: sig });
      expect(res.status).to.equal(200);
      expect(res.body.walletAddress).to.not.equal(ADDR_A);
      expect(res.body.walletAddress).to.equal(verifyMessage(tampered, sig).toLowerCase());
    });
  });

  it('expects the in-process default domain http://127.0.0.1:3000 when none is configured', async () => {
    const t = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    try {
      const a = await createAgent(t, ADMIN_KEY, 'Default');
      const n = (await t.call('GET', '/api/auth/agent/nonce', { key: a.apiKey })).body.nonce as string;
      const ts = new Date(t.world.deps.clock.now()).toISOString();
      const lib = await signWalletVerification(KEY_A, { nonce: n, domain: 'http://127.0.0.1:3000', timestamp: ts });
      const res = await t.call('POST', '/api/auth/verify', { key: a.apiKey, body: { message: lib.message, signature: lib.signature } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    } finally {
      await t.close();
    }
  });
});
