// Agents, users and admins as the API shows them: admin views, own profile, public agents, agent competitions, the global leaderboard.
import type { AgentCompetitionRow } from '../../../domain/agents/competitions.js';
import type { PublicAgentDetail } from '../../../domain/agents/public.js';
import type { Admin, Agent, User } from '../../../domain/model.js';
import type { GlobalLeaderboard } from '../../../domain/rankings/global.js';
import type { RuleValue } from '../../../domain/versions.js';
import { apiCompetition } from '../competitions/serialize.js';
import { iso } from '../shared/time.js';

/** Setup response admin object. */
export function apiAdmin(a: Admin, apiKey: string) {
  return { id: a.id, username: a.username, email: a.email, createdAt: iso(a.createdAt), apiKey };
}

/** Upstream's toApiUser. */
export function apiUser(u: User) {
  return {
    id: u.id, walletAddress: u.walletAddress, embeddedWalletAddress: u.embeddedWalletAddress, privyId: u.privyId,
    name: u.name, email: u.email, isSubscribed: u.isSubscribed, imageUrl: u.imageUrl, metadata: u.metadata,
    status: u.status, createdAt: iso(u.createdAt), updatedAt: iso(u.updatedAt), lastLoginAt: iso(u.lastLoginAt),
  };
}

/** Admin view of an agent (upstream's formattedAgent); `apiKey` only right after creation. */
export function apiAgent(a: Agent, apiKey?: string) {
  return {
    id: a.id, ownerId: a.ownerId, walletAddress: a.walletAddress, name: a.name, handle: a.handle, email: a.email,
    description: a.description, imageUrl: a.imageUrl, ...(apiKey !== undefined ? { apiKey } : {}), metadata: a.metadata,
    status: a.status, deactivationReason: a.deactivationReason, deactivationDate: iso(a.deactivationDate),
    isRewardsIneligible: a.isRewardsIneligible, rewardsIneligibilityReason: a.rewardsIneligibilityReason,
    isVerified: a.walletAddress !== null, createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt),
  };
}

/** The short agent object of "already (in)active" errors. */
export function agentBrief(a: Agent) {
  return { id: a.id, name: a.name, handle: a.handle, status: a.status };
}

/** Upstream's sanitized public agent: no key material, no email; `isVerified` = has a wallet. */
export function apiPublicAgent(a: Agent) {
  return {
    id: a.id, ownerId: a.ownerId, name: a.name, handle: a.handle, walletAddress: a.walletAddress, description: a.description,
    imageUrl: a.imageUrl, metadata: a.metadata, status: a.status, createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt),
    isVerified: a.walletAddress !== null,
  };
}

/** The own-profile agent: the public agent plus `email` (the spec lists it; upstream omits it). */
export function apiOwnAgent(a: Agent) {
  return { ...apiPublicAgent(a), email: a.email };
}

/** The owner object of `GET /api/agent/profile`. */
export function apiProfileOwner(u: User) {
  return {
    id: u.id, walletAddress: u.walletAddress, name: u.name, email: u.email, imageUrl: u.imageUrl, metadata: u.metadata,
    status: u.status, createdAt: iso(u.createdAt), updatedAt: iso(u.updatedAt),
  };
}

/** Body of `GET /api/agents/{agentId}` (without `success`). */
export function apiPublicAgentDetail(d: PublicAgentDetail) {
  return {
    agent: {
      ...apiPublicAgent(d.agent), stats: d.stats,
      trophies: d.trophies.map((t) => ({ ...t, createdAt: iso(t.createdAt) })),
      skills: d.skills, hasUnclaimedRewards: d.hasUnclaimedRewards,
    },
    owner: d.owner ? { id: d.owner.id, name: d.owner.name ?? null, walletAddress: d.owner.walletAddress } : null,
  };
}

/**
 * An element of `GET /api/agents/{agentId}/competitions`: the competition row plus the agent's
 * summary there. Perps: Calmar ratio, simple return and max drawdown from the risk metrics
 * (`hasRiskMetrics` when they exist); spot-live: `simpleReturn = pnlPercent / 100`; else null.
 * `counters` (the version's rule): both counters, or only the one of the competition's type.
 */
export function apiAgentCompetition(r: AgentCompetitionRow, counters: RuleValue<'agentCompetitionCounters'> = 'both') {
  const c = r.competition;
  const spotLive = c.type === 'spot_live_trading';
  const perps = c.type === 'perpetual_futures';
  return {
    ...apiCompetition(c), portfolioValue: r.portfolioValue, pnl: r.pnl, pnlPercent: r.pnlPercent, competitionType: c.type,
    ...(counters === 'both' || !perps ? { totalTrades: r.totalTrades } : {}),
    ...(counters === 'both' || perps ? { totalPositions: r.totalPositions } : {}),
    ...(r.bestPlacement ? { bestPlacement: r.bestPlacement } : {}),
    calmarRatio: r.risk?.calmarRatio ?? null, simpleReturn: spotLive ? r.pnlPercent / 100 : r.risk?.simpleReturn ?? null,
    maxDrawdown: r.risk?.maxDrawdown ?? null, hasRiskMetrics: r.risk !== null,
  };
}

/** Body of `GET /api/leaderboard` (without `success` and `pagination`). */
export function apiGlobalLeaderboard(l: GlobalLeaderboard) {
  return {
    agents: l.entries.map((e) => ({
      id: e.agent.id, name: e.agent.name, handle: e.agent.handle, description: e.agent.description, imageUrl: e.agent.imageUrl,
      metadata: e.agent.metadata, rank: e.rank, score: e.rating.ordinal, numCompetitions: e.numCompetitions,
      ...(l.arenaId === null ? { type: e.rating.type } : {}), ...(e.voteCount !== undefined ? { voteCount: e.voteCount } : {}),
    })),
    stats: l.stats,
  };
}
