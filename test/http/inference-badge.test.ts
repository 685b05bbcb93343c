// Verified-inference badge on /api/inferai/* and /api/eigenai/*: real EIP-191 recovery, upstream's checks, the 24 h badge on virtual time, refresh and freeze.
import { expect } from 'chai';
import { Wallet } from 'ethers';
import { signInference } from '../../src/world/signing.js';
import { createAgent, createCompetition, expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

/** A provider key the test world trusts, and a key it does not. */
const PROVIDER_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const STRANGER_KEY = '0x1234567890123456789012345678901234567890123456789012345678901234';
const PROVIDER = new Wallet(PROVIDER_KEY);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MISSING = '00000000-0000-4000-8000-000000000000';

/** Upstream's captured live sample (reference features §1.2); it recovers upstream's trusted signer. */
const SAMPLE = {
  responseModel: 'gpt-oss-120b-f16',
  requestPrompt: 'Say hello in exactly 5 words.',
  responseOutput: '<|channel|>analysis<|message|>User asks: "Say hello in exactly 5 words." Need to output a greeting consisting of exactly five words. Must be exactly 5 words, like "Hello, dear friend, welcome!" That\'s 4? Let\'s count. "Hello dear friend welcome" 4. Need 5 words. Example: "Hello dear friend, welcome today!" Count: Hello(1) dear(2) friend,(3) welcome(4) today!(5). That\'s five words. Ensure punctuation doesn\'t affect word count. Provide exactly that.<|end|>Hello dear friend, welcome today!',
  signature: '0x5dc80dc47e71cbd4bf1d8d86e28b1919b42719c5a5cbf548811dd3f73702aac11b0e10ed3f11da2890e784ae056c163655b1fe00c0e2c8c0a4fd6a9777140c8f1b',
};

/** What a provider holding `key` returns for one response: EIP-191 over "1" + model + prompt + output. */
async function inference(key: string, prompt: string, output = `answer to ${prompt}`, model = 'gpt-oss-120b-f16') {
  return { requestPrompt: prompt, responseModel: model, responseOutput: output, signature: await new Wallet(key).signMessage(`1${model}${prompt}${output}`) };
}

for (const vendor of ['inferai', 'eigenai'] as const) {
  describe(`/api/${vendor}/*`, () => {
    let s: TestServer;
    let a: Awaited<ReturnType<typeof createAgent>>;
    let b: Awaited<ReturnType<typeof createAgent>>;
    let cid: string;
    let startedAt: number;
    const submit = (body: Record<string, unknown>, key = a.apiKey) => s.call('POST', `/api/${vendor}/signatures`, { key, body: { competitionId: cid, ...body } });
    const badge = (key = a.apiKey, competitionId = cid) => s.call('GET', `/api/${vendor}/badge`, { key, query: { competitionId } });

    beforeEach(async () => {
      s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, inferenceSigners: [PROVIDER.address] });
      a = await createAgent(s, ADMIN_KEY, 'Alpha');
      b = await createAgent(s, ADMIN_KEY, 'Bravo');
      const res = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Inference Cup', agentIds: [a.agentId, b.agentId] } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      cid = res.body.competition.id;
      startedAt = s.world.deps.clock.now();
    });
    afterEach(() => s.close());

    describe(`POST /api/${vendor}/signatures`, () => {
      it('verifies the published upstream sample signature against upstream\'s signer (200)', async () => {
        const res = await submit(SAMPLE);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.deep.include({ success: true, verified: true, verificationStatus: 'verified', badgeStatus: { isBadgeActive: true, signaturesLast24h: 1 } });
        expect(res.body.submissionId).to.match(/^[0-9a-f-]{36}$/);
      });

      it('verifies a signature of a configured signer, made by an independent wallet (200)', async () => {
        const res = await submit(await inference(PROVIDER_KEY, 'What is the current market sentiment?'));
        expect(res.body).to.deep.include({ verified: true, verificationStatus: 'verified', badgeStatus: { isBadgeActive: true, signaturesLast24h: 1 } });
      });

      it('matches the library helper byte for byte, and accepts the signature without 0x', async () => {
        const mine = await inference(PROVIDER_KEY, 'hello', 'world', 'my-model');
        const lib = await signInference(PROVIDER_KEY, { requestPrompt: 'hello', responseOutput: 'world', responseModel: 'my-model' });
        expect(lib.signature).to.equal(mine.signature);
        expect(lib.address).to.equal(PROVIDER.address.toLowerCase());
        expect((await submit({ ...mine, signature: mine.signature.slice(2) })).body.verificationStatus).to.equal('verified');
      });

      it('records a wrong signer as invalid, leaving the badge untouched (200)', async () => {
        const res = await submit(await inference(STRANGER_KEY, 'q1'));
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.include({ verified: false, verificationStatus: 'invalid', badgeStatus: { isBadgeActive: false, signaturesLast24h: 0 } });
        expect((await badge()).body).to.include({ isBadgeActive: false, signaturesLast24h: 0, lastVerifiedAt: null });
      });

      it('records tampered text as invalid: prompt, output, model, or their order changed (200)', async () => {
        const good = await inference(PROVIDER_KEY, 'q2', 'a2', 'm2');
        const hex = good.signature.slice(2);
        // The duplicate key is the raw string (upstream), so each variant carries the signature in another spelling.
        const variants = [
          { ...good, responseOutput: 'a2!' }, { ...good, requestPrompt: 'Q2', signature: hex },
          { ...good, responseModel: 'm3', signature: `0x${hex.toUpperCase()}` }, { ...good, requestPrompt: 'm2', responseModel: 'q2', signature: hex.toUpperCase() },
        ];
        for (const v of variants) expect((await submit(v)).body.verificationStatus).to.equal('invalid');
        const mixed = `0x${hex.replace(/[a-f]/, (c) => c.toUpperCase())}`;
        expect((await submit({ ...good, signature: mixed })).body.verificationStatus).to.equal('verified');
      });

      it('records a corrupt recovery byte (upstream\'s deadbeef fixture) as invalid, not as an error (200)', async () => {
        const res = await submit({ ...SAMPLE, signature: `${SAMPLE.signature.slice(0, -8)}deadbeef` });
        expect(res.status).to.equal(200);
        expect(res.body.verificationStatus).to.equal('invalid');
      });

      it('rejects malformed hex and missing fields with upstream\'s format error (400)', async () => {
        const good = await inference(PROVIDER_KEY, 'q3');
        expectError(await submit({ ...good, signature: '0x1234' }), 400, 'Invalid request format: signature (must match pattern "^(0x)?[a-fA-F0-9]{130}$")');
        expectError(await submit({ ...good, signature: `0x${'g'.repeat(130)}` }), 400, 'Invalid request format: signature (must match pattern "^(0x)?[a-fA-F0-9]{130}$")');
        expectError(await submit({ ...good, requestPrompt: '' }), 400, 'Invalid request format: requestPrompt (must NOT have fewer than 1 characters)');
        expectError(await submit({ ...good, competitionId: 'nope' }), 400, 'Invalid request format: competitionId (invalid UUID)');
      });

      it('rejects a replayed signature in the same competition, verified or not, by any agent (409)', async () => {
        const good = await inference(PROVIDER_KEY, 'q4');
        expect((await submit(good)).status).to.equal(200);
        expectError(await submit(good), 409, 'This signature has already been submitted for this competition');
        expectError(await submit(good, b.apiKey), 409, 'This signature has already been submitted for this competition');
        const bad = await inference(STRANGER_KEY, 'q5');
        expect((await submit(bad)).status).to.equal(200);
        expectError(await submit(bad), 409, 'This signature has already been submitted for this competition');
      });

      it('checks competition, status and registration in upstream\'s order (404, 400, 403)', async () => {
        const good = await inference(PROVIDER_KEY, 'q6');
        expectError(await submit({ ...good, competitionId: MISSING }), 404, 'Competition not found');
        const pending = await createCompetition(s, ADMIN_KEY, { name: 'Later' });
        expectError(await submit({ ...good, competitionId: pending.id }), 400,
          'Competition is not active (status: pending). Signature submissions are only allowed during active competitions.');
        const outsider = await createAgent(s, ADMIN_KEY, 'Outsider');
        expectError(await submit(good, outsider.apiKey), 403, 'Agent is not registered in this competition');
        await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
        expectError(await submit(good), 400,
          'Competition is not active (status: ended). Signature submissions are only allowed during active competitions.');
      });

      it('needs an agent key (401)', async () => {
        const good = await inference(PROVIDER_KEY, 'q7');
        expectError(await s.call('POST', `/api/${vendor}/signatures`, { body: { competitionId: cid, ...good } }), 401,
          '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
        expectError(await submit(good, ADMIN_KEY), 401, 'Authentication required');
      });
    });

    describe('the badge over 24 h of virtual time', () => {
      it('turns on with a verified signature and off at the first 15-minute refresh after 24 h (GET badge)', async () => {
        await s.world.advance(MINUTE);
        const at = s.world.deps.clock.now();
        await submit(await inference(PROVIDER_KEY, 'first'));
        expect((await badge()).body).to.deep.equal({
          success: true, agentId: a.agentId, competitionId: cid, isBadgeActive: true, signaturesLast24h: 1, lastVerifiedAt: new Date(at).toISOString(),
        });
        await s.world.advance(23 * HOUR);
        await submit(await inference(PROVIDER_KEY, 'second'));
        expect((await badge()).body).to.include({ isBadgeActive: true, signaturesLast24h: 2 });
        // The first signature leaves the window at start + 24 h + 1 min; the refresh at +24 h 15 min recounts.
        await s.world.setTime(startedAt + 24 * HOUR + 14 * MINUTE);
        expect((await badge()).body).to.include({ isBadgeActive: true, signaturesLast24h: 2 });
        const jobs = await s.world.setTime(startedAt + 24 * HOUR + 15 * MINUTE);
        expect(jobs.filter((j) => j.kind === 'badge').map((j) => j.at)).to.deep.equal([startedAt + 24 * HOUR + 15 * MINUTE]);
        expect((await badge()).body).to.include({ isBadgeActive: true, signaturesLast24h: 1 });
        // The second (at start + 23 h 1 min) lapses at +47 h 1 min; the badge is stale until +47 h 15 min, then off.
        await s.world.setTime(startedAt + 47 * HOUR + 14 * MINUTE);
        expect((await badge()).body).to.include({ isBadgeActive: true, signaturesLast24h: 1 });
        await s.world.setTime(startedAt + 47 * HOUR + 15 * MINUTE);
        const off = (await badge()).body;
        expect(off).to.include({ isBadgeActive: false, signaturesLast24h: 0 });
        expect(off.lastVerifiedAt).to.equal(new Date(at + 23 * HOUR).toISOString());
      });

      it('stays stale between refreshes: an invalid submission echoes it, a verified one recounts at once', async () => {
        await submit(await inference(PROVIDER_KEY, 'v1'));
        await s.world.advance(30_000);
        await submit(await inference(PROVIDER_KEY, 'v2'));
        // Both leave the window by start + 24 h 1 min; the refresh at +24 h still counted them.
        await s.world.advance(24 * HOUR + 30_000);
        const stale = await submit(await inference(STRANGER_KEY, 'x1'));
        expect(stale.body.badgeStatus).to.deep.equal({ isBadgeActive: true, signaturesLast24h: 2 });
        const fresh = await submit(await inference(PROVIDER_KEY, 'v3'));
        expect(fresh.body.badgeStatus).to.deep.equal({ isBadgeActive: true, signaturesLast24h: 1 });
      });

      it('freezes at the competition\'s end: the window is relative to the end date and no refresh runs after it', async () => {
        await s.world.advance(HOUR);
        await submit(await inference(PROVIDER_KEY, 'before end'));
        await s.world.advance(HOUR);
        expect((await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } })).status).to.equal(200);
        const jobs = await s.world.advance(3 * 24 * HOUR);
        expect(jobs.filter((j) => j.kind === 'badge')).to.deep.equal([]);
        expect((await badge()).body).to.include({ isBadgeActive: true, signaturesLast24h: 1 });
      });

      it('answers defaults for an agent without a badge row and any existing competition; 404 and 400 otherwise', async () => {
        expect((await badge(b.apiKey)).body).to.deep.equal({
          success: true, agentId: b.agentId, competitionId: cid, isBadgeActive: false, signaturesLast24h: 0, lastVerifiedAt: null,
        });
        expectError(await badge(a.apiKey, MISSING), 404, 'Competition not found');
        expectError(await badge(a.apiKey, 'nope'), 400, 'Invalid query parameters: competitionId (invalid UUID)');
      });
    });

    describe(`GET /api/${vendor}/submissions and /competitions/{id}/stats`, () => {
      it('lists the caller\'s submissions newest first, with a status filter and pagination', async () => {
        const ids: string[] = [];
        for (const [i, key] of [PROVIDER_KEY, STRANGER_KEY, PROVIDER_KEY].entries()) {
          ids.push((await submit(await inference(key, `p${i}`, `o${i}`, `model-${i}`))).body.submissionId);
          await s.world.advance(MINUTE);
        }
        await submit(await inference(PROVIDER_KEY, 'theirs'), b.apiKey);
        const all = await s.call('GET', `/api/${vendor}/submissions`, { key: a.apiKey, query: { competitionId: cid } });
        expect(all.body.submissions.map((x: any) => [x.id, x.verificationStatus, x.modelId])).to.deep.equal([
          [ids[2], 'verified', 'model-2'], [ids[1], 'invalid', 'model-1'], [ids[0], 'verified', 'model-0'],
        ]);
        expect(all.body.submissions[2].submittedAt).to.equal(new Date(startedAt).toISOString());
        expect(all.body.pagination).to.deep.equal({ total: 3, limit: 50, offset: 0, hasMore: false });
        const page = await s.call('GET', `/api/${vendor}/submissions`, { key: a.apiKey, query: { competitionId: cid, status: 'verified', limit: '1', offset: '0' } });
        expect(page.body.submissions.map((x: any) => x.id)).to.deep.equal([ids[2]]);
        expect(page.body.pagination).to.deep.equal({ total: 2, limit: 1, offset: 0, hasMore: true });
        expectError(await s.call('GET', `/api/${vendor}/submissions`, { key: a.apiKey, query: { competitionId: cid, limit: '101' } }), 400,
          'Invalid query parameters: limit (must be <= 100)');
      });

      it('counts agents with submissions, active badges and verified signatures (public)', async () => {
        await submit(await inference(PROVIDER_KEY, 's1'));
        await submit(await inference(PROVIDER_KEY, 's2'));
        await submit(await inference(STRANGER_KEY, 's3'), b.apiKey);
        const res = await s.call('GET', `/api/${vendor}/competitions/${cid}/stats`);
        expect(res.body).to.deep.equal({
          success: true, competitionId: cid, totalAgentsWithSubmissions: 2, agentsWithActiveBadge: 1, totalVerifiedSignatures: 2,
        });
        expectError(await s.call('GET', `/api/${vendor}/competitions/nope/stats`), 400, 'Invalid competition ID: competitionId (invalid UUID)');
        expectError(await s.call('GET', `/api/${vendor}/competitions/${MISSING}/stats`), 404, 'Competition not found');
      });
    });
  });
}

describe('inference signers', () => {
  it('trusts only upstream\'s signer by default', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    try {
      const a = await createAgent(s, ADMIN_KEY, 'Solo');
      const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Cup', agentIds: [a.agentId] } });
      const cid = start.body.competition.id;
      const mine = await s.call('POST', '/api/inferai/signatures', { key: a.apiKey, body: { competitionId: cid, ...(await inference(PROVIDER_KEY, 'q')) } });
      expect(mine.body.verificationStatus).to.equal('invalid');
      const sample = await s.call('POST', '/api/eigenai/signatures', { key: a.apiKey, body: { competitionId: cid, ...SAMPLE } });
      expect(sample.body.verificationStatus).to.equal('verified');
    } finally {
      await s.close();
    }
  });

  it('reproduces the reference\'s independent test vector byte for byte', async () => {
    const lib = await signInference('0x1234567890123456789012345678901234567890123456789012345678901234', {
      requestPrompt: 'hello', responseModel: 'my-model', responseOutput: 'world',
    });
    expect(lib.signature).to.equal('0xeb22cada7ecbd0e2e34a9aa5be07e3a0d105b806bbd4284cc6766a4a15105d5a0bcde74881bf10ea1cabf9471f0ff7530c41fb50ea723a8352d525b41311f29a1c');
  });
});
