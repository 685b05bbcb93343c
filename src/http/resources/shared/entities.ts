// Response components of the current generation's entities: competitions, agents, users, trades, balances, arenas, snapshots, rules, timelines.
import { SPECIFIC_CHAINS } from '../../../ports/prices.js';
import type { JSONSchema } from '../../route.js';
import { any, arrayOf, boolean, component, dateTime, integer, nullable, number, oneOfStrings, shape, string } from './response.js';

const nDate = nullable(dateTime);
const nString = nullable(string);
const nNumber = nullable(number);
const nInteger = nullable(integer);
const nStrings = nullable(arrayOf(string));

/** One of the specific chains compsim prices. */
export const SpecificChain = component('SpecificChain', { type: 'string', enum: [...SPECIFIC_CHAINS] });
export const CompetitionStatus = component('CompetitionStatus', oneOfStrings('pending', 'active', 'ending', 'ended'));
export const CompetitionType = component('CompetitionType', oneOfStrings('trading', 'perpetual_futures', 'spot_live_trading', 'sports_prediction'));
const wallet: JSONSchema = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$', examples: ['0xa11ce00000000000000000000000000000000001'] };
/** An API key: 16 hex, `_`, 16 hex. */
export const apiKey: JSONSchema = { type: 'string', pattern: '^[0-9a-f]{16}_[0-9a-f]{16}$', examples: ['0123456789abcdef_fedcba9876543210'] };
const actorStatus = oneOfStrings('active', 'inactive', 'suspended', 'deleted');

export const TradingConstraints = component('TradingConstraints', shape({
  minimumPairAgeHours: number, minimum24hVolumeUsd: number, minimumLiquidityUsd: number, minimumFdvUsd: number, minTradesPerDay: nInteger,
}));

export const InitialBalance = component('InitialBalance', shape({ specificChain: SpecificChain, tokenSymbol: string, amount: number }));

/** The fields of a competition row (shared by every view that extends it). */
export const competitionFields: Record<string, JSONSchema> = {
  id: string, name: string, description: nString, type: CompetitionType, status: CompetitionStatus,
  crossChainTradingType: oneOfStrings('disallowAll', 'disallowXParent', 'allow'), sandboxMode: boolean, externalUrl: nString,
  imageUrl: nString, startDate: nDate, endDate: nDate, joinStartDate: nDate, joinEndDate: nDate, boostStartDate: nDate, boostEndDate: nDate,
  maxParticipants: nInteger, registeredParticipants: integer, minimumStake: nNumber, arenaId: string, vips: nStrings, allowlist: nStrings,
  blocklist: nStrings, minRecallRank: nInteger, allowlistOnly: boolean, votingStartDate: nDate, votingEndDate: nDate,
  rewards: arrayOf(shape({ rank: integer, reward: number })), tradingConstraints: TradingConstraints,
  paperTradingConfig: shape({ maxTradePercentage: number }), paperTradingInitialBalances: arrayOf(InitialBalance),
  createdAt: dateTime, updatedAt: dateTime,
};

/** Present on perps (`calmar_ratio`, with the starting equity) and spot-live (`simple_return`) competitions only. */
export const competitionOptional: Record<string, JSONSchema> = {
  evaluationMetric: oneOfStrings('calmar_ratio', 'sortino_ratio', 'simple_return'), perpsInitialEquityUsd: number,
};

export const Competition = component('Competition', shape(competitionFields, { optional: competitionOptional }));

/** A vote state: `reason`, `agentId` and `votedAt` only when present. */
export const UserVotingInfo = component('UserVotingInfo', shape({
  canVote: boolean, info: shape({ hasVoted: boolean }, { optional: { agentId: string, votedAt: dateTime } }),
}, { optional: { reason: string } }));

/** An element of `GET /api/competitions`: agent callers also get the vote fields. */
export const ListedCompetition = component('ListedCompetition', shape(competitionFields, {
  optional: { ...competitionOptional, votingEnabled: boolean, totalVotes: integer, userVotingInfo: UserVotingInfo },
}));

export const CompetitionDetail = component('CompetitionDetail', shape({
  ...competitionFields,
  // Which keys are present depends on the API version and the competition type (rules table, `competitionStatsKeys`).
  stats: shape({}, {
    optional: { totalTrades: integer, totalAgents: integer, totalVolume: number, totalVotes: integer, uniqueTokens: integer, totalPositions: integer, averageEquity: number },
  }),
  rewards: arrayOf(shape({ rank: integer, reward: number, agentId: nString })),
  rewardsTge: { type: 'null' }, votingEnabled: boolean,
}, { optional: { ...competitionOptional, userVotingInfo: UserVotingInfo } }));

/** The start answer: the row plus `competitionId` and the final participant list. */
export const StartedCompetition = component('StartedCompetition', shape({ ...competitionFields, competitionId: string, agentIds: arrayOf(string) }, {
  optional: competitionOptional,
}));

export const Arena = component('Arena', shape({
  id: string, name: string, createdBy: nString, category: string, skill: string, venues: nStrings, chains: nStrings, kind: string,
  createdAt: dateTime, updatedAt: dateTime,
}));

export const PortfolioSnapshot = component('PortfolioSnapshot', shape({
  id: integer, agentId: string, competitionId: string, timestamp: dateTime, totalValue: number,
}));

export const Admin = component('Admin', shape({ id: string, username: string, email: string, createdAt: dateTime, apiKey }));

export const User = component('User', shape({
  id: string, walletAddress: wallet, embeddedWalletAddress: nString, privyId: nString, name: nString, email: nString, isSubscribed: boolean,
  imageUrl: nString, metadata: any, status: actorStatus, createdAt: dateTime, updatedAt: dateTime, lastLoginAt: nDate,
}));

/** Admin view of an agent; `apiKey` only right after creation. */
export const AdminAgent = component('AdminAgent', shape({
  id: string, ownerId: string, walletAddress: nString, name: string, handle: string, email: nString, description: nString, imageUrl: nString,
  metadata: any, status: actorStatus, deactivationReason: nString, deactivationDate: nDate, isRewardsIneligible: boolean,
  rewardsIneligibilityReason: nString, isVerified: boolean, createdAt: dateTime, updatedAt: dateTime,
}, { optional: { apiKey } }));

const publicAgentFields: Record<string, JSONSchema> = {
  id: string, ownerId: string, name: string, handle: string, walletAddress: nString, description: nString, imageUrl: nString, metadata: any,
  status: actorStatus, createdAt: dateTime, updatedAt: dateTime, isVerified: boolean,
};

/** A public agent (no key material, no email). */
export const PublicAgent = component('PublicAgent', shape(publicAgentFields));
/** The own profile's agent: the public agent plus `email`. */
export const OwnAgent = component('OwnAgent', shape({ ...publicAgentFields, email: nString }));

export const ProfileOwner = component('ProfileOwner', shape({
  id: string, walletAddress: string, name: nString, email: nString, imageUrl: nString, metadata: any, status: actorStatus,
  createdAt: dateTime, updatedAt: dateTime,
}));

const typeRank = shape({ type: CompetitionType, rank: integer, score: number });

export const PublicAgentDetail = component('PublicAgentDetail', shape({
  ...publicAgentFields,
  stats: shape({ completedCompetitions: integer, totalTrades: integer, totalPositions: integer, totalVotes: integer }, {
    optional: { bestPlacement: shape({ competitionId: string, rank: integer, score: number, totalAgents: integer }), rank: integer, score: number, ranks: arrayOf(typeRank) },
  }),
  trophies: arrayOf(shape({ competitionId: string, name: string, rank: integer, imageUrl: string, createdAt: dateTime })),
  skills: arrayOf(string), hasUnclaimedRewards: boolean,
}));

/** A full trade row (execute `transaction`, agent trade lists, spot-live swaps). */
export const Trade = component('Trade', shape({
  id: string, agentId: string, competitionId: string, fromToken: string, toToken: string, fromAmount: number, toAmount: number, price: number,
  tradeAmountUsd: number, toTokenSymbol: string, fromTokenSymbol: string, success: { type: 'boolean', const: true }, error: { type: 'null' },
  reason: string, timestamp: dateTime, fromChain: string, toChain: string, fromSpecificChain: string, toSpecificChain: string,
  tradeType: oneOfStrings('simulated', 'spot_live'), txHash: nString, blockNumber: nInteger, protocol: nString,
  gasUsed: { type: 'null' }, gasPrice: { type: 'null' }, gasCostUsd: { type: 'null' },
}));

const shortAgent = nullable(shape({ id: string, name: string, imageUrl: nString, description: nString }));

/** An element of `GET /api/competitions/{id}/trades`: public fields plus a short agent. */
export const CompetitionTrade = component('CompetitionTrade', shape({
  id: string, competitionId: string, agentId: string, fromToken: string, toToken: string, fromAmount: number, toAmount: number,
  fromTokenSymbol: string, toTokenSymbol: string, fromSpecificChain: string, toSpecificChain: string, tradeAmountUsd: number,
  timestamp: dateTime, reason: string, txHash: nString, tradeType: oneOfStrings('simulated', 'spot_live'), agent: shortAgent,
}));

/** A balance row; `price` and `value` only when a price was found. */
export const Balance = component('Balance', shape({
  id: integer, agentId: string, competitionId: string, tokenAddress: string, amount: number, createdAt: dateTime, updatedAt: dateTime,
  specificChain: SpecificChain, symbol: string, chain: oneOfStrings('evm', 'svm'),
}, { optional: { price: number, value: number } }));

const nullableMetric = nNumber;

export const Participant = component('Participant', shape({
  id: string, name: string, handle: string, description: nString, imageUrl: nString, score: number, active: boolean, deactivationReason: nString,
  rank: integer, position: integer, portfolioValue: number, pnl: number, pnlPercent: number, change24h: number, change24hPercent: number,
  voteCount: integer, calmarRatio: nullableMetric, sortinoRatio: nullableMetric, simpleReturn: nullableMetric, maxDrawdown: nullableMetric,
  downsideDeviation: nullableMetric, hasRiskMetrics: boolean,
}));

export const CompetitionRules = component('CompetitionRules', shape({
  tradingRules: arrayOf(string), rateLimits: arrayOf(string),
  availableChains: shape({ svm: { type: 'boolean', const: true }, evm: arrayOf(SpecificChain) }),
  slippageFormula: string, tradingConstraints: TradingConstraints, portfolioSnapshots: shape({ interval: string }),
}));

/** Risk fields of a perps timeline point (null before the agent's second snapshot). */
const timelineRisk = {
  calmarRatio: nNumber, sortinoRatio: nNumber, maxDrawdown: nNumber, downsideDeviation: nNumber, simpleReturn: nNumber, annualizedReturn: nNumber,
};

/** One agent's series; each point carries both the spec's `date` and upstream's `timestamp`; perps points add the risk fields. */
export const TimelineSeries = component('TimelineSeries', shape({
  agentId: string, agentName: string,
  timeline: arrayOf(shape({ date: dateTime, timestamp: dateTime, totalValue: number }, {
    optional: timelineRisk, description: 'Perps competitions add the six risk fields, computed over the snapshots up to the point.',
  })),
}));

export const Reward = component('Reward', shape({ competitionId: string, agentId: string, rank: integer, reward: number, claimed: boolean }));

/** An element of `GET /api/agents/{agentId}/competitions`. */
export const AgentCompetition = component('AgentCompetition', shape({
  ...competitionFields, portfolioValue: number, pnl: number, pnlPercent: number, competitionType: CompetitionType,
  calmarRatio: nNumber, simpleReturn: nNumber, maxDrawdown: nNumber, hasRiskMetrics: boolean,
}, {
  optional: {
    ...competitionOptional, bestPlacement: shape({ rank: integer, totalAgents: integer }),
    // Both counters in every version but 2025-10, which sends only the one of the competition's type.
    totalTrades: { ...integer, description: 'Trades in the competition (0 in perps). API version 2025-10: absent on a perps row.' },
    totalPositions: { ...integer, description: 'Perps positions, open and closed (0 in other types). API version 2025-10: present on a perps row only.' },
  },
}));

/** A perps position (plus `side`). */
export const positionFields: Record<string, JSONSchema> = {
  id: string, competitionId: string, agentId: string, positionId: string, marketId: string, marketSymbol: string, asset: string,
  isLong: boolean, side: oneOfStrings('long', 'short'), leverage: number, size: number, collateral: number, averagePrice: number,
  markPrice: number, liquidationPrice: number, unrealizedPnl: number, pnlPercentage: number, realizedPnl: number,
  status: oneOfStrings('Open', 'Closed', 'Liquidated'), openedAt: dateTime, closedAt: nDate, timestamp: dateTime,
};
export const PerpsPosition = component('PerpsPosition', shape(positionFields));
export const PerpsPositionWithAgent = component('PerpsPositionWithAgent', shape({ ...positionFields, agent: shortAgent }));

const decimal: JSONSchema = { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$', description: 'A decimal number as text', examples: ['10000'] };
export const PerpsAccount = component('PerpsAccount', shape({
  id: string, agentId: string, competitionId: string, accountId: string, totalEquity: decimal, availableBalance: decimal, marginUsed: decimal,
  totalPnl: decimal, totalVolume: decimal, openPositions: integer, timestamp: dateTime,
}));

/** A scripted competition action with ISO times. */
export const ScriptAction = component('ScriptAction', shape({
  id: integer, competitionId: string, at: dateTime, action: oneOfStrings('open', 'close', 'swap'), ref: nString, agentId: nString,
  params: { type: 'object' }, status: oneOfStrings('pending', 'done', 'failed'), resultId: nString, error: nString, ranAt: nDate,
}));
