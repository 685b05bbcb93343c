// `compsim sign-wallet` (nonce, signed message, verify against a running server) and `compsim sign-inference` (a provider-style signature).
import { bool, failure, parseFlags, str, UsageError } from './args.js';
import { signInference, signWalletVerification } from '../world/signing.js';

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

const WALLET_OPTIONS = { key: str, 'api-key': str, url: { type: 'string', default: 'http://127.0.0.1:3000' }, domain: str, 'dry-run': bool } as const;
const INFERENCE_OPTIONS = { key: str, model: str, prompt: str, output: str, 'chain-id': { type: 'string', default: '1' }, json: bool } as const;

function need(v: string | undefined, name: string): string {
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/** The string a JSON answer holds under `name`, if it is an object with one. */
function stringField(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const v: unknown = (body as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : undefined;
}

async function signWallet(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values: f } = parseFlags(argv, WALLET_OPTIONS);
  const key = need(f.key, 'key');
  const apiKey = need(f['api-key'], 'api-key');
  const url = f.url.replace(/\/+$/, '');
  const domain = f.domain ?? url;
  const auth = { authorization: `Bearer ${apiKey}` };
  const health = await getJson(`${url}/api/health`);
  const nonce = await getJson(`${url}/api/auth/agent/nonce`, { headers: auth });
  const nonceText = stringField(nonce.body, 'nonce');
  if (nonce.status !== 200 || nonceText === undefined) {
    out.write(`${JSON.stringify(nonce.body)}\n`);
    return 1;
  }
  const timestamp = stringField(health.body, 'timestamp') ?? new Date().toISOString();
  const signed = await signWalletVerification(key, { nonce: nonceText, domain, timestamp });
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

async function signInferenceCmd(argv: string[], out: NodeJS.WritableStream): Promise<number> {
  const { values: f } = parseFlags(argv, INFERENCE_OPTIONS);
  const chainId = f['chain-id'];
  if (!/^\d+$/.test(chainId)) throw new UsageError('--chain-id must be a decimal number');
  const signed = await signInference(need(f.key, 'key'), {
    responseModel: need(f.model, 'model'), requestPrompt: need(f.prompt, 'prompt'), responseOutput: need(f.output, 'output'), chainId,
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
    return await (cmd === 'sign-wallet' ? signWallet : signInferenceCmd)(argv, out);
  } catch (e) {
    return failure(`compsim ${cmd}`, SIGN_USAGE, e, err);
  }
}
