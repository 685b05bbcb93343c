// Table schema of the store: table name -> row type and secondary indexes.
import type { Schema } from '../ports/store.js';
import type {
  Admin, Agent, AgentNonce, AgentRating, Arena, Balance, Competition, CompetitionAgent, InferenceBadge, InferenceSubmission, LeaderboardEntry,
  PerpsPosition, ScriptedAction, PortfolioSnapshot, RewardClaim, Trade, User, Vote, Partner, CompetitionPartner,
} from './model.js';
import { pairKey } from './data/keys.js';

/** Row type of every table. */
export interface Tables {
  admins: Admin;
  users: User;
  agents: Agent;
  arenas: Arena;
  competitions: Competition;
  competitionAgents: CompetitionAgent;
  balances: Balance;
  snapshots: PortfolioSnapshot;
  leaderboards: LeaderboardEntry;
  trades: Trade;
  votes: Vote;
  ratings: AgentRating;
  rewardClaims: RewardClaim;
  agentNonces: AgentNonce;
  inferenceSubmissions: InferenceSubmission;
  inferenceBadges: InferenceBadge;
  perpsPositions: PerpsPosition;
  scriptActions: ScriptedAction;
  partners: Partner;
  competitionPartners: CompetitionPartner;
}

const lower = (s: string | null) => (s === null ? null : s.toLowerCase());

/** The store schema; features add their tables here. */
export const TABLES: Schema<Tables> = {
  admins: { key: 'id', indexes: { apiKeyHash: (r) => r.apiKeyHash } },
  users: { key: 'id', indexes: { wallet: (r) => lower(r.walletAddress), email: (r) => lower(r.email) } },
  agents: {
    key: 'id',
    indexes: {
      apiKeyHash: (r) => r.apiKeyHash, owner: (r) => r.ownerId, handle: (r) => r.handle,
      wallet: (r) => lower(r.walletAddress),
    },
  },
  arenas: { key: 'id' },
  competitions: { key: 'id', indexes: { status: (r) => r.status, arena: (r) => r.arenaId } },
  competitionAgents: { key: 'id', indexes: { competition: (r) => r.competitionId, agent: (r) => r.agentId } },
  balances: { key: 'id', indexes: { agentCompetition: (r) => pairKey(r.agentId, r.competitionId), agent: (r) => r.agentId } },
  snapshots: {
    key: 'id',
    indexes: { competition: (r) => r.competitionId, agentCompetition: (r) => pairKey(r.agentId, r.competitionId) },
  },
  leaderboards: { key: 'id', indexes: { competition: (r) => r.competitionId } },
  trades: {
    key: 'id',
    indexes: { competition: (r) => r.competitionId, agentCompetition: (r) => pairKey(r.agentId, r.competitionId), agent: (r) => r.agentId },
  },
  votes: {
    key: 'id',
    indexes: {
      competition: (r) => r.competitionId, userCompetition: (r) => `${r.userId}:${r.competitionId}`, agent: (r) => r.agentId,
    },
  },
  // Ratings (domain/rankings/rating.ts): `board` is `type:<type>` for the global rows, `arena:<id>` for arena rows.
  ratings: { key: 'id', indexes: { board: (r) => (r.arenaId === null ? `type:${r.type}` : `arena:${r.arenaId}`), agent: (r) => r.agentId } },
  rewardClaims: { key: 'id', indexes: { agent: (r) => r.agentId } },
  // Wallet verification, inference badges, perps, scripted actions (domain/agents/wallet-verification.ts, inference.ts, perps*.ts, competition-script.ts).
  agentNonces: { key: 'id', indexes: { agent: (r) => r.agentId } },
  inferenceSubmissions: {
    key: 'id',
    indexes: {
      competition: (r) => r.competitionId, agentCompetition: (r) => `${r.agentId}:${r.competitionId}`,
      signature: (r) => `${r.competitionId}:${r.signature}`,
    },
  },
  inferenceBadges: { key: 'id', indexes: { competition: (r) => r.competitionId } },
  perpsPositions: {
    key: 'id', indexes: { competition: (r) => r.competitionId, agentCompetition: (r) => `${r.agentId}:${r.competitionId}`, agent: (r) => r.agentId },
  },
  scriptActions: { key: 'id', indexes: { competition: (r) => r.competitionId } },
  // Partners and their places in competitions (domain/competitions/partners.ts).
  partners: { key: 'id' },
  competitionPartners: { key: 'id', indexes: { competition: (r) => r.competitionId, partner: (r) => r.partnerId } },
};
