// Test helper: a rich world to dump (the hostile-input fuzz world plus perps positions, a script, a nonce, inference, votes, a claim, price overrides and a tape).
import type { StoreDump } from '../../src/ports/store.js';
import type { Json } from '../../src/harness/types.js';
import { inProcess, type Transport } from '../property/fuzz.js';
import { buildFuzzWorld, type Pools } from '../property/hostile.js';
import { TOKENS } from '../property/model.js';

/** Upstream's captured inference sample (test/http/inference-badge.test.ts): it recovers upstream's trusted signer. */
const SAMPLE = {
  responseModel: 'gpt-oss-120b-f16',
  requestPrompt: 'Say hello in exactly 5 words.',
  responseOutput: '<|channel|>analysis<|message|>User asks: "Say hello in exactly 5 words." Need to output a greeting consisting of exactly five words. Must be exactly 5 words, like "Hello, dear friend, welcome!" That\'s 4? Let\'s count. "Hello dear friend welcome" 4. Need 5 words. Example: "Hello dear friend, welcome today!" Count: Hello(1) dear(2) friend,(3) welcome(4) today!(5). That\'s five words. Ensure punctuation doesn\'t affect word count. Provide exactly that.<|end|>Hello dear friend, welcome today!',
  signature: '0x5dc80dc47e71cbd4bf1d8d86e28b1919b42719c5a5cbf548811dd3f73702aac11b0e10ed3f11da2890e784ae056c163655b1fe00c0e2c8c0a4fd6a9777140c8f1b',
};

/** A world with a row in every table, served in-process. */
export interface RichWorld { t: Transport; pools: Pools; dump: StoreDump }

/** Builds the rich world through the API and dumps it (JSON round trip, as GET /api/sim/dump sends it). */
export async function buildRichWorld(): Promise<RichWorld> {
  const t = await inProcess();
  const pools = await buildFuzzWorld((r) => t.send(r), t.admin);
  const call = async (method: string, path: string, body?: Json, key = t.admin, query: Record<string, string> = {}) => {
    const res = await t.send({ method, path, query, headers: { authorization: `Bearer ${key}` }, ...(body !== undefined ? { body } : {}) });
    if (res.status >= 300) throw new Error(`rich world set-up: ${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as any;
  };
  const { a, b } = pools.agents;
  const [active, pending, , perps] = pools.competitions as [string, string, string, string | undefined];
  if (perps) {
    await call('POST', `/api/admin/competitions/${perps}/perps/positions`, { agentId: a.id, asset: 'BTC', side: 'long', sizeUsd: 1000, leverage: 2 });
    const short = await call('POST', `/api/admin/competitions/${perps}/perps/positions`, { agentId: b.id, asset: 'ETH', side: 'short', sizeUsd: 500, leverage: 3 });
    await call('POST', `/api/admin/competitions/${perps}/perps/positions/${short.position.id}/close`);
    await call('POST', `/api/admin/competitions/${perps}/script`, { actions: [{ afterMs: 3_600_000, action: 'open', ref: 'later', agentId: a.id, asset: 'SOL', side: 'long', sizeUsd: 100, leverage: 1 }] });
  }
  await call('GET', '/api/auth/agent/nonce', undefined, a.key);
  await call('POST', '/api/inferai/signatures', { competitionId: active, ...SAMPLE }, a.key);
  const now = Date.parse((await call('GET', '/api/sim/clock')).now);
  await call('PUT', `/api/admin/competition/${pending}`, { votingStartDate: new Date(now - 60_000).toISOString(), votingEndDate: new Date(now + 86_400_000).toISOString() });
  await call('POST', `/api/admin/competitions/${pending}/votes`, { userId: pools.users[1]!, votedAgentId: a.id });
  // A rewarded competition, ended, with a claimed reward (the fuzz world's ended one pays nothing).
  const paid = (await call('POST', '/api/admin/competition/start', { name: 'Rich Paid', tradingType: 'allow', agentIds: [a.id, b.id], rewards: { 1: 100, 2: 50 } })).competition.id as string;
  await call('POST', '/api/admin/competition/end', { competitionId: paid });
  await call('POST', `/api/admin/competitions/${paid}/rewards/claim`, { agentId: a.id, claimed: true });
  pools.competitions.push(paid);
  const partner = (await call('POST', '/api/admin/partners', { name: 'Rich Partner' })).partner.id as string;
  await call('POST', `/api/admin/competitions/${paid}/partners`, { partnerId: partner, position: 1 });
  await call('POST', '/api/sim/prices', { prices: [{ token: TOKENS.BONK.address, specificChain: 'svm', price: 0.00002 }] });
  await call('POST', '/api/sim/prices/tape', { tapes: { [`svm:${TOKENS.JUP.address}`]: [[now, 0.5], [now + 3_600_000, 0.6]] } });
  const dump = JSON.parse(JSON.stringify(await t.world.dump())) as StoreDump;
  return { t, pools, dump };
}
