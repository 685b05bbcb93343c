// Entity types of the domain: plain immutable rows, every instant in epoch milliseconds.
import type { SpecificChain } from '../ports/prices.js';

/** Global status of a user or agent. */
export type ActorStatus = 'active' | 'inactive' | 'suspended' | 'deleted';
/** Competition lifecycle status. */
export type CompetitionStatus = 'pending' | 'active' | 'ending' | 'ended';
/** Competition types (type-specific behaviour beyond paper trading comes later). */
export type CompetitionType = 'trading' | 'perpetual_futures' | 'spot_live_trading' | 'sports_prediction';
/** Cross-chain trading rule of a competition. */
export type CrossChainTradingType = 'disallowAll' | 'disallowXParent' | 'allow';
/** Slippage formula of a competition, fixed at creation: the legacy (team) era's or the current one. */
export type SlippageModel = 'legacy' | 'current';
/** Per-competition agent status. */
export type CompetitionAgentStatus = 'active' | 'withdrawn' | 'disqualified';

/** Who is calling. Teams (legacy generation) are agents with generation 'legacy'. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'admin'; adminId: string }
  | { kind: 'agent'; agentId: string; ownerId: string; generation: 'current' | 'legacy' };

export interface Admin {
  id: string; username: string; email: string; passwordHash: string;
  apiKeyHash: string; apiKeyEnc: string; status: ActorStatus; createdAt: number; updatedAt: number;
}

export interface User {
  id: string; walletAddress: string; embeddedWalletAddress: string | null; privyId: string | null;
  name: string | null; email: string | null; isSubscribed: boolean; imageUrl: string | null;
  metadata: unknown; status: ActorStatus; createdAt: number; updatedAt: number; lastLoginAt: number | null;
}

export interface Agent {
  id: string; ownerId: string; walletAddress: string | null; name: string; handle: string;
  email: string | null; description: string | null; imageUrl: string | null; metadata: unknown;
  apiKeyHash: string; apiKeyEnc: string; status: ActorStatus;
  deactivationReason: string | null; deactivationDate: number | null;
  isRewardsIneligible: boolean; rewardsIneligibilityReason: string | null;
  generation: 'current' | 'legacy'; createdAt: number; updatedAt: number;
}

export interface Arena {
  id: string; name: string; createdBy: string | null; category: string; skill: string;
  venues: string[] | null; chains: string[] | null; kind: string; createdAt: number; updatedAt: number;
}

/** Minimum token metrics a to-token must meet (null = not enforced). */
export interface TradingConstraints {
  minimumPairAgeHours: number; minimum24hVolumeUsd: number; minimumLiquidityUsd: number;
  minimumFdvUsd: number; minTradesPerDay: number | null;
}

/** One entry of a competition's starting balance list. */
export interface InitialBalance { specificChain: SpecificChain; tokenSymbol: string; amount: number }

export interface Reward { rank: number; reward: number }

export interface Competition {
  id: string; name: string; description: string | null; type: CompetitionType; status: CompetitionStatus;
  crossChainTradingType: CrossChainTradingType; sandboxMode: boolean;
  externalUrl: string | null; imageUrl: string | null;
  startDate: number | null; endDate: number | null; joinStartDate: number | null; joinEndDate: number | null;
  boostStartDate: number | null; boostEndDate: number | null;
  maxParticipants: number | null; registeredParticipants: number; minimumStake: number | null;
  arenaId: string; tradingConstraints: TradingConstraints; rewards: Reward[];
  paperTradingConfig: { maxTradePercentage: number }; initialBalances: InitialBalance[];
  vips: string[] | null; allowlist: string[] | null; blocklist: string[] | null;
  minRecallRank: number | null; allowlistOnly: boolean;
  /** Voting window; voting is enabled only when both are set. */
  votingStartDate: number | null; votingEndDate: number | null;
  /** When the snapshot job last ran for this competition (drives the scheduler). */
  lastSnapshotAt: number | null;
  /** Slippage formula (absent = 'current'); 'legacy' for competitions created through a legacy-style body. */
  slippageModel?: SlippageModel;
  /** Perps: each agent's starting account equity in USD (absent = 10000; domain/perps/engine.ts). */
  perpsInitialEquityUsd?: number;
  /**
   * Perps: upstream's provider configuration and evaluation metric (absent before one was given).
   * `initialCapital` is stored as upstream stores it: it funds nothing (the accounts start at
   * `perpsInitialEquityUsd`); upstream only compares it with equity in a self-funding monitor.
   */
  perpsConfig?: PerpsConfig;
  /** Spot-live: the configuration given on create or update, kept as given (compsim injects swaps). */
  spotLiveConfig?: Record<string, unknown>;
  /** Virtual time of the next pending scripted action (perps opens/closes, spot-live swaps; null/absent = none; drives the scheduler). */
  nextScriptActionAt?: number | null;
  /** Inference badges: when the badge refresh last ran (null/absent = no submissions yet; drives the scheduler). */
  badgeRefreshedAt?: number | null;
  createdAt: number; updatedAt: number;
}

/** Upstream's `perps_competition_config` row (PerpsProviderSchema defaults). */
export interface PerpsConfig {
  provider: 'symphony' | 'hyperliquid'; initialCapital: number; selfFundingThreshold: number;
  minFundingThreshold: number | null; apiUrl: string | null;
  evaluationMetric: 'calmar_ratio' | 'sortino_ratio' | 'simple_return';
}

export interface CompetitionAgent {
  /** `${competitionId}:${agentId}` */
  id: string; competitionId: string; agentId: string; status: CompetitionAgentStatus;
  deactivationReason: string | null; deactivatedAt: number | null; createdAt: number; updatedAt: number;
}

/**
 * Largest token amount a world accepts from its options, fixtures and cheat codes: times a price
 * of at most `MAX_PRICE` (ports/prices.ts) a value stays far from a double's range, so portfolio
 * values, snapshots and dumps stay finite.
 */
export const MAX_AMOUNT = 1e18;

export interface Balance {
  id: number; agentId: string; competitionId: string; tokenAddress: string; amount: number;
  symbol: string; specificChain: SpecificChain; createdAt: number; updatedAt: number;
}

export interface PortfolioSnapshot {
  id: number; competitionId: string; agentId: string; timestamp: number; totalValue: number;
  /** Competitions marked legacy: the team era's per-token values (priced tokens only, by address). */
  valuesByToken?: Record<string, { amount: number; valueUsd: number }>;
}

/** One row of a competition's frozen final leaderboard. */
export interface LeaderboardEntry {
  id: string; competitionId: string; agentId: string; rank: number; score: number; pnl: number;
  startingValue: number; totalAgents: number; createdAt: number;
}

/** A paper trade as stored (one row per accepted execute; rejected trades are never stored). */
export interface Trade {
  id: string; agentId: string; competitionId: string;
  /** Addresses exactly as the client sent them. */
  fromToken: string; toToken: string;
  fromAmount: number; toAmount: number;
  /** fromAmount x fromToken USD price, before slippage. */
  tradeAmountUsd: number;
  toTokenSymbol: string; fromTokenSymbol: string;
  reason: string; timestamp: number;
  /** Resolved parent chains (given or detected) and the chains where a price was found. */
  fromChain: string; toChain: string; fromSpecificChain: string; toSpecificChain: string;
  /** Slippage fraction applied (0..0.15); not on the wire, kept for reports. */
  slippage: number;
  /** Spot-live swaps (domain/trading/spot-live.ts): absent on paper trades (= 'simulated', no on-chain fields). */
  tradeType?: 'simulated' | 'spot_live';
  txHash?: string | null; blockNumber?: number | null; protocol?: string | null;
}

/**
 * A trade's exchange rate, toToken units per fromToken unit (0 for a burn): what upstream stores as
 * `price`, computed at execution as `toAmount / fromAmount`. Derived here instead of stored, so a
 * stored trade carries one number fewer (a boxed double and its field: 24 bytes of 1M trades' heap).
 */
export function tradePrice(t: Pick<Trade, 'fromAmount' | 'toAmount'>): number {
  return t.toAmount === 0 ? 0 : t.toAmount / t.fromAmount;
}

/** One vote of a user (an agent's owner) for an agent in a competition. */
export interface Vote { id: string; userId: string; agentId: string; competitionId: string; createdAt: number }

/**
 * An agent's OpenSkill rating in one ranking: a competition type (global, `arenaId` null) or an
 * arena. `ordinal` is the leaderboard score, 24 x (mu - 3 sigma) + 1500.
 */
export interface AgentRating {
  /** `type:<type>:<agentId>` or `arena:<arenaId>:<agentId>` */
  id: string; agentId: string; type: CompetitionType; arenaId: string | null;
  mu: number; sigma: number; ordinal: number;
  /** Number of ended competitions that updated this rating, and the latest of them. */
  competitions: number; lastCompetitionId: string; createdAt: number; updatedAt: number;
}

/** Whether an agent has claimed its reward of an ended competition (set through compsim's admin API). */
/** A partner shown with competitions (admin-managed; compsim's fields: name, url, logo, details). */
export interface Partner {
  id: string; name: string; url: string | null; logoUrl: string | null; details: string | null; createdAt: number; updatedAt: number;
}

/** A partner's place in one competition's partner list. */
export interface CompetitionPartner {
  /** `${competitionId}:${partnerId}` */
  id: string; competitionId: string; partnerId: string; position: number; createdAt: number;
}

export interface RewardClaim {
  /** `${competitionId}:${agentId}` */
  id: string; competitionId: string; agentId: string; claimed: boolean; updatedAt: number;
}

// --- Wallet verification, verified-inference badge, perpetual futures (domain/agents/wallet-verification.ts, inference*.ts, perps*.ts) ---

/** A wallet-verification nonce (`id` = the nonce itself; a new one deletes the agent's older ones). */
export interface AgentNonce { id: string; agentId: string; expiresAt: number; createdAt: number; usedAt: number | null }

/** Outcome of an inference signature check (`pending` exists upstream but is never produced). */
export type InferenceStatus = 'verified' | 'invalid' | 'pending';

/** One submitted inference signature (append-only; `signature` as submitted). */
export interface InferenceSubmission {
  id: string; agentId: string; competitionId: string; signature: string; chainId: string;
  requestPrompt: string; responseModel: string; responseOutput: string;
  verificationStatus: InferenceStatus; submittedAt: number; createdAt: number;
}

/** Materialised badge state of an agent in a competition (`${competitionId}:${agentId}`). */
export interface InferenceBadge {
  id: string; agentId: string; competitionId: string; isBadgeActive: boolean; signaturesLast24h: number;
  lastVerifiedAt: number | null; createdAt: number; updatedAt: number;
}

/** Perps position status (upstream's provider values). */
export type PerpsStatus = 'Open' | 'Closed' | 'Liquidated';

/**
 * A simulated perpetual-futures position (isolated margin). Opened at the mark with
 * `entryNotional` USD; `quantity` = entryNotional / entryPrice coins; `collateral` = entryNotional / leverage.
 */
export interface PerpsPosition {
  id: string; competitionId: string; agentId: string;
  /** Provider-style id (16 hex). */
  positionId: string;
  asset: string; isLong: boolean; leverage: number;
  entryNotional: number; entryPrice: number; quantity: number; collateral: number; liquidationPrice: number;
  status: PerpsStatus;
  /** Fill price of the close (the liquidation price for a liquidation); null while open. */
  closePrice: number | null;
  /** Realised PnL of the close (-collateral for a liquidation); 0 while open. */
  realizedPnl: number;
  /** Mark of a position still open when its competition ended (reads use it from then on). */
  frozenMark?: number;
  createdAt: number; closedAt: number | null; updatedAt: number;
}

/**
 * One scripted action of a competition (domain/competitions/script.ts), run by the scheduler at
 * `at`: a perps `open` or `close`, or a spot-live `swap`.
 */
export interface ScriptedAction {
  id: number; competitionId: string; at: number; action: 'open' | 'close' | 'swap';
  /** Label of the position an `open` creates, or a `close` refers to. */
  ref: string | null;
  agentId: string | null;
  /** `open`: asset, side, sizeUsd, leverage; `close`: positionId; `swap`: the swap body without agentId. */
  params: Record<string, unknown>;
  status: 'pending' | 'done' | 'failed';
  /** Position opened or closed, or trade recorded; the error message of a failed action. */
  resultId: string | null; error: string | null; ranAt: number | null;
}
