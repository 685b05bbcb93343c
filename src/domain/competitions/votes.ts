// Competition votes: casting a vote (admin, on behalf of a user or an agent's owner) and a user's voting state.
import type { ReadTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError, ERRORS, type ErrorCode } from '../errors.js';
import type { Competition, User, Vote } from '../model.js';
import type { Tables } from '../tables.js';

/** Who votes: exactly one of a user id, or an agent id standing for that agent's owner. */
export interface CastVoteInput { competitionId: string; votedAgentId: string; userId?: string; agentId?: string }

/** A user's voting state in one competition (times in epoch ms; serialise `votedAt` with `iso`). */
export interface UserVotingState {
  canVote: boolean;
  /** Why `canVote` is false; absent when the user can vote. */
  reason?: string;
  info: { hasVoted: boolean; agentId?: string; votedAt?: number };
}

/** Why voting is closed, as an error code of the catalogue plus its params. */
type Block = { code: ErrorCode; params: Record<string, string> };

const isoAt = (ms: number) => new Date(ms).toISOString();
const VOTING_STATUSES: readonly Competition['status'][] = ['pending', 'active'];

function blockMessage(b: Block): string {
  return (ERRORS[b.code][1] as (p: Record<string, string>) => string)(b.params);
}

/** Upstream's voting window: both dates must be set; the bounds themselves are inside the window. */
function windowBlock(comp: Competition, now: number): Block | null {
  if (comp.votingStartDate === null || comp.votingEndDate === null) return { code: 'VOTING_DISABLED', params: {} };
  if (now < comp.votingStartDate) return { code: 'VOTING_NOT_STARTED', params: { at: isoAt(comp.votingStartDate) } };
  if (now > comp.votingEndDate) return { code: 'VOTING_ENDED', params: { at: isoAt(comp.votingEndDate) } };
  return null;
}

// The state views phrase the status reason with parentheses, the cast endpoint with a colon (upstream).
const statusReason = (comp: Competition) => `Competition status does not allow voting (${comp.status})`;

/** The user's vote in a competition, if any (one per user per competition). */
export function userVote(tx: ReadTx<Tables>, competitionId: string, userId: string): Vote | undefined {
  return (tx.find('votes', 'userCompetition', `${userId}:${competitionId}`))[0];
}

/** Number of votes cast in a competition (`totalVotes`). */
export function competitionVoteCount(tx: ReadTx<Tables>, competitionId: string): number {
  return tx.count('votes', 'competition', competitionId);
}

/** Votes for one agent: in one competition (participants' `voteCount`), or across all when `competitionId` is omitted. */
export function agentVoteCount(tx: ReadTx<Tables>, agentId: string, competitionId?: string): number {
  const votes = tx.find('votes', 'agent', agentId);
  return competitionId === undefined ? votes.length : votes.filter((v) => v.competitionId === competitionId).length;
}

function voteInfo(vote: Vote | undefined): UserVotingState['info'] {
  return vote ? { hasVoted: true, agentId: vote.agentId, votedAt: vote.createdAt } : { hasVoted: false };
}

/**
 * Voting state for the competition **detail** view (upstream `getCompetitionVotingState`): status
 * first (then `info` carries only `hasVoted`), then the window, then "already voted"; no reason
 * when the user can vote. Callers derive `votingEnabled = canVote || info.hasVoted`.
 */
export function competitionVotingState(tx: ReadTx<Tables>, comp: Competition, userId: string, now: number): UserVotingState {
  const vote = userVote(tx, comp.id, userId);
  if (!VOTING_STATUSES.includes(comp.status)) return { canVote: false, reason: statusReason(comp), info: { hasVoted: vote !== undefined } };
  const info = voteInfo(vote);
  const blocked = windowBlock(comp, now);
  if (blocked) return { canVote: false, reason: blockMessage(blocked), info };
  if (vote) return { canVote: false, reason: blockMessage({ code: 'ALREADY_VOTED', params: {} }), info };
  return { canVote: true, info };
}

/**
 * Voting state for the competition **list** view (upstream `checkCompetitionVotingEligibility`):
 * `canVote`/`reason` come from status and window only (the list does not turn `canVote` off once
 * the user has voted); `info` always carries the user's vote when there is one.
 */
export function competitionListVotingState(tx: ReadTx<Tables>, comp: Competition, userId: string, now: number): UserVotingState {
  const info = voteInfo(userVote(tx, comp.id, userId));
  if (!VOTING_STATUSES.includes(comp.status)) return { canVote: false, reason: statusReason(comp), info };
  const blocked = windowBlock(comp, now);
  if (blocked) return { canVote: false, reason: blockMessage(blocked), info };
  return { canVote: true, info };
}

/** The voting user: the given user, or the owner of the given agent. */
function resolveVoter(tx: ReadTx<Tables>, input: CastVoteInput): User {
  if ((input.userId === undefined) === (input.agentId === undefined)) throw new DomainError('VOTER_REQUIRED');
  if (input.userId !== undefined) {
    const user = tx.get('users', input.userId);
    if (!user) throw new DomainError('USER_ID_NOT_FOUND', { id: input.userId });
    return user;
  }
  const agent = tx.get('agents', input.agentId!);
  if (!agent) throw new DomainError('VOTER_AGENT_NOT_FOUND', { id: input.agentId! });
  const owner = tx.get('users', agent.ownerId);
  if (!owner) throw new DomainError('AGENT_OWNER_NOT_FOUND');
  return owner;
}

/**
 * `POST /api/admin/competitions/{competitionId}/votes`: casts one vote for `votedAgentId`. The
 * voter is resolved first (it stands in for upstream's authenticated user), then upstream's
 * checks in order: competition, voted agent, its active participation, competition status,
 * voting window, one vote per user per competition.
 */
export async function castVote(deps: Deps, input: CastVoteInput): Promise<Vote> {
  return deps.store.transact((tx) => {
    const voter = resolveVoter(tx, input);
    const comp = tx.get('competitions', input.competitionId);
    if (!comp) throw new DomainError('COMPETITION_NOT_FOUND');
    if (!(tx.get('agents', input.votedAgentId))) throw new DomainError('AGENT_NOT_FOUND');
    const reg = tx.get('competitionAgents', `${comp.id}:${input.votedAgentId}`);
    if (reg?.status !== 'active') throw new DomainError('VOTE_AGENT_NOT_ACTIVE');
    if (!VOTING_STATUSES.includes(comp.status)) throw new DomainError('VOTING_STATUS', { status: comp.status });
    const now = deps.clock.now();
    const blocked = windowBlock(comp, now);
    if (blocked) throw new DomainError(blocked.code, blocked.params);
    if (userVote(tx, comp.id, voter.id)) throw new DomainError('ALREADY_VOTED');
    return tx.insert('votes', { id: deps.ids.uuid(), userId: voter.id, agentId: input.votedAgentId, competitionId: comp.id, createdAt: now });
  });
}
