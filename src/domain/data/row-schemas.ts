// JSON Schemas of the stored rows of every table (model.ts, tables.ts), for checking world documents before they are loaded.
import { SPECIFIC_CHAINS } from '../../ports/prices.js';
import type {
  Admin, Agent, AgentNonce, AgentRating, Arena, Balance, Competition, CompetitionAgent, InferenceBadge, InferenceSubmission,
  LeaderboardEntry, PerpsPosition, PortfolioSnapshot, RewardClaim, ScriptedAction, Trade, User, Vote, Partner, CompetitionPartner,
} from '../model.js';
import type { Tables } from '../tables.js';

/** A JSON Schema (plain data: compiled by whoever checks documents). */
export type RowSchema = Record<string, unknown>;

/** Earliest and latest instant a `Date` can hold (epoch ms): every stored time is turned into ISO text somewhere. */
export const MIN_TIME = -8.64e15;
export const MAX_TIME = 8.64e15;

const str = { type: 'string' };
const strN = { type: ['string', 'null'] };
const num = { type: 'number' };
const numN = { type: ['number', 'null'] };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const any = {};
const time = { type: 'number', minimum: MIN_TIME, maximum: MAX_TIME };
const timeN = { type: ['number', 'null'], minimum: MIN_TIME, maximum: MAX_TIME };
const strListN = { type: ['array', 'null'], items: str };
// No `type` next to `enum`: a wrong value of any type is then named with the values allowed.
const oneOf = (values: readonly string[]) => ({ enum: [...values] });
const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required });

/** Keys of `T` that may be absent. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/**
 * The schema of a row type: a schema for every field (the compiler insists on each, so a field
 * added to the model must be described here), every field required but the optional ones. Extra
 * fields are tolerated, as the store and the serialisers tolerate them.
 */
function row<T>(properties: { [K in keyof T]-?: unknown }, optional: OptionalKeys<T>[] = []): RowSchema {
  const keys = Object.keys(properties);
  return { type: 'object', properties, required: keys.filter((k) => !(optional as string[]).includes(k)) };
}

const actorStatus = oneOf(['active', 'inactive', 'suspended', 'deleted']);
const competitionType = oneOf(['trading', 'perpetual_futures', 'spot_live_trading', 'sports_prediction']);
const specificChain = oneOf(SPECIFIC_CHAINS);

/**
 * Params a pending scripted action still runs with (competition-script.ts): the fields the run
 * uses as text must be text (a perps asset is upper-cased, swap tokens are parsed as addresses),
 * a swap's on-chain fields are copied into the trade row it records, and an open or a swap has its
 * agent. Anything else of a wrong type makes the action fail when it runs, which is no reason to
 * refuse a document.
 */
const OPEN_PARAMS = object({ asset: str });
const SWAP_PARAMS = object({ fromToken: str, toToken: str, txHash: str, blockNumber: num, protocol: str }, ['fromToken', 'toToken']);
const pendingParams = (action: string, params: RowSchema) => ({
  if: { properties: { action: { const: action }, status: { const: 'pending' } }, required: ['action', 'status'] },
  // The run looks its agent up by id (a null id is no key of the store).
  then: { properties: { params, agentId: str } },
});

/** Table name -> schema of one of its rows. */
export const ROW_SCHEMAS: { [K in keyof Tables]: RowSchema } = {
  admins: row<Admin>({
    id: str, username: str, email: str, passwordHash: str, apiKeyHash: str, apiKeyEnc: str, status: actorStatus, createdAt: time, updatedAt: time,
  }),
  users: row<User>({
    id: str, walletAddress: str, embeddedWalletAddress: strN, privyId: strN, name: strN, email: strN, isSubscribed: bool, imageUrl: strN,
    metadata: any, status: actorStatus, createdAt: time, updatedAt: time, lastLoginAt: timeN,
  }),
  agents: row<Agent>({
    id: str, ownerId: str, walletAddress: strN, name: str, handle: str, email: strN, description: strN, imageUrl: strN, metadata: any,
    apiKeyHash: str, apiKeyEnc: str, status: actorStatus, deactivationReason: strN, deactivationDate: timeN,
    isRewardsIneligible: bool, rewardsIneligibilityReason: strN, generation: oneOf(['current', 'legacy']), createdAt: time, updatedAt: time,
  }),
  arenas: row<Arena>({
    id: str, name: str, createdBy: strN, category: str, skill: str, venues: strListN, chains: strListN, kind: str, createdAt: time, updatedAt: time,
  }),
  competitions: row<Competition>({
    id: str, name: str, description: strN, type: competitionType, status: oneOf(['pending', 'active', 'ending', 'ended']),
    crossChainTradingType: oneOf(['disallowAll', 'disallowXParent', 'allow']), sandboxMode: bool, externalUrl: strN, imageUrl: strN,
    startDate: timeN, endDate: timeN, joinStartDate: timeN, joinEndDate: timeN, boostStartDate: timeN, boostEndDate: timeN,
    maxParticipants: numN, registeredParticipants: num, minimumStake: numN, arenaId: str,
    tradingConstraints: object({ minimumPairAgeHours: num, minimum24hVolumeUsd: num, minimumLiquidityUsd: num, minimumFdvUsd: num, minTradesPerDay: numN }),
    rewards: { type: 'array', items: object({ rank: num, reward: num }) },
    paperTradingConfig: object({ maxTradePercentage: num }),
    initialBalances: { type: 'array', items: object({ specificChain, tokenSymbol: str, amount: num }) },
    vips: strListN, allowlist: strListN, blocklist: strListN, minRecallRank: numN, allowlistOnly: bool,
    votingStartDate: timeN, votingEndDate: timeN, lastSnapshotAt: timeN,
    slippageModel: oneOf(['legacy', 'current']), perpsInitialEquityUsd: num, nextScriptActionAt: timeN, badgeRefreshedAt: timeN,
    perpsConfig: object({
      provider: oneOf(['symphony', 'hyperliquid']), initialCapital: num, selfFundingThreshold: num, minFundingThreshold: numN, apiUrl: strN,
      evaluationMetric: oneOf(['calmar_ratio', 'sortino_ratio', 'simple_return']),
    }),
    spotLiveConfig: { type: 'object' },
    createdAt: time, updatedAt: time,
  }, ['slippageModel', 'perpsInitialEquityUsd', 'nextScriptActionAt', 'badgeRefreshedAt', 'perpsConfig', 'spotLiveConfig']),
  competitionAgents: row<CompetitionAgent>({
    id: str, competitionId: str, agentId: str, status: oneOf(['active', 'withdrawn', 'disqualified']),
    deactivationReason: strN, deactivatedAt: timeN, createdAt: time, updatedAt: time,
  }),
  balances: row<Balance>({
    id: int, agentId: str, competitionId: str, tokenAddress: str, amount: num, symbol: str, specificChain, createdAt: time, updatedAt: time,
  }),
  snapshots: row<PortfolioSnapshot>({
    id: int, competitionId: str, agentId: str, timestamp: time, totalValue: num,
    valuesByToken: { type: 'object', additionalProperties: object({ amount: num, valueUsd: num }) },
  }, ['valuesByToken']),
  leaderboards: row<LeaderboardEntry>({
    id: str, competitionId: str, agentId: str, rank: int, score: num, pnl: num, startingValue: num, totalAgents: num, createdAt: time,
  }),
  trades: row<Trade>({
    id: str, agentId: str, competitionId: str, fromToken: str, toToken: str, fromAmount: num, toAmount: num, tradeAmountUsd: num,
    toTokenSymbol: str, fromTokenSymbol: str, reason: str, timestamp: time, fromChain: str, toChain: str, fromSpecificChain: str,
    toSpecificChain: str, slippage: num, tradeType: oneOf(['simulated', 'spot_live']), txHash: strN, blockNumber: numN, protocol: strN,
  }, ['tradeType', 'txHash', 'blockNumber', 'protocol']),
  votes: row<Vote>({ id: str, userId: str, agentId: str, competitionId: str, createdAt: time }),
  ratings: row<AgentRating>({
    id: str, agentId: str, type: competitionType, arenaId: strN, mu: num, sigma: num, ordinal: num,
    competitions: num, lastCompetitionId: str, createdAt: time, updatedAt: time,
  }),
  rewardClaims: row<RewardClaim>({ id: str, competitionId: str, agentId: str, claimed: bool, updatedAt: time }),
  agentNonces: row<AgentNonce>({ id: str, agentId: str, expiresAt: time, createdAt: time, usedAt: timeN }),
  inferenceSubmissions: row<InferenceSubmission>({
    id: str, agentId: str, competitionId: str, signature: str, chainId: str, requestPrompt: str, responseModel: str, responseOutput: str,
    verificationStatus: oneOf(['verified', 'invalid', 'pending']), submittedAt: time, createdAt: time,
  }),
  inferenceBadges: row<InferenceBadge>({
    id: str, agentId: str, competitionId: str, isBadgeActive: bool, signaturesLast24h: num, lastVerifiedAt: timeN, createdAt: time, updatedAt: time,
  }),
  perpsPositions: row<PerpsPosition>({
    id: str, competitionId: str, agentId: str, positionId: str, asset: str, isLong: bool, leverage: num,
    entryNotional: num, entryPrice: num, quantity: num, collateral: num, liquidationPrice: num,
    status: oneOf(['Open', 'Closed', 'Liquidated']), closePrice: numN, realizedPnl: num, frozenMark: num,
    createdAt: time, closedAt: timeN, updatedAt: time,
  }, ['frozenMark']),
  scriptActions: {
    ...row<ScriptedAction>({
      id: int, competitionId: str, at: time, action: oneOf(['open', 'close', 'swap']), ref: strN, agentId: strN,
      params: { type: 'object' }, status: oneOf(['pending', 'done', 'failed']), resultId: strN, error: strN, ranAt: timeN,
    }),
    allOf: [pendingParams('open', OPEN_PARAMS), pendingParams('swap', SWAP_PARAMS)],
  },
  partners: row<Partner>({ id: str, name: str, url: strN, logoUrl: strN, details: strN, createdAt: time, updatedAt: time }),
  competitionPartners: row<CompetitionPartner>({ id: str, competitionId: str, partnerId: str, position: num, createdAt: time }),
};

/**
 * How a table keys its rows when the key is made of other fields: the domain reads those rows by
 * the composed key, so a row under any other id would never be found.
 */
export const COMPOSED_IDS: { [K in keyof Tables]?: { form: string; id: (r: Tables[K]) => string } } = {
  competitionAgents: { form: '<competitionId>:<agentId>', id: (r) => `${r.competitionId}:${r.agentId}` },
  leaderboards: { form: '<competitionId>:<agentId>', id: (r) => `${r.competitionId}:${r.agentId}` },
  rewardClaims: { form: '<competitionId>:<agentId>', id: (r) => `${r.competitionId}:${r.agentId}` },
  competitionPartners: { form: '<competitionId>:<partnerId>', id: (r) => `${r.competitionId}:${r.partnerId}` },
  inferenceBadges: { form: '<competitionId>:<agentId>', id: (r) => `${r.competitionId}:${r.agentId}` },
  ratings: {
    form: 'type:<type>:<agentId> or arena:<arenaId>:<agentId>',
    id: (r) => (r.arenaId === null ? `type:${r.type}:${r.agentId}` : `arena:${r.arenaId}:${r.agentId}`),
  },
};

/** Tables whose ids come from the store sequence of the same name (`tx.nextSeq(table)`). */
export const SEQUENCED_TABLES = ['balances', 'snapshots', 'scriptActions'] as const satisfies readonly (keyof Tables)[];
