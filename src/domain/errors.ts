// DomainError and the error catalogue: code -> HTTP status and message template (upstream wording).

type P = Record<string, string | number>;

/** Catalogue of every rule violation the domain can raise. */
export const ERRORS = {
  // auth
  AGENT_KEY_MISSING: [401, () => '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY'],
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
  // lists
  BAD_SORT: [400, (p: P) => `cannot sort by field: '${p.field}'`],
  // prices
  TOKEN_REQUIRED: [400, () => 'Token address is required'],
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
