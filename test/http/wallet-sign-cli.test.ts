// compsim sign-wallet / sign-inference and serve's --wallet-domain / --inference-signer, run in-process against a served world.
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { Wallet } from 'ethers';
import { parseServeArgs, UsageError } from '../../src/cli/args.js';
import { serve } from '../../src/cli/main.js';
import { signMain } from '../../src/cli/sign.js';
import { ADMIN_KEY } from '../helpers/server.js';

const KEY = '0x1234567890123456789012345678901234567890123456789012345678901234';
const PROVIDER_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

/** A stream that keeps what is written to it. */
function sink(): { stream: Writable; text: () => string } {
  let buf = '';
  const stream = new Writable({ write(chunk, _enc, cb) { buf += String(chunk); cb(); } });
  return { stream, text: () => buf };
}

async function json(url: string, init: RequestInit = {}, key = ADMIN_KEY): Promise<any> {
  const res = await fetch(url, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });
  return res.json();
}

describe('compsim sign-wallet and sign-inference', function () {
  this.timeout(30_000);

  it('verifies a wallet end to end against serve\'s default domain (its own base URL)', async () => {
    const out = sink();
    const running = await serve(parseServeArgs(['--port', '0', '--admin-key', ADMIN_KEY, '--log-level', 'silent']), out.stream);
    try {
      const created = await json(`${running.url}/api/admin/users`, { method: 'POST', body: JSON.stringify({ walletAddress: `0x${'1'.repeat(40)}`, agentName: 'CLI Bot' }) });
      const apiKey = created.agent.apiKey as string;
      const dry = sink();
      expect(await signMain('sign-wallet', ['--key', KEY, '--api-key', apiKey, '--url', `${running.url}/`, '--dry-run'], dry.stream)).to.equal(0);
      const printed = JSON.parse(dry.text());
      expect(printed.message).to.contain(`\nDomain: ${running.url}\n`);
      expect(printed.address).to.equal(new Wallet(KEY).address.toLowerCase());
      const res = sink();
      expect(await signMain('sign-wallet', ['--key', KEY, '--api-key', apiKey, '--url', running.url], res.stream)).to.equal(0);
      expect(JSON.parse(res.text())).to.deep.equal({ success: true, walletAddress: printed.address, message: 'Wallet verified successfully' });
      const wrong = sink();
      expect(await signMain('sign-wallet', ['--key', KEY, '--api-key', apiKey, '--url', running.url, '--domain', 'https://elsewhere'], wrong.stream)).to.equal(1);
      expect(JSON.parse(wrong.text())).to.deep.equal({ success: false, error: 'Invalid domain' });
    } finally {
      await running.stop();
    }
  });

  it('prints a provider signature that a server started with --inference-signer verifies', async () => {
    const signer = new Wallet(PROVIDER_KEY).address;
    const running = await serve(parseServeArgs(['--port', '0', '--admin-key', ADMIN_KEY, '--log-level', 'silent', '--inference-signer', signer, '--wallet-domain', 'app.example']), sink().stream);
    try {
      const created = await json(`${running.url}/api/admin/users`, { method: 'POST', body: JSON.stringify({ walletAddress: `0x${'2'.repeat(40)}`, agentName: 'Infer Bot' }) });
      const started = await json(`${running.url}/api/admin/competition/start`, { method: 'POST', body: JSON.stringify({ name: 'Cup', agentIds: [created.agent.id] }) });
      const out = sink();
      expect(await signMain('sign-inference', ['--key', PROVIDER_KEY, '--model', 'm', '--prompt', 'p', '--output', 'o'], out.stream)).to.equal(0);
      const signature = out.text().trim();
      expect(signature).to.equal(await new Wallet(PROVIDER_KEY).signMessage('1mpo'));
      const res = await json(`${running.url}/api/inferai/signatures`, {
        method: 'POST', body: JSON.stringify({ competitionId: started.competition.id, requestPrompt: 'p', responseModel: 'm', responseOutput: 'o', signature }),
      }, created.agent.apiKey);
      expect(res).to.include({ success: true, verified: true, verificationStatus: 'verified' });
      const j = sink();
      await signMain('sign-inference', ['--key', PROVIDER_KEY.slice(2), '--model', 'm', '--prompt', 'p', '--output', 'o', '--json'], j.stream);
      expect(JSON.parse(j.text())).to.deep.equal({ signer: signer.toLowerCase(), chainId: '1', signature });
    } finally {
      await running.stop();
    }
  });

  it('exits 2 on misuse and parses the serve options', async () => {
    const err = sink();
    expect(await signMain('sign-inference', ['--key', KEY, '--model', 'm'], sink().stream, err.stream)).to.equal(2);
    expect(err.text()).to.contain('--prompt is required');
    expect(await signMain('sign-wallet', ['--bogus'], sink().stream, sink().stream)).to.equal(2);
    const args = parseServeArgs(['--wallet-domain', 'https://api.example/', '--inference-signer', `0x${'a'.repeat(40)}`, '--inference-signer', `0x${'b'.repeat(40)}`]);
    expect(args).to.include({ walletDomain: 'https://api.example/' });
    expect(args.inferenceSigners).to.deep.equal([`0x${'a'.repeat(40)}`, `0x${'b'.repeat(40)}`]);
    expect(() => parseServeArgs(['--inference-signer', 'nope'])).to.throw(UsageError, /--inference-signer must be an address/);
  });
});
