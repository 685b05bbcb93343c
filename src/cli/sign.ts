// `compsim sign-wallet` (nonce, signed message, verify against a running server) and `compsim sign-inference` (a provider-style signature).
import { failure, UsageError } from './args.js';
import { signInference, signWalletVerification } from '../signing.js';

export const SIGN_USAGE = `Usage: compsim sign-wallet --key <hex> --api-key <key> [--url <base url>] [--domain <text>] [--dry-run]
       compsim sign-inference --key <hex> --model <name> --prompt <text> --output <text> [--chain-id 1] [--json]

sign-wallet     gets a nonce for the agent (--api-key), signs the five-line verification message with
                --key (a private key, hex) at the server's time (GET /api/health) and posts it to
                POST /api/auth/verify; prints the answer. --url defaults to http://127.0.0.1:3000 and
                --domain to the URL (compsim serve's default wallet domain). --dry-run prints the
                message, signature and address instead of posting.
sign-inference  prints the signature an inference provider holding --key would return for the
                prompt, model and output (EIP-191 over chainId + model + prompt + output). The server
                must trust the key's address (serve --inference-signer <address>; --json shows it).`;

type Flags = Record<string, string | true>;

function parseFlags(argv: string[], valued: readonly string[], switches: readonly string[]): Flags {
  const out: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const eq = raw.indexOf('=');
    const flag = raw.startsWith('--') && eq > 0 ? raw.slice(0, eq) : raw;
    const name = flag.replace(/^--/, '');
    if (switches.includes(name)) {
      out[name] = true;
      continue;
    }
    if (!flag.startsWith('--') || !valued.includes(name)) throw new UsageError(`unknown option '${raw}'`);
    const v = eq > 0 && raw.startsWith('--') ? raw.slice(eq + 1) : argv[++i];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    out[name] = v;
  }
  return out;
}

function need(f: Flags, name: string): string {
  const v = f[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: any }> {
  const res = await fetch(url, init);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

async function signWallet(f: Flags, out: NodeJS.WritableStream): Promise<number> {
  const key = need(f, 'key');
  const apiKey = need(f, 'api-key');
  const url = (typeof f.url === 'string' ? f.url : 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const domain = typeof f.domain === 'string' ? f.domain : url;
  const auth = { authorization: `Bearer ${apiKey}` };
  const health = await getJson(`${url}/api/health`);
  const nonce = await getJson(`${url}/api/auth/agent/nonce`, { headers: auth });
  if (nonce.status !== 200 || typeof nonce.body?.nonce !== 'string') {
    out.write(`${JSON.stringify(nonce.body)}\n`);
    return 1;
  }
  const timestamp = typeof health.body?.timestamp === 'string' ? health.body.timestamp : new Date().toISOString();
  const signed = await signWalletVerification(key, { nonce: nonce.body.nonce, domain, timestamp });
  if (f['dry-run']) {
    out.write(`${JSON.stringify(signed, null, 2)}\n`);
    return 0;
  }
  const res = await getJson(`${url}/api/auth/verify`, {
    method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ message: signed.message, signature: signed.signature }),
  });
  out.write(`${JSON.stringify(res.body, null, 2)}\n`);
  return res.status === 200 ? 0 : 1;
}

async function signInferenceCmd(f: Flags, out: NodeJS.WritableStream): Promise<number> {
  const chainId = typeof f['chain-id'] === 'string' ? f['chain-id'] : '1';
  if (!/^\d+$/.test(chainId)) throw new UsageError('--chain-id must be a decimal number');
  const signed = await signInference(need(f, 'key'), {
    responseModel: need(f, 'model'), requestPrompt: need(f, 'prompt'), responseOutput: need(f, 'output'), chainId,
  });
  out.write(f.json ? `${JSON.stringify({ signer: signed.address, chainId, signature: signed.signature }, null, 2)}\n` : `${signed.signature}\n`);
  return 0;
}

/** Runs `sign-wallet` or `sign-inference`; returns the exit code (2 on misuse). */
export async function signMain(cmd: 'sign-wallet' | 'sign-inference', argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    out.write(`${SIGN_USAGE}\n`);
    return 0;
  }
  try {
    if (cmd === 'sign-wallet') return await signWallet(parseFlags(argv, ['key', 'api-key', 'url', 'domain'], ['dry-run']), out);
    return await signInferenceCmd(parseFlags(argv, ['key', 'model', 'prompt', 'output', 'chain-id'], ['json']), out);
  } catch (e) {
    return failure(`compsim ${cmd}`, SIGN_USAGE, e, err);
  }
}
