// Verified-inference badge: signature submissions (EIP-191 recovery against trusted signers), the materialised badge, its 15-minute refresh and end-of-competition freeze (reference features §1).
import type { ReadTx, WriteTx } from '../../ports/store.js';
import { requireCompetition } from '../competitions/create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Competition, InferenceBadge, InferenceStatus, InferenceSubmission, Principal } from '../model.js';
import type { Tables } from '../tables.js';
import { callerAgentId } from '../trading/trade.js';
import { recoverPersonalSigner } from '../agents/wallet-verification.js';

/** Trailing window of the badge rule (virtual time). */
export const BADGE_WINDOW_MS = 24 * 60 * 60_000;
/** Cadence of upstream's badge refresh cron (`*\/15 * * * *`), aligned here to the competition's start. */
export const BADGE_REFRESH_MS = 15 * 60_000;
/** Verified signatures in the window needed for an active badge. */
export const BADGE_ACTIVE_THRESHOLD = 1;

/** The signed text: chain id, then model, then prompt, then output, with no separators. */
export function inferenceMessage(chainId: string, responseModel: string, requestPrompt: string, responseOutput: string): string {
  return chainId + responseModel + requestPrompt + responseOutput;
}

/** `verified` iff the recovered signer is trusted; a malformed signature is `invalid`, never an error. */
export async function verifyInference(deps: Deps, i: Pick<SubmitInput, 'requestPrompt' | 'responseModel' | 'responseOutput' | 'signature'>): Promise<InferenceStatus> {
  const signer = await recoverPersonalSigner(inferenceMessage(deps.config.inferenceChainId, i.responseModel, i.requestPrompt, i.responseOutput), i.signature);
  return signer !== null && deps.config.inferenceSigners.includes(signer) ? 'verified' : 'invalid';
}

/** Body of `POST .../signatures` (validated by the route: uuid, non-empty strings, 130 hex). */
export interface SubmitInput { competitionId: string; requestPrompt: string; responseModel: string; responseOutput: string; signature: string }

/** Badge fields of an answer. */
export interface BadgeStatus { isBadgeActive: boolean; signaturesLast24h: number }

/** Result of {@link submitSignature}. */
export interface SubmitResult { submissionId: string; verificationStatus: InferenceStatus; badgeStatus: BadgeStatus }

const badgeId = (competitionId: string, agentId: string) => `${competitionId}:${agentId}`;

/** Verified submissions of one agent with `from <= submittedAt <= to`. */
function verifiedIn(subs: readonly InferenceSubmission[], agentId: string, from: number, to: number): InferenceSubmission[] {
  return subs.filter((s) => s.agentId === agentId && s.verificationStatus === 'verified' && s.submittedAt >= from && s.submittedAt <= to);
}

function upsertBadge(tx: WriteTx<Tables>, competitionId: string, agentId: string, fields: Omit<InferenceBadge, 'id' | 'agentId' | 'competitionId' | 'createdAt' | 'updatedAt'>, now: number) {
  const id = badgeId(competitionId, agentId);
  const old = tx.get('inferenceBadges', id);
  return tx.put('inferenceBadges', { id, agentId, competitionId, ...fields, createdAt: old?.createdAt ?? now, updatedAt: now });
}

/**
 * `POST /api/inferai/signatures` (and `/api/eigenai/...`), upstream's order: competition exists
 * (404), is active (400), the caller is active in it (403); then the signature is verified and
 * stored, a duplicate (competitionId, signature) pair being a 409 (the raw string, as upstream: `0x`
 * and case variants are distinct). A verified one recounts the badge over the trailing 24 h
 * (including itself); an invalid one leaves the badge row untouched.
 */
export async function submitSignature(deps: Deps, principal: Principal, input: SubmitInput): Promise<SubmitResult> {
  const agentId = callerAgentId(principal);
  // The signature check needs no state (and ethers loads asynchronously): it runs before the transaction.
  const verificationStatus = await verifyInference(deps, input);
  return deps.store.transact((tx) => {
    let comp = requireCompetition(tx, input.competitionId);
    if (comp.status !== 'active') throw new DomainError('INFERENCE_NOT_ACTIVE', { status: comp.status });
    if ((tx.get('competitionAgents', `${comp.id}:${agentId}`))?.status !== 'active') throw new DomainError('INFERENCE_NOT_REGISTERED');
    if ((tx.count('inferenceSubmissions', 'signature', `${comp.id}:${input.signature}`)) > 0) throw new DomainError('INFERENCE_DUPLICATE');
    const now = deps.clock.now();
    const sub = tx.insert('inferenceSubmissions', {
      id: deps.ids.uuid(), agentId, competitionId: comp.id, signature: input.signature, chainId: deps.config.inferenceChainId,
      requestPrompt: input.requestPrompt, responseModel: input.responseModel, responseOutput: input.responseOutput,
      verificationStatus, submittedAt: now, createdAt: now,
    });
    // The first submission starts the competition's refresh cycle (scheduler job 'badge').
    if (comp.badgeRefreshedAt === undefined || comp.badgeRefreshedAt === null) comp = tx.put('competitions', { ...comp, badgeRefreshedAt: now });
    let badge = tx.get('inferenceBadges', badgeId(comp.id, agentId));
    if (verificationStatus === 'verified') {
      const subs = tx.find('inferenceSubmissions', 'agentCompetition', `${agentId}:${comp.id}`);
      const count = verifiedIn(subs, agentId, now - BADGE_WINDOW_MS, now).length;
      badge = upsertBadge(tx, comp.id, agentId, { isBadgeActive: count >= BADGE_ACTIVE_THRESHOLD, signaturesLast24h: count, lastVerifiedAt: now }, now);
    }
    return {
      submissionId: sub.id, verificationStatus,
      badgeStatus: { isBadgeActive: badge?.isBadgeActive ?? false, signaturesLast24h: badge?.signaturesLast24h ?? 0 },
    };
  });
}

/**
 * Upstream's `refreshBadgeStatuses`: for every agent with any submission in the competition, the
 * verified count in `[reference - 24 h, reference]`, the badge flag, and the latest verified
 * instant; with `bounded` (the end-of-competition freeze) only submissions up to `reference` count.
 * Creates rows for agents that only ever submitted invalid signatures (false / 0 / null).
 */
export function refreshBadgesTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition, reference: number, bounded: boolean): void {
  const subs = (tx.find('inferenceSubmissions', 'competition', comp.id)).filter((s) => !bounded || s.submittedAt <= reference);
  const agents = [...new Set(subs.map((s) => s.agentId))];
  for (const agentId of agents) {
    const all = verifiedIn(subs, agentId, -Infinity, Infinity);
    const count = verifiedIn(subs, agentId, reference - BADGE_WINDOW_MS, bounded ? reference : Infinity).length;
    const lastVerifiedAt = all.length > 0 ? Math.max(...all.map((s) => s.submittedAt)) : null;
    upsertBadge(tx, comp.id, agentId, { isBadgeActive: count >= BADGE_ACTIVE_THRESHOLD, signaturesLast24h: count, lastVerifiedAt }, deps.clock.now());
  }
}

/** Scheduler job 'badge': refreshes an active competition's badges at now and records the run. */
export async function refreshCompetitionBadges(deps: Deps, competitionId: string): Promise<void> {
  await deps.store.transact((tx) => {
    const comp = requireCompetition(tx, competitionId);
    if (comp.status !== 'active') return;
    const now = deps.clock.now();
    refreshBadgesTx(deps, tx, comp, now, false);
    tx.put('competitions', { ...comp, badgeRefreshedAt: now });
  });
}

/** End of competition: badges frozen as of the end date (part of the end transaction). */
export function freezeBadgesTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition): void {
  refreshBadgesTx(deps, tx, comp, comp.endDate ?? deps.clock.now(), true);
}

/** Next aligned refresh (start + k x 15 min) after the last one; null when no refresh cycle runs. */
export function nextBadgeRefreshAt(c: Competition): number | null {
  if (c.badgeRefreshedAt === undefined || c.badgeRefreshedAt === null || c.startDate === null) return null;
  const k = Math.floor((c.badgeRefreshedAt - c.startDate) / BADGE_REFRESH_MS) + 1;
  return c.startDate + k * BADGE_REFRESH_MS;
}

/** `GET .../badge?competitionId=`: the materialised row (no recomputation), defaults without one; no registration check. */
export async function agentBadge(deps: Deps, principal: Principal, competitionId: string): Promise<{ agentId: string; competitionId: string; badge: Pick<InferenceBadge, 'isBadgeActive' | 'signaturesLast24h' | 'lastVerifiedAt'> }> {
  const agentId = callerAgentId(principal);
  return deps.store.read((tx) => {
    const comp = requireCompetition(tx, competitionId);
    const row = tx.get('inferenceBadges', badgeId(comp.id, agentId));
    return { agentId, competitionId: comp.id, badge: row ?? { isBadgeActive: false, signaturesLast24h: 0, lastVerifiedAt: null } };
  });
}

/** Query of `GET .../submissions` (schema defaults applied). */
export interface SubmissionsInput { competitionId: string; limit: number; offset: number; status?: InferenceStatus }

/** `GET .../submissions`: the caller's submissions in the competition, newest first, filtered and paged. */
export async function agentSubmissions(deps: Deps, principal: Principal, q: SubmissionsInput): Promise<{ agentId: string; competitionId: string; submissions: InferenceSubmission[]; total: number }> {
  const agentId = callerAgentId(principal);
  return deps.store.read((tx) => {
    const comp = requireCompetition(tx, q.competitionId);
    const mine = (tx.find('inferenceSubmissions', 'agentCompetition', `${agentId}:${comp.id}`))
      .filter((s) => q.status === undefined || s.verificationStatus === q.status)
      .reverse().sort((a, b) => b.submittedAt - a.submittedAt);
    return { agentId, competitionId: comp.id, submissions: mine.slice(q.offset, q.offset + q.limit), total: mine.length };
  });
}

/** `GET .../competitions/{competitionId}/stats` (public). */
export async function competitionInferenceStats(deps: Deps, competitionId: string): Promise<{ competitionId: string; totalAgentsWithSubmissions: number; agentsWithActiveBadge: number; totalVerifiedSignatures: number }> {
  return deps.store.read((tx: ReadTx<Tables>) => {
    const comp = requireCompetition(tx, competitionId);
    const subs = tx.find('inferenceSubmissions', 'competition', comp.id);
    const badges = tx.find('inferenceBadges', 'competition', comp.id);
    return {
      competitionId: comp.id, totalAgentsWithSubmissions: new Set(subs.map((s) => s.agentId)).size,
      agentsWithActiveBadge: badges.filter((b) => b.isBadgeActive).length,
      totalVerifiedSignatures: subs.filter((s) => s.verificationStatus === 'verified').length,
    };
  });
}
