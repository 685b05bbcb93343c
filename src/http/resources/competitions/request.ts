// Request schemas of competitions: public reads, join/leave and votes, admin create/start/end/update/snapshots, reward claims.
import { PARTICIPANT_SORT_FIELDS } from '../../../domain/competitions/participant-list.js';
import { COMPETITION_SORT_FIELDS } from '../../../domain/competitions/views.js';
import { handlerChecked, type RouteDef } from '../../route.js';
import { AT_LEAST_ONE, bool, isoTime, limit, nonEmpty, obj, offset, sortParam, specificChain, str, strList, uuid, uuidParams } from '../shared/request.js';
import { MAX_AMOUNT } from '../../../domain/model.js';

/** `{competitionId}` of `POST /api/admin/competitions/{competitionId}/rewards/claim` (compsim only). */
export const rewardClaimParams = uuidParams('competitionId');
/** Body of the reward claim: the agent, and the flag to set (default true). */
export const rewardClaimBody = obj({ agentId: uuid, claimed: { type: 'boolean', default: true } }, ['agentId']);


/** `{competitionId}` path of the competition reads. */
export const competitionParams = uuidParams('competitionId');
/** `{competitionId}/agents/{agentId}` path of the agent trade list. */
export const competitionAgentParams = uuidParams('competitionId', 'agentId');

/** `GET /api/competitions`: the spec's defaults (status `active`, sort `createdDate`). */
export const listCompetitionsQuery = obj({
  status: { type: 'string', enum: ['pending', 'active', 'ending', 'ended'], default: 'active' },
  sort: sortParam(COMPETITION_SORT_FIELDS, 'createdDate'),
  limit: limit(10), offset,
});

/** `GET /api/competitions/{competitionId}/agents`: one sort field (the domain names a bad one, as upstream). */
export const participantsQuery = obj({
  filter: str,
  sort: handlerChecked({
    type: 'string', default: 'rank', enum: PARTICIPANT_SORT_FIELDS.flatMap((f) => [f, `-${f}`]), description: 'One field, `-` for descending',
  }, { type: 'string', default: 'rank' }),
  limit: limit(50), offset,
  includeInactive: { type: 'boolean', default: false },
});

/** An empty `competitionId` means "none given", as upstream's `req.query.competitionId || active`. */
export const leaderboardQuery = obj({ competitionId: { type: 'string', anyOf: [{ format: 'uuid' }, { maxLength: 0 }] } });
/** `GET /api/competitions/{competitionId}/timeline`: bucket width in minutes. */
export const timelineQuery = obj({ bucket: { type: 'integer', minimum: 1, maximum: 1440, default: 30 } });
/** Both trade lists: the spec's default limit 50 (upstream's code uses 10). */
export const tradesQuery = obj({ limit: limit(50), offset });

/** A malformed id anywhere is upstream's bare `Invalid UUID`; anything else names the parameter. */
export const invalidRequest: NonNullable<RouteDef['invalid']> = (where, reason) =>
  (reason === 'invalid UUID' ? 'Invalid UUID' : `Invalid request: ${where} (${reason})`);

/** The participants list keeps upstream's `Invalid request format` and adds the parameter. */
export const invalidFormat: NonNullable<RouteDef['invalid']> = (where, reason) =>
  (reason === 'invalid UUID' ? 'Invalid UUID' : `Invalid request format: ${where} (${reason})`);

const nonNeg = { type: 'number', minimum: 0 } as const;

const tradingConstraints = obj({
  minimumPairAgeHours: nonNeg, minimum24hVolumeUsd: nonNeg, minimumLiquidityUsd: nonNeg, minimumFdvUsd: nonNeg,
  minTradesPerDay: { type: ['integer', 'null'], minimum: 0 },
});

const initialBalances = {
  type: 'array', minItems: 1, 'x-reasons': { minItems: 'at least one initial balance is required' },
  items: obj({
    specificChain,
    tokenSymbol: { type: 'string', minLength: 1, maxLength: 20, description: "A symbol of the world's token catalogue on that chain (e.g. usdc, sol, eth)" },
    // Bounded so every portfolio value stays finite (and the world's dump loads back).
    amount: { type: 'number', exclusiveMinimum: 0, maximum: MAX_AMOUNT },
  },
    ['specificChain', 'tokenSymbol', 'amount']),
} as const;

/** Fields shared by create, start-with-create and update. */
const competitionFields = {
  name: nonEmpty, description: str,
  tradingType: { type: 'string', enum: ['disallowAll', 'disallowXParent', 'allow'] },
  sandboxMode: bool, externalUrl: str, imageUrl: str,
  type: { type: 'string', enum: ['trading', 'perpetual_futures', 'spot_live_trading', 'sports_prediction'] },
  startDate: isoTime, endDate: isoTime, joinStartDate: { ...isoTime, description: 'An instant (RFC 3339); not after joinEndDate' }, joinEndDate: isoTime, boostStartDate: isoTime, boostEndDate: isoTime,
  votingStartDate: isoTime, votingEndDate: isoTime,
  maxParticipants: { type: 'integer', minimum: 1 }, minimumStake: nonNeg, tradingConstraints,
  rewards: { type: 'object', propertyNames: { pattern: '^[1-9][0-9]*$' }, additionalProperties: { type: 'number', minimum: 0 } },
  paperTradingConfig: obj({ maxTradePercentage: { type: 'integer', minimum: 1, maximum: 100 } }),
  paperTradingInitialBalances: initialBalances, arenaId: nonEmpty,
  vips: strList, allowlist: strList, blocklist: strList, minRecallRank: { type: 'integer' }, allowlistOnly: bool,
  // Legacy (team era) field: only literal true enables cross-chain trading, any other value disables it.
  allowCrossChainTrading: { description: 'Team era: literal true allows cross-chain trading; any other JSON value disallows it' }, slippageModel: { type: 'string', enum: ['legacy', 'current'] },
  // Perps: each account's starting equity in USD (default 10000).
  perpsInitialEquityUsd: { type: 'number', exclusiveMinimum: 0 },
  // Checked by the domain where the API version has the field (0.1..0.9), else dropped unread.
  boostTimeDecayRate: handlerChecked({ type: 'number', minimum: 0.1, maximum: 0.9, description: 'No effect in compsim, which has no boosts' }),
  // Upstream's perps provider configuration (PerpsProviderSchema); stored, it funds nothing.
  perpsProvider: obj({
    provider: { type: 'string', enum: ['symphony', 'hyperliquid'] },
    initialCapital: { type: 'number', exclusiveMinimum: 0, 'x-reasons': { exclusiveMinimum: 'too small: expected number to be >0' } },
    selfFundingThreshold: { type: 'number', minimum: 0, 'x-reasons': { minimum: 'too small: expected number to be >=0' } },
    minFundingThreshold: { type: 'number', minimum: 0, 'x-reasons': { minimum: 'too small: expected number to be >=0' } },
    apiUrl: { type: 'string', format: 'uri' },
  }),
  evaluationMetric: { type: 'string', enum: ['calmar_ratio', 'sortino_ratio', 'simple_return'] },
  spotLiveConfig: { type: 'object' },
  gameIds: { type: 'array', items: uuid },
} as const;

export const createCompetitionBody = obj(competitionFields, ['name']);
const startFields = obj({
  ...competitionFields, competitionId: uuid, agentIds: { type: 'array', items: uuid }, teamIds: { type: 'array', items: uuid },
});
/** Start: an existing competition (`competitionId`) or a new one (`name` and the other create fields); the domain names what is missing. */
export const startCompetitionBody = handlerChecked({
  ...startFields,
  description: 'Give competitionId (start a pending competition) or name and the create fields (create one and start it).',
  [AT_LEAST_ONE]: ['competitionId', 'name'],
  // The team era's start: an empty teamIds needs agentIds.
  if: { properties: { teamIds: { maxItems: 0 } }, required: ['teamIds'] },
  then: { properties: { agentIds: { minItems: 1 } }, required: ['agentIds'] },
}, startFields);
export const endCompetitionBody = obj({ competitionId: uuid }, ['competitionId']);
/** Fields an update reads: the create fields but the two fixed at creation (`slippageModel`, the team era's `allowCrossChainTrading`). */
const { slippageModel: _slippage, allowCrossChainTrading: _crossChain, ...updateFields } = competitionFields;
/** Update: at least one field it reads (the domain's `No valid fields provided for update`). */
export const updateCompetitionBody = handlerChecked({
  ...obj(updateFields), description: 'At least one of the listed fields (anything else is ignored).', [AT_LEAST_ONE]: Object.keys(updateFields),
}, obj(updateFields));
/** `teamId`: the team era's filter, for competitions marked legacy. */
export const snapshotsQuery = obj({ agentId: uuid, teamId: str });

/** Admin vote body: exactly one of userId / agentId (checked in the domain), and the agent voted for. */
const voteFields = obj({ userId: uuid, agentId: uuid, votedAgentId: uuid }, ['votedAgentId']);
export const castVoteBody = handlerChecked({
  oneOf: [
    { ...obj({ userId: uuid, votedAgentId: uuid }, ['userId', 'votedAgentId']), not: { required: ['agentId'] }, title: 'UserVote' },
    { ...obj({ agentId: uuid, votedAgentId: uuid }, ['agentId', 'votedAgentId']), not: { required: ['userId'] }, title: 'AgentOwnerVote' },
  ],
}, voteFields);
