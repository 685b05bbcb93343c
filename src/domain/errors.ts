// DomainError and the error catalogue: code -> HTTP status and message template (upstream wording).

type P = Record<string, string | number>;

/** Catalogue of every rule violation the domain can raise. */
export const ERRORS = {
  // auth
  AGENT_KEY_MISSING: [401, () => '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY'],
  /** The October-2025 wording (its middleware tried a Privy token first). */
  AGENT_KEY_MISSING_PRIVY: [401, () => '[AuthMiddleware] Authentication required. Invalid Privy token or no API key provided. Use Authorization: Bearer YOUR_API_KEY'],
  AGENT_KEY_INVALID: [401, () => "Invalid API key. This key may have been reset or is no longer associated with an active account. Please ensure you're using your most recent API key."],
  ADMIN_KEY_MISSING: [401, () => 'Admin authentication required. Use Authorization: Bearer YOUR_ADMIN_API_KEY'],
  ADMIN_KEY_INVALID: [401, () => 'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.'],
  ADMIN_INACTIVE: [403, () => 'Admin access denied - account inactive'],
  ADMIN_EXISTS: [403, () => 'Admin setup is not allowed - an admin account already exists'],
  // users and agents
  USER_WALLET_EXISTS: [409, () => 'A user with this walletAddress already exists'],
  USER_EMAIL_EXISTS: [409, () => 'A user with this email already exists'],
  USER_ID_NOT_FOUND: [404, (p: P) => `User '${p.id}' does not exist`],
  USER_WALLET_NOT_FOUND: [404, (p: P) => `User with wallet address '${p.wallet}' does not exist`],
  OWNER_REQUIRED: [400, () => 'Invalid request: user (provide exactly one of id or walletAddress)'],
  BAD_WALLET: [400, () => 'Invalid Ethereum address format. Must be 0x followed by 40 hex characters.'],
  HANDLE_EXISTS: [409, (p: P) => `An agent with handle '${p.handle}' already exists`],
  AGENT_NAME_EXISTS: [409, (p: P) => `You already have an agent with name '${p.name}'`],
  AGENT_WALLET_EXISTS: [409, (p: P) => `An agent with wallet address '${p.wallet}' already exists`],
  AGENT_NOT_FOUND: [404, () => 'Agent not found'],
  AGENT_OWNER_NOT_FOUND: [404, () => 'Agent owner not found'],
  // arenas
  ARENA_NOT_FOUND: [404, (p: P) => `Arena with ID ${p.id} not found`],
  ARENA_EXISTS: [409, (p: P) => `Arena with ID ${p.id} already exists`],
  ARENA_BAD_ID: [400, () => "Arena ID must be lowercase kebab-case (e.g., 'aerodrome-base-weekly')"],
  ARENA_HAS_COMPETITIONS: [409, (p: P) => `Cannot delete arena ${p.id}: arena has associated competitions`],
  ARENA_TYPE_MISMATCH: [400, (p: P) => `Competition type "${p.type}" incompatible with arena skill "${p.skill}"`],
  ARENA_SKILL_CHANGE: [400, (p: P) => `Cannot change arena skill to "${p.skill}": ${p.count} existing competition(s) would become incompatible (${p.names})`],
  // competitions
  COMPETITION_NOT_FOUND: [404, () => 'Competition not found'],
  NO_UPDATE_FIELDS: [400, () => 'No valid fields provided for update'],
  JOIN_DATES_ORDER: [400, () => 'Invalid request: joinStartDate (joinStartDate must be before or equal to joinEndDate)'],
  UNKNOWN_INITIAL_TOKEN: [400, (p: P) => `Invalid request: paperTradingInitialBalances (unknown token symbol '${p.symbol}' on chain '${p.chain}')`],
  DUPLICATE_INITIAL_BALANCE: [400, (p: P) => `Invalid request: paperTradingInitialBalances (Duplicate entries detected: ${p.pairs})`],
  START_NOT_PENDING: [400, (p: P) => `Competition is already in ${p.status} state and cannot be started`],
  START_INVALID_AGENTS: [400, (p: P) => `Cannot start competition: the following agent IDs are invalid or inactive: ${p.ids}`],
  START_NO_AGENTS: [400, () => 'Cannot start competition: no registered agents'],
  END_NOT_ACTIVE: [400, (p: P) => `Competition is not active or ending: ${p.status}`],
  NAME_REQUIRED: [400, () => 'Invalid request: name (required)'],
  NO_ACTIVE_COMPETITION: [403, () => 'No active competition'],
  COMPETITION_ID_REQUIRED: [400, (p: P) => `Missing required parameter: competitionId. Use ${p.usage}`],
  // participation
  ALREADY_PARTICIPATING: [400, () => 'Agent is already participating in this competition'],
  ADD_TO_ENDED: [400, () => 'Cannot add agent to ended competition'],
  ADD_TO_ACTIVE: [400, () => 'Cannot add agents to active non-sandbox competitions - this would be unfair to existing participants'],
  WALLET_REQUIRED_PERPS: [400, () => 'Agent must have a wallet address to participate in perpetual futures competitions'],
  WALLET_REQUIRED: [400, () => 'Agent must have a wallet address to participate in this competition'],
  PARTICIPANT_LIMIT: [409, (p: P) => `Competition has reached maximum participant limit (${p.max})`],
  ONE_AGENT_PER_USER: [409, () => 'This user already has another agent registered in this competition. Each user can only register one agent per competition.'],
  NOT_PARTICIPATING: [400, () => 'Agent is not participating in this competition'],
  NOT_IN_COMPETITION: [400, () => 'Agent is not in this competition'],
  REACTIVATE_IN_ENDED: [400, () => 'Cannot reactivate agent in ended competition'],
  // agent join / leave (domain/competitions/join-leave.ts; upstream's check order and wording, ISO instants as params)
  /** An admin key on a route that acts as an agent (join, leave, trade, own balances). */
  AUTH_REQUIRED: [401, () => 'Authentication required'],
  AGENT_KEY_MISMATCH: [403, () => 'Agent API key does not match agent ID in URL'],
  JOIN_AGENT_NOT_FOUND: [404, (p: P) => `Agent not found: ${p.id}`],
  COMPETITION_ID_NOT_FOUND: [404, (p: P) => `Competition not found: ${p.id}`],
  JOIN_NOT_OPEN: [403, (p: P) => `Competition joining opens at ${p.at}`],
  JOIN_CLOSED: [403, (p: P) => `Competition joining closed at ${p.at}`],
  AGENT_NOT_ELIGIBLE: [403, () => 'Agent is not eligible to join competitions'],
  JOIN_NOT_PENDING: [403, () => 'Cannot join competition that has already started/ended'],
  ALREADY_REGISTERED: [403, () => 'Agent is already actively registered for this competition'],
  JOIN_NOT_PERMITTED: [403, () => 'This agent is not permitted to join this competition'],
  JOIN_ONE_AGENT_PER_USER: [409, () => 'You already have an agent registered in this competition. Each user can only register one agent per competition.'],
  LEAVE_NOT_IN_COMPETITION: [403, () => 'Agent is not in this competition'],
  LEAVE_ENDED: [403, () => 'Cannot leave competition that has already ended'],
  // votes (domain/competitions/votes.ts; upstream's vote-service wording, ISO instants as params)
  VOTER_REQUIRED: [400, () => 'Invalid request: body (provide exactly one of userId or agentId)'],
  VOTER_AGENT_NOT_FOUND: [404, (p: P) => `Voting agent '${p.id}' does not exist`],
  VOTE_AGENT_NOT_ACTIVE: [400, () => 'Agent is not actively participating in this competition'],
  VOTING_STATUS: [400, (p: P) => `Competition status does not allow voting: ${p.status}`],
  VOTING_DISABLED: [400, () => 'voting is not enabled for this competition'],
  VOTING_NOT_STARTED: [400, (p: P) => `Voting has not started yet. Voting begins on ${p.at}`],
  VOTING_ENDED: [400, (p: P) => `Voting has ended. Voting ended on ${p.at}`],
  ALREADY_VOTED: [409, () => 'You have already voted in this competition'],
  // competition reads (domain/rankings/leaderboard.ts, competitions/participant-list.ts, competitions/rules.ts; upstream wording)
  LEADERBOARD_NO_COMPETITION: [400, () => 'No active competition and no competitionId provided'],
  LEADERBOARD_AUTH_REQUIRED: [401, () => 'Authentication required to view leaderboard'],
  LEADERBOARD_NOT_PARTICIPANT: [403, () => 'Forbidden: Your agent is not actively participating in this competition.'],
  LEADERBOARD_ADMIN_ONLY: [403, () => 'Forbidden: Access to the leaderboard is restricted to administrators.'],
  RULES_NO_ACTIVE: [404, () => 'No active competition found to get rules for.'],
  RULES_AUTH_REQUIRED: [401, () => 'Authentication required to view competition rules: Agent ID missing.'],
  RULES_NOT_PARTICIPANT: [403, () => 'Forbidden: Your agent is not actively participating in the active competition.'],
  PARTICIPANTS_BAD_SORT: [400, (p: P) => `Invalid request format: sort (cannot sort by field: '${p.field}')`],
  // lists
  BAD_SORT: [400, (p: P) => `cannot sort by field: '${p.field}'`],
  // answer-size caps (domain/limits.ts; compsim only: upstream answers these lists whole)
  LIST_TOO_LARGE: [400, (p: P) => `Too many ${p.what} for one answer: ${p.count} (limit ${p.limit}). ${p.hint}`],
  TIMELINE_TOO_LARGE: [400, (p: P) => `Timeline too large: ${p.points} points ${p.scope} with bucket=${p.bucket} (limit ${p.limit}). Ask for fewer points with a larger bucket (minutes, up to 1440), e.g. bucket=${p.suggest}`],
  // prices
  TOKEN_REQUIRED: [400, () => 'Token address is required'],
  // trading (check order of upstream's execute; see domain/trading/trade.ts)
  TRADE_MISSING_PARAMS: [400, () => 'Missing required parameters: fromToken, toToken, amount'],
  TRADE_FIELD_TYPE: [400, (p: P) => `Invalid request: ${p.field} (must be string)`],
  TRADE_REASON_REQUIRED: [400, () => 'Missing required parameter: reason'],
  TRADE_BAD_AMOUNT: [400, () => 'Amount must be a positive number'],
  INVALID_UUID_SYNTAX: [400, (p: P) => `invalid input syntax for type uuid: "${p.value}"`],
  TRADE_PERPS: [400, () => 'This endpoint is not available for perpetual futures competitions. Perpetual futures positions are managed through external providers, not through this API.'],
  TRADE_PERPS_2025: [400, () => 'This endpoint is not available for perpetual futures competitions. Perpetual futures positions are managed through Symphony, not through this API.'],
  TRADE_SPOT_LIVE: [400, () => 'This endpoint is not available for spot live trading competitions. Spot live trades occur on-chain through DEXs and are detected automatically.'],
  TRADE_COMPETITION_ENDED: [400, (p: P) => `Competition has ended. Trading is no longer allowed for competition: ${p.name}`],
  TRADE_NOT_REGISTERED: [403, (p: P) => `Agent ${p.agentId} is not registered for competition ${p.competitionId}. Trading is not allowed.`],
  TRADE_TOO_SMALL: [400, () => 'Trade amount too small (minimum: 0.000001)'],
  IDENTICAL_TOKENS: [400, () => 'Cannot trade between identical tokens'],
  CROSS_PARENT_DISABLED: [400, () => 'Cross-parent chain trading is disabled. Both tokens must be on the same parent blockchain.'],
  CROSS_CHAIN_DISABLED: [400, () => 'Cross-chain trading is disabled. Both tokens must be on the same blockchain.'],
  PRICE_UNAVAILABLE: [400, () => 'Unable to determine price for tokens'],
  PAIR_AGE_UNKNOWN: [400, (p: P) => `Cannot get token pair creation time, minimum age is: ${p.min} hours`],
  PAIR_TOO_YOUNG: [400, (p: P) => `Token pair is too young (${p.age} hours old, minimum: ${p.min} hours)`],
  VOLUME_UNKNOWN: [400, () => 'Cannot get token 24h volume data'],
  VOLUME_TOO_LOW: [400, (p: P) => `Token has insufficient 24h volume ($${p.value}, minimum: $${p.min})`],
  LIQUIDITY_UNKNOWN: [400, () => 'Cannot get token liquidity'],
  LIQUIDITY_TOO_LOW: [400, (p: P) => `Token has insufficient liquidity ($${p.value}, minimum: $${p.min})`],
  FDV_UNKNOWN: [400, () => 'Cannot get token FDV'],
  FDV_TOO_LOW: [400, (p: P) => `Token has insufficient FDV ($${p.value}, minimum: $${p.min})`],
  INSUFFICIENT_BALANCE: [400, () => 'Insufficient balance'],
  TRADE_TOO_LARGE: [400, (p: P) => `Trade exceeds maximum size (${p.pct}% of portfolio value)`],
  TRADE_VALUE_NOT_FINITE: [400, () => 'Trade value is too large to simulate (not a finite number of USD)'],
  // own balances and trades
  BALANCES_PERPS: [400, () => 'This endpoint is not available for perpetual futures competitions. Use GET /api/agent/perps/account for account summary.'],
  AGENT_TRADES_PERPS: [400, () => 'This endpoint is not available for perpetual futures competitions. Use GET /api/agent/perps/positions for current positions.'],
  // legacy (team) generation (domain/legacy/*; reference legacy.md wording). The auth codes apply on
  // the legacy-only prefixes; TEAM_DEACTIVATED is thrown with details {inactive: true}.
  LEGACY_KEY_MISSING: [401, () => 'Authentication required. Use Authorization: Bearer YOUR_API_KEY'],
  LEGACY_KEY_INVALID: [401, () => 'Invalid API key'],
  LEGACY_ADMIN_REQUIRED: [403, () => 'Admin access required'],
  TEAM_DEACTIVATED: [403, (p: P) => `Your team has been deactivated from the competition: ${p.reason}`],
  TEAM_REGISTER_MISSING: [400, () => 'Missing required parameters: teamName, email, contactPerson, walletAddress'],
  TEAM_FIELD_TYPE: [400, (p: P) => `Invalid request: ${p.field} (must be string)`],
  TEAM_BAD_EMAIL: [400, () => 'Invalid request: email (must match format "email")'],
  TEAM_EMAIL_EXISTS: [409, (p: P) => `A team with email ${p.email} already exists`],
  TEAM_WALLET_EXISTS: [409, () => 'A team with this wallet address already exists'],
  TEAM_NOT_FOUND: [404, () => 'Team not found'],
  TEAM_KEY_ADMIN: [403, () => 'Cannot retrieve API key for admin accounts'],
  TEAM_DELETE_ADMIN: [403, () => 'Cannot delete admin accounts'],
  TEAM_DEACTIVATE_ADMIN: [403, () => 'Cannot deactivate admin accounts'],
  TEAM_REASON_REQUIRED: [400, () => 'Reason for deactivation is required'],
  LEGACY_COMPETITION_ID_REQUIRED: [400, () => 'Missing required parameter: competitionId'],
  LEGACY_TEAM_IDS_REQUIRED: [400, () => 'Missing required parameter: teamIds (array)'],
  LEGACY_LEADERBOARD_ADMIN_ONLY: [403, () => 'Leaderboard access is currently restricted to administrators only'],
  LEGACY_NOT_PARTICIPATING: [403, () => 'Your team is not participating in this competition'],
  LEGACY_RULES_NO_ACTIVE: [400, () => 'No active competition'],
  LEGACY_RULES_NOT_PARTICIPATING: [403, () => 'Your team is not participating in the active competition'],
  // simulation control (/api/sim/*; compsim only)
  SIM_UNAVAILABLE: [404, () => 'Simulation control is not available for this world'],
  SIM_INVALID: [400, (p: P) => `Invalid request: ${p.where} (${p.reason})`],
  SIM_BAD_DUMP: [400, (p: P) => `Invalid world document: ${p.reason}`],
  SIM_SNAPSHOT_NOT_FOUND: [404, (p: P) => `Snapshot not found: ${p.id}`],
  SIM_FAULT_NOT_FOUND: [404, (p: P) => `Fault not found: ${p.id}`],
  // own profile, public agents, rankings and reward claims (domain/agents/profile.ts, agents/public.ts,
  // agents/competitions.ts, competitions/rewards.ts, rankings/global.ts). `prefix` is the endpoint's 400 family.
  PROFILE_INVALID: [400, (p: P) => `Invalid request format: ${p.field} (${p.reason})`],
  LIST_BAD_SORT: [400, (p: P) => `${p.prefix}: sort (cannot sort by field: '${p.field}')`],
  LIST_SORT_TOO_LONG: [400, (p: P) => `${p.prefix}: sort (at most 3 fields)`],
  REWARD_NOT_ENDED: [400, (p: P) => `Rewards can only be claimed in an ended competition: ${p.status}`],
  NO_REWARD: [400, () => 'Agent has no reward in this competition'],
  // wallet verification (domain/agents/wallet-verification.ts; reference features §2.3, upstream's order and wording)
  WALLET_AGENT_AUTH_REQUIRED: [401, () => 'Agent authentication required'],
  WALLET_FIELDS_REQUIRED: [400, () => 'Message and signature are required'],
  WALLET_BAD_HEADER: [400, () => 'Invalid message header'],
  WALLET_MISSING_FIELDS: [400, () => 'Missing required message fields'],
  WALLET_NONCE_REQUIRED: [400, () => 'Nonce is required'],
  WALLET_BAD_DOMAIN: [400, () => 'Invalid domain'],
  WALLET_BAD_PURPOSE: [400, () => 'Invalid purpose'],
  WALLET_TOO_OLD: [400, () => 'Message timestamp too old'],
  WALLET_TOO_NEW: [400, () => 'Message timestamp too far in the future'],
  WALLET_BAD_NONCE: [400, () => 'Invalid nonce'],
  WALLET_NONCE_OTHER_AGENT: [400, () => 'Nonce does not belong to this agent'],
  WALLET_NONCE_USED: [400, () => 'Nonce already used'],
  WALLET_NONCE_EXPIRED: [400, () => 'Nonce expired'],
  WALLET_BAD_SIGNATURE: [400, () => 'Invalid signature'],
  WALLET_OF_USER: [409, () => 'Wallet address already associated with a user account'],
  WALLET_OF_OTHER_AGENT: [409, () => 'Wallet address already associated with another agent'],
  // verified-inference badge (domain/inference*.ts; reference features §1.5-§1.9)
  INFERENCE_NOT_ACTIVE: [400, (p: P) => `Competition is not active (status: ${p.status}). Signature submissions are only allowed during active competitions.`],
  INFERENCE_NOT_REGISTERED: [403, () => 'Agent is not registered in this competition'],
  INFERENCE_DUPLICATE: [409, () => 'This signature has already been submitted for this competition'],
  // perpetual futures (domain/perps*.ts; reference features §3.4-§3.7; the admin control messages are compsim's own)
  PERPS_ONLY_POSITIONS: [400, () => 'This endpoint is only available for perpetual futures competitions. Use GET /api/agent/trades for paper trading positions.'],
  PERPS_ONLY_ACCOUNT: [400, () => 'This endpoint is only available for perpetual futures competitions. Use GET /api/agent/balances for paper trading account.'],
  PERPS_ONLY_COMPETITION: [400, () => 'This endpoint is only available for perpetual futures competitions. Use GET /api/competitions/{id}/agents/{agentId}/trades for paper trading competitions.'],
  PERPS_ONLY_ADMIN: [400, () => 'This endpoint is only available for perpetual futures competitions'],
  /** October 2025: the agent perps routes read the active competition. */
  PERPS_NO_ACTIVE: [404, () => 'No active competition found'],
  PERPS_NOT_REGISTERED_ACTIVE: [403, () => 'Agent is not registered in the active perps competition'],
  PERPS_NOT_REGISTERED: [403, () => 'Agent is not registered in this competition'],
  PERPS_AGENT_NOT_PARTICIPATING: [404, () => 'Agent is not participating in this competition'],
  PERPS_NOT_ACTIVE: [400, (p: P) => `Competition is not active (status: ${p.status})`],
  PERPS_UNKNOWN_ASSET: [400, (p: P) => `Unknown perps asset: ${p.asset}`],
  PERPS_NO_PRICE: [400, (p: P) => `Unable to determine price for asset: ${p.asset}`],
  PERPS_BAD_LEVERAGE: [400, (p: P) => `Leverage must be between 1 and ${p.max}`],
  PERPS_BAD_SIZE: [400, () => 'sizeUsd must be a positive number'],
  PERPS_BAD_SIDE: [400, () => "side must be 'long' or 'short'"],
  PERPS_INSUFFICIENT_BALANCE: [400, (p: P) => `Insufficient available balance: collateral ${p.collateral} exceeds available ${p.available}`],
  PERPS_POSITION_NOT_FOUND: [404, (p: P) => `Position not found: ${p.id}`],
  PERPS_POSITION_NOT_OPEN: [400, (p: P) => `Position is not open (status: ${p.status})`],
  // spot-live swaps (domain/trading/spot-live.ts; compsim's admin control, upstream's trade messages)
  SPOT_LIVE_ONLY: [400, () => 'This endpoint is only available for spot live trading competitions'],
  SPOT_LIVE_NOT_ACTIVE: [400, (p: P) => `Competition is not active (status: ${p.status})`],
  SPOT_LIVE_NOT_REGISTERED: [403, () => 'Agent is not registered in this competition'],
  SPOT_LIVE_DUPLICATE_TX: [409, (p: P) => `Swap already recorded: ${p.txHash}`],
  // scripted competition actions (domain/competitions/script.ts; compsim only)
  SCRIPT_INVALID: [400, (p: P) => `Invalid request: ${p.where} (${p.reason})`],
  SCRIPT_UNSUPPORTED: [400, () => 'Scripted actions are only available for perpetual futures and spot live trading competitions'],
  SCRIPT_ENDED: [400, (p: P) => `Competition is not pending or active (status: ${p.status})`],
} as const satisfies Record<string, readonly [number, (p: P) => string]>;

/** A code of {@link ERRORS}. */
export type ErrorCode = keyof typeof ERRORS;

/** A rule violation: the HTTP edge maps it to `{success:false, error}` with the catalogue status. */
export class DomainError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly params: P = {},
    /** Extra fields merged into the error body (e.g. `agent` on "already inactive"). */
    readonly details?: Record<string, unknown>,
  ) {
    const [status, message] = ERRORS[code] as readonly [number, (p: P) => string];
    super(message(params));
    this.name = 'DomainError';
    this.status = status;
  }
}
