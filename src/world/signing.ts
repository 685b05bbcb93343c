// Signing helpers for users and tests: a signed wallet-verification message and the signature an inference provider returns (real secp256k1 via ethers).
import { Wallet } from 'ethers';
import { UPSTREAM_INFERENCE_SIGNER } from './config.js';
import { inferenceMessage } from '../domain/inference/badge.js';
import { WALLET_MESSAGE_HEADER, WALLET_PURPOSE } from '../domain/agents/wallet-verification.js';

export { UPSTREAM_INFERENCE_SIGNER };

/** Fields of a wallet-verification message; `timestamp` is an ISO string or epoch ms (use the server's virtual time). */
export interface WalletMessageFields { nonce: string; domain: string; timestamp: string | number }

/** A signed message and its signer. */
export interface SignedMessage { message: string; signature: string; address: string }

function isoOf(t: string | number): string {
  const ms = typeof t === 'number' ? t : Date.parse(t);
  if (!Number.isFinite(ms)) throw new Error(`not a valid time: ${String(t)}`);
  return new Date(ms).toISOString();
}

/** The exact five-line message of `POST /api/auth/verify` (LF-separated, no trailing newline). */
export function walletVerificationMessage(f: WalletMessageFields): string {
  return [WALLET_MESSAGE_HEADER, `Timestamp: ${isoOf(f.timestamp)}`, `Domain: ${f.domain}`, `Purpose: ${WALLET_PURPOSE}`, `Nonce: ${f.nonce}`].join('\n');
}

/**
 * Builds the wallet-verification message and signs it (EIP-191 personal_sign) with `privateKey`
 * (hex, with or without `0x`). `address` is the lower-case wallet the server will record.
 */
export async function signWalletVerification(privateKey: string, f: WalletMessageFields): Promise<SignedMessage> {
  const wallet = new Wallet(privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`);
  const message = walletVerificationMessage(f);
  return { message, signature: await wallet.signMessage(message), address: wallet.address.toLowerCase() };
}

/** What an inference provider signs: the request prompt, the model and the output, on a chain (default "1"). */
export interface InferenceFields { requestPrompt: string; responseModel: string; responseOutput: string; chainId?: string }

/**
 * The signature a verifiable-inference provider would return for a response, made with
 * `privateKey` (the world must trust its address: world option `inferenceSigners`, or
 * `compsim serve --inference-signer <address>`). Submit it as `signature` to `POST .../signatures`.
 */
export async function signInference(privateKey: string, f: InferenceFields): Promise<SignedMessage> {
  const wallet = new Wallet(privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`);
  const message = inferenceMessage(f.chainId ?? '1', f.responseModel, f.requestPrompt, f.responseOutput);
  return { message, signature: await wallet.signMessage(message), address: wallet.address.toLowerCase() };
}

/** The lower-case address of a private key (to configure it as a trusted signer). */
export function addressOf(privateKey: string): string {
  return new Wallet(privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`).address.toLowerCase();
}
