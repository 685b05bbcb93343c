// Competition creation and update: defaults, arena rules, trading constraints, rewards, initial balances.
import { pairKey } from '../data/keys.js';
import type { ReadTx, WriteTx } from '../../ports/store.js';
import { defaultArenaId, isCompatible, requireArena } from './arenas.js';
import { resolveInitialBalances } from '../trading/balances.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { versionRule } from '../versions.js';
import type {
  Competition, CompetitionType, Principal, CrossChainTradingType, InitialBalance, PerpsConfig, Reward, TradingConstraints,
} from '../model.js';
import type { Tables } from '../tables.js';

/** Competition fields as an admin gives them (dates already in epoch ms). */
export interface CompetitionInput {
  name?: string; description?: string; tradingType?: CrossChainTradingType; sandboxMode?: boolean;
  externalUrl?: string; imageUrl?: string; type?: CompetitionType;
  startDate?: number | null; endDate?: number | null; joinStartDate?: number | null; joinEndDate?: number | null;
  boostStartDate?: number | null; boostEndDate?: number | null;
  maxParticipants?: number | null; minimumStake?: number | null;
  tradingConstraints?: Partial<TradingConstraints>; rewards?: Record<string, number>;
  paperTradingConfig?: { maxTradePercentage?: number }; paperTradingInitialBalances?: InitialBalance[];
  arenaId?: string; votingStartDate?: number | null; votingEndDate?: number | null; vips?: string[]; allowlist?: string[]; blocklist?: string[]; minRecallRank?: number; allowlistOnly?: boolean;
  /** Perps: each account's starting equity (default 10000; domain/perps/engine.ts). */
  perpsInitialEquityUsd?: number;
  /** Upstream's perps provider configuration (stored; it funds nothing) and evaluation metric. */
  perpsProvider?: Partial<Omit<PerpsConfig, 'evaluationMetric' | 'minFundingThreshold' | 'apiUrl'>> & { minFundingThreshold?: number; apiUrl?: string };
  evaluationMetric?: PerpsConfig['evaluationMetric'];
  spotLiveConfig?: Record<string, unknown>;
  /** Accepted and validated (0.1..0.9); compsim has no boosts, so it changes nothing. */
  boostTimeDecayRate?: number;
  /** Sports prediction games; compsim has none, so any id is unknown. */
  gameIds?: string[];
}

/**
 * `boostTimeDecayRate` where the API version has it: a number from 0.1 to 0.9 (upstream's zod
 * texts); elsewhere it is dropped unread.
 */
export function checkBoostTimeDecayRate(deps: Deps, v: unknown): void {
  if (v === undefined || !versionRule(deps, 'boostTimeDecayRate')) return;
  let reason: string | null = null;
  if (typeof v !== 'number' || !Number.isFinite(v)) reason = `expected number, received ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}`;
  else if (v < 0.1) reason = 'too small: expected number to be >=0.1';
  else if (v > 0.9) reason = 'too big: expected number to be <=0.9';
  if (reason !== null) throw new DomainError('INVALID_FIELD', { where: 'boostTimeDecayRate', reason });
}

/** Upstream's PerpsProviderSchema defaults applied to a given provider configuration. */
function perpsConfigOf(p: CompetitionInput['perpsProvider'], metric: PerpsConfig['evaluationMetric'] | undefined): PerpsConfig {
  return {
    provider: p?.provider ?? 'symphony', initialCapital: p?.initialCapital ?? 500, selfFundingThreshold: p?.selfFundingThreshold ?? 0,
    minFundingThreshold: p?.minFundingThreshold ?? null, apiUrl: p?.apiUrl ?? null, evaluationMetric: metric ?? 'calmar_ratio',
  };
}

/** Upstream stores rewards as `[{rank, reward}]`, sorted by rank. */
export function toRewards(r: Record<string, number>): Reward[] {
  return Object.entries(r).map(([rank, reward]) => ({ rank: Number(rank), reward })).sort((a, b) => a.rank - b.rank);
}

function constraints(base: TradingConstraints, c?: Partial<TradingConstraints>): TradingConstraints {
  if (!c) return base;
  const defined = Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));
  return { ...base, ...defined };
}

function checkJoinDates(c: { joinStartDate: number | null; joinEndDate: number | null }): void {
  if (c.joinStartDate !== null && c.joinEndDate !== null && c.joinStartDate > c.joinEndDate) throw new DomainError('JOIN_DATES_ORDER');
}

/** Creates a pending competition inside `tx`. */
export function createCompetitionTx(deps: Deps, tx: WriteTx<Tables>, input: CompetitionInput): Competition {
  if (input.name === undefined) throw new DomainError('NAME_REQUIRED');
  checkBoostTimeDecayRate(deps, input.boostTimeDecayRate);
  const type = input.type ?? 'trading';
  const arenaId = input.arenaId ?? defaultArenaId(type);
  const arena = requireArena(tx, arenaId);
  if (!isCompatible(arena.skill, type)) throw new DomainError('ARENA_TYPE_MISMATCH', { type, skill: arena.skill });
  const now = deps.clock.now();
  const comp: Competition = {
    id: deps.ids.uuid(), name: input.name, description: input.description ?? null, type, status: 'pending',
    crossChainTradingType: input.tradingType ?? 'disallowAll', sandboxMode: input.sandboxMode ?? false,
    externalUrl: input.externalUrl ?? null, imageUrl: input.imageUrl ?? null,
    startDate: input.startDate ?? null, endDate: input.endDate ?? null,
    joinStartDate: input.joinStartDate ?? null, joinEndDate: input.joinEndDate ?? null,
    boostStartDate: input.boostStartDate ?? null, boostEndDate: input.boostEndDate ?? null,
    maxParticipants: input.maxParticipants ?? null, registeredParticipants: 0, minimumStake: input.minimumStake ?? null,
    arenaId, tradingConstraints: constraints(deps.config.defaultTradingConstraints, input.tradingConstraints),
    rewards: toRewards(input.rewards ?? {}),
    paperTradingConfig: { maxTradePercentage: input.paperTradingConfig?.maxTradePercentage ?? deps.config.maxTradePercentage },
    initialBalances: resolveInitialBalances(deps, input.paperTradingInitialBalances ?? deps.config.defaultInitialBalances).list,
    vips: input.vips ?? null, allowlist: input.allowlist ?? null, blocklist: input.blocklist ?? null,
    minRecallRank: input.minRecallRank ?? null, allowlistOnly: input.allowlistOnly ?? false,
    votingStartDate: input.votingStartDate ?? null, votingEndDate: input.votingEndDate ?? null,
    lastSnapshotAt: null, createdAt: now, updatedAt: now,
    ...(input.perpsInitialEquityUsd !== undefined ? { perpsInitialEquityUsd: input.perpsInitialEquityUsd } : {}),
    ...(type === 'perpetual_futures' ? { perpsConfig: perpsConfigOf(input.perpsProvider, input.evaluationMetric) } : {}),
    ...(type === 'spot_live_trading' && input.spotLiveConfig ? { spotLiveConfig: input.spotLiveConfig } : {}),
  };
  checkJoinDates(comp);
  return tx.insert('competitions', comp);
}

/** `POST /api/admin/competition/create`. */
export function createCompetition(deps: Deps, input: CompetitionInput): Promise<Competition> {
  return deps.store.transact((tx) => createCompetitionTx(deps, tx, input));
}

/** Competitions with status `active`, in storage order. */
export function activeCompetitions(tx: ReadTx<Tables>): Competition[] {
  return tx.find('competitions', 'status', 'active');
}

/**
 * The competition a request means when it names none (DESIGN.md §6 rule 2, the older eras'
 * implicit competition): the one active competition the agent is registered in; for an admin, or
 * an agent in none, the one active competition. None -> 403 `No active competition`; several ->
 * 400 asking for `competitionId` (`usage` completes upstream's "Use ..." hint).
 */
export function implicitCompetitionId(tx: ReadTx<Tables>, principal: Principal, usage: string): string {
  const active = activeCompetitions(tx);
  let candidates = active;
  if (principal.kind === 'agent') {
    const mine = [];
    for (const c of active) {
      const reg = tx.get('competitionAgents', pairKey(c.id, principal.agentId));
      if (reg?.status === 'active') mine.push(c);
    }
    if (mine.length > 0) candidates = mine;
  }
  if (candidates.length === 0) throw new DomainError('NO_ACTIVE_COMPETITION');
  if (candidates.length > 1) throw new DomainError('COMPETITION_ID_REQUIRED', { usage });
  return candidates[0]!.id;
}

/** A competition inside a transaction, or the 404. */
export function requireCompetition(tx: ReadTx<Tables>, id: string): Competition {
  const comp = tx.get('competitions', id);
  if (!comp) throw new DomainError('COMPETITION_NOT_FOUND');
  return comp;
}

const PLAIN_FIELDS = [
  'name', 'description', 'sandboxMode', 'externalUrl', 'imageUrl', 'type', 'startDate', 'endDate', 'joinStartDate',
  'joinEndDate', 'boostStartDate', 'boostEndDate', 'maxParticipants', 'minimumStake', 'arenaId', 'vips', 'allowlist',
  'blocklist', 'minRecallRank', 'allowlistOnly', 'votingStartDate', 'votingEndDate', 'perpsInitialEquityUsd',
] as const;

/** Stored starting balances with the given entries upserted on (specificChain, tokenSymbol); the others are kept. */
function upsertBalances(stored: InitialBalance[], given: InitialBalance[]): InitialBalance[] {
  const out = [...stored];
  for (const b of given) {
    const i = out.findIndex((x) => x.specificChain === b.specificChain && x.tokenSymbol === b.tokenSymbol);
    if (i >= 0) out[i] = b;
    else out.push(b);
  }
  return out;
}

/**
 * Upstream's type and configuration rules of an update (reference fidelity-2 §4.1, steps 4-8):
 * the implicit type of a perps or spot-live configuration (or games), type changes only while
 * pending and only with the new type's configuration, spot-live and perps configuration frozen
 * once started, no arena change once ended. Returns the update with its implicit type.
 */
function checkTypeRules(deps: Deps, comp: Competition, given: CompetitionInput): CompetitionInput {
  const input = { ...given };
  if (input.type === undefined) {
    if (input.perpsProvider !== undefined) input.type = 'perpetual_futures';
    else if (input.spotLiveConfig !== undefined) input.type = 'spot_live_trading';
    else if (input.gameIds !== undefined && input.gameIds.length > 0) input.type = 'sports_prediction';
  }
  const changes = input.type !== undefined && input.type !== comp.type;
  if (changes) {
    if (comp.status !== 'pending') throw new DomainError('TYPE_CHANGE_STARTED', { status: comp.status });
    if (input.type === 'perpetual_futures' && input.perpsProvider === undefined) throw new DomainError('PERPS_PROVIDER_REQUIRED');
    if (input.type === 'spot_live_trading' && input.spotLiveConfig === undefined) throw new DomainError('SPOT_LIVE_CONFIG_REQUIRED');
  }
  if (input.spotLiveConfig !== undefined) {
    if (comp.status !== 'pending') throw new DomainError('SPOT_LIVE_CONFIG_STARTED', { status: comp.status });
    if (changes) {
      const cfg = input.spotLiveConfig;
      if (!Array.isArray(cfg.chains) || cfg.chains.length === 0) throw new DomainError('SPOT_LIVE_CHAINS_REQUIRED');
      if (!cfg.dataSource) throw new DomainError('SPOT_LIVE_SOURCE_REQUIRED');
      if (!cfg.dataSourceConfig) throw new DomainError('SPOT_LIVE_SOURCE_CONFIG_REQUIRED');
    }
  }
  const configGiven = input.perpsProvider !== undefined || input.evaluationMetric !== undefined;
  if (configGiven && comp.type === 'perpetual_futures' && comp.status !== 'pending' && versionRule(deps, 'updateStartedPerpsConfig')) {
    throw new DomainError('PERPS_CONFIG_STARTED', { status: comp.status });
  }
  if (input.arenaId !== undefined && comp.status === 'ended' && versionRule(deps, 'updateArenaRules')) throw new DomainError('ARENA_CHANGE_ENDED');
  return input;
}

/**
 * `PUT /api/admin/competition/{id}` with upstream's rules (reference fidelity-2 §4.1): empty
 * update -> 400; missing competition -> 404 (upstream: 500); the type and configuration rules of
 * {@link checkTypeRules}; the arena (given, else the current one) must suit the resulting type;
 * paper-trading configuration and starting balances only while pending, the balances upserted
 * into the stored list. Nothing is written when a rule fails.
 */
export async function updateCompetition(deps: Deps, id: string, given: CompetitionInput): Promise<Competition> {
  if (Object.values(given).every((v) => v === undefined)) throw new DomainError('NO_UPDATE_FIELDS');
  checkBoostTimeDecayRate(deps, given.boostTimeDecayRate);
  return deps.store.transact((tx) => {
    const comp = requireCompetition(tx, id);
    const input = checkTypeRules(deps, comp, given);
    const next: Competition = { ...comp, updatedAt: deps.clock.now() };
    const writable = next as unknown as Record<string, unknown>;
    for (const f of PLAIN_FIELDS) if (input[f] !== undefined) writable[f] = input[f];
    if ((input.arenaId !== undefined || input.type !== undefined) && versionRule(deps, 'updateArenaRules')) {
      const arena = requireArena(tx, next.arenaId);
      if (!isCompatible(arena.skill, next.type)) throw new DomainError('ARENA_TYPE_MISMATCH', { type: next.type, skill: arena.skill });
    }
    if (next.type === 'perpetual_futures') {
      if (comp.type !== 'perpetual_futures' || !comp.perpsConfig) next.perpsConfig = perpsConfigOf(input.perpsProvider, input.evaluationMetric);
      else {
        const p = input.perpsProvider;
        next.perpsConfig = {
          ...comp.perpsConfig,
          ...(p ? { ...perpsConfigOf(p, comp.perpsConfig.evaluationMetric) } : {}),
          ...(input.evaluationMetric !== undefined ? { evaluationMetric: input.evaluationMetric } : {}),
        };
      }
    } else delete next.perpsConfig;
    if (next.type === 'spot_live_trading') {
      if (input.spotLiveConfig !== undefined) next.spotLiveConfig = comp.type === 'spot_live_trading' ? { ...comp.spotLiveConfig, ...input.spotLiveConfig } : input.spotLiveConfig;
    } else delete next.spotLiveConfig;
    if (input.gameIds !== undefined && input.gameIds.length > 0) throw new DomainError('GAMES_NOT_FOUND', { ids: input.gameIds.join(', ') });
    if (input.tradingType !== undefined) next.crossChainTradingType = input.tradingType;
    if (input.tradingConstraints) next.tradingConstraints = constraints(comp.tradingConstraints, input.tradingConstraints);
    if (input.rewards) next.rewards = toRewards(input.rewards);
    if (input.paperTradingConfig !== undefined) {
      if (comp.status !== 'pending') throw new DomainError('PAPER_CONFIG_STARTED');
      if (input.paperTradingConfig.maxTradePercentage !== undefined) next.paperTradingConfig = { maxTradePercentage: input.paperTradingConfig.maxTradePercentage };
    }
    if (input.paperTradingInitialBalances && input.paperTradingInitialBalances.length > 0) {
      if (comp.status !== 'pending') throw new DomainError('INITIAL_BALANCES_STARTED');
      resolveInitialBalances(deps, input.paperTradingInitialBalances);
      next.initialBalances = resolveInitialBalances(deps, upsertBalances(comp.initialBalances, input.paperTradingInitialBalances)).list;
    }
    checkJoinDates(next);
    return tx.put('competitions', next);
  });
}
