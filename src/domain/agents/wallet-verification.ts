// Wallet verification: nonces on the virtual clock and the signed five-line message, every check of upstream in its order (reference features §2).
import type * as Ethers from 'ethers';
import type { WriteTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError, type ErrorCode } from '../errors.js';
import type { AgentNonce, Principal } from '../model.js';
import type { Tables } from '../tables.js';

/** Lifetime of a nonce (virtual time). */
export const NONCE_TTL_MS = 10 * 60_000;
/** Oldest accepted message timestamp, relative to now. */
export const MAX_MESSAGE_AGE_MS = 5 * 60_000;
/** Furthest accepted message timestamp in the future, relative to now. */
export const MAX_MESSAGE_SKEW_MS = 30_000;
/** First line of the message. */
export const WALLET_MESSAGE_HEADER = 'VERIFY_WALLET_OWNERSHIP';
/** Value of the `Purpose:` line. */
export const WALLET_PURPOSE = 'WALLET_VERIFICATION';

/** The fields of a verification message (values verbatim after their `Name: ` prefix). */
export interface VerificationFields { timestamp: string; domain: string; purpose: string; nonce: string }

/** The agent behind a wallet route; an admin key authenticates but has no agent (401, upstream's wording). */
function walletAgentId(principal: Principal): string {
  if (principal.kind !== 'agent') throw new DomainError('WALLET_AGENT_AUTH_REQUIRED');
  return principal.agentId;
}

/**
 * `GET /api/auth/agent/nonce`: a fresh 17-character nonce valid for 10 minutes of virtual time.
 * The agent's older nonces are deleted first, so only the newest one verifies.
 */
export async function issueNonce(deps: Deps, principal: Principal): Promise<{ nonce: string; expiresAt: number }> {
  const agentId = walletAgentId(principal);
  return deps.store.transact((tx) => {
    for (const old of tx.find('agentNonces', 'agent', agentId)) tx.delete('agentNonces', old.id);
    const now = deps.clock.now();
    const row = tx.insert('agentNonces', { id: deps.ids.nonce(), agentId, expiresAt: now + NONCE_TTL_MS, createdAt: now, usedAt: null });
    return { nonce: row.id, expiresAt: row.expiresAt };
  });
}

/**
 * Upstream's `parseVerificationMessage`: the trimmed text split on `\n`; the first line must be
 * the header; the other fields are found by prefix anywhere after it (extra lines are ignored).
 */
export function parseVerificationMessage(message: string): VerificationFields {
  const lines = message.trim().split('\n');
  if (lines[0] !== WALLET_MESSAGE_HEADER) throw new DomainError('WALLET_BAD_HEADER');
  const field = (prefix: string) => lines.slice(1).find((l) => l.startsWith(prefix))?.slice(prefix.length) ?? '';
  const fields = { timestamp: field('Timestamp: '), domain: field('Domain: '), purpose: field('Purpose: '), nonce: field('Nonce: ') };
  if (!fields.timestamp || !fields.domain || !fields.purpose) throw new DomainError('WALLET_MISSING_FIELDS');
  if (!fields.nonce) throw new DomainError('WALLET_NONCE_REQUIRED');
  return fields;
}

/**
 * ethers, imported on first use (Node keeps the module once loaded): it is about 200 ms of
 * start-up, and only wallet verification and inference submissions recover signers, before their
 * transactions. `compsim serve` loads it after start-up so that no request waits for it. A module
 * import yields the same functions whenever it happens, so the timing changes no result.
 */
export function loadEthers(): Promise<typeof Ethers> {
  return import('ethers');
}

/**
 * Recovers the EIP-191 (personal_sign) signer of `message` as a lower-case address, or null when
 * the signature is malformed: not 65 bytes of hex (a `0x` prefix is optional), or a recovery byte
 * other than 0, 1, 27, 28 (viem, which upstream uses, rejects those; ethers would read them as
 * EIP-155 values). Pure arithmetic once ethers is loaded.
 */
export async function recoverPersonalSigner(message: string, signature: string): Promise<string | null> {
  const hex = signature.startsWith('0x') || signature.startsWith('0X') ? signature.slice(2) : signature;
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) return null;
  if (![0, 1, 27, 28].includes(Number.parseInt(hex.slice(128), 16))) return null;
  const { verifyMessage } = await loadEthers();
  try {
    return verifyMessage(message, `0x${hex}`).toLowerCase();
  } catch {
    return null;
  }
}

/** Body of `POST /api/auth/verify`, as sent. */
export interface VerifyInput { message?: unknown; signature?: unknown }

/**
 * Checks 1-11 of reference §2.3, in order: header, fields, nonce line, domain (exact match with
 * the world's `walletDomain`), purpose, timestamp window on the virtual clock (an unparsable
 * timestamp counts as too old; upstream lets it through), nonce exists, is the caller's, is unused,
 * is not expired. Returns the parsed message.
 */
function checkMessage(deps: Deps, tx: WriteTx<Tables>, agentId: string, message: string): AgentNonce {
  const f = parseVerificationMessage(message);
  if (f.domain !== deps.config.walletDomain) throw new DomainError('WALLET_BAD_DOMAIN');
  if (f.purpose !== WALLET_PURPOSE) throw new DomainError('WALLET_BAD_PURPOSE');
  const now = deps.clock.now();
  const at = Date.parse(f.timestamp);
  if (!Number.isFinite(at) || at < now - MAX_MESSAGE_AGE_MS) throw new DomainError('WALLET_TOO_OLD');
  if (at > now + MAX_MESSAGE_SKEW_MS) throw new DomainError('WALLET_TOO_NEW');
  const nonce = tx.get('agentNonces', f.nonce);
  if (!nonce) throw new DomainError('WALLET_BAD_NONCE');
  if (nonce.agentId !== agentId) throw new DomainError('WALLET_NONCE_OTHER_AGENT');
  if (nonce.usedAt !== null) throw new DomainError('WALLET_NONCE_USED');
  if (now > nonce.expiresAt) throw new DomainError('WALLET_NONCE_EXPIRED');
  return nonce;
}

/**
 * `POST /api/auth/verify`. After the message checks the nonce is marked used *before* the
 * signature is examined (as upstream), so a bad signature or a wallet conflict still burns it: the
 * transaction commits the burn and the error is thrown afterwards. The recovered address (there is
 * no claimed address: any well-formed signature recovers *some* wallet) must not be a user's login
 * wallet nor another agent's; it becomes the agent's `walletAddress`, lower-cased.
 */
export async function verifyWallet(deps: Deps, principal: Principal, input: unknown): Promise<{ walletAddress: string }> {
  const agentId = walletAgentId(principal);
  // Any JSON body is accepted; what is not an object simply lacks the two fields (upstream's check 0).
  const { message, signature }: VerifyInput = typeof input === 'object' && input !== null ? input : {};
  if (typeof message !== 'string' || typeof signature !== 'string' || !message || !signature) throw new DomainError('WALLET_FIELDS_REQUIRED');
  // The signature covers the original, untrimmed text. Recovering it needs no state (and ethers
  // loads asynchronously), so it runs first; its result is only looked at after the nonce checks.
  const signer = await recoverPersonalSigner(message, signature);
  const outcome = await deps.store.transact((tx): { error: ErrorCode } | { address: string } => {
    const nonce = checkMessage(deps, tx, agentId, message);
    const now = deps.clock.now();
    tx.put('agentNonces', { ...nonce, usedAt: now });
    const address = signer;
    if (address === null) return { error: 'WALLET_BAD_SIGNATURE' };
    if ((tx.find('users', 'wallet', address)).length > 0) return { error: 'WALLET_OF_USER' };
    if ((tx.find('agents', 'wallet', address)).some((a) => a.id !== agentId)) return { error: 'WALLET_OF_OTHER_AGENT' };
    const agent = tx.get('agents', agentId);
    if (!agent) return { error: 'AGENT_NOT_FOUND' };
    tx.put('agents', { ...agent, walletAddress: address, updatedAt: now });
    return { address };
  });
  if ('error' in outcome) throw new DomainError(outcome.error);
  return { walletAddress: outcome.address };
}
