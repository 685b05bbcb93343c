// Competition rules: upstream's rule texts filled with the competition's and the world's real settings.
import { SPECIFIC_CHAINS, type SpecificChain } from '../../ports/prices.js';
import { requireCompetition } from './create.js';
import type { Deps, SlippageMode } from '../deps.js';
import { usd } from '../trading/constraints.js';
import { DomainError } from '../errors.js';
import type { Competition, InitialBalance, Principal, TradingConstraints } from '../model.js';
import { activeCompetitionsFor, isActiveParticipant } from '../rankings/leaderboard.js';

/** The rules object of both rules endpoints. */
export interface CompetitionRules {
  tradingRules: string[];
  rateLimits: string[];
  availableChains: { svm: true; evm: SpecificChain[] };
  slippageFormula: string;
  tradingConstraints: TradingConstraints;
  /** The spec era's field (upstream dropped it 2025-08-21); states compsim's real snapshot interval. */
  portfolioSnapshots: { interval: string };
}

/** Upstream's description order of starting balances; any other chain follows in catalogue order. */
const CHAIN_ORDER: readonly SpecificChain[] = ['eth', 'polygon', 'base', 'arbitrum', 'optimism', 'svm'];

function chainName(chain: SpecificChain): string {
  if (chain === 'eth') return 'Ethereum';
  if (chain === 'svm') return 'Solana';
  return chain.charAt(0).toUpperCase() + chain.slice(1);
}

/** `Ethereum: 1 ETH, 5000 USDC; Solana: 10 SOL` from a competition's own starting balance list. */
export function describeInitialBalances(list: readonly InitialBalance[]): string {
  const order = [...CHAIN_ORDER, ...SPECIFIC_CHAINS.filter((c) => !CHAIN_ORDER.includes(c))];
  const parts: string[] = [];
  for (const chain of order) {
    const items = list.filter((b) => b.specificChain === chain && b.amount > 0).map((b) => `${b.amount} ${b.tokenSymbol.toUpperCase()}`);
    if (items.length > 0) parts.push(`${chainName(chain)}: ${items.join(', ')}`);
  }
  return parts.join('; ');
}

const BASE_SLIPPAGE = 'baseSlippage = clamp(0.035 * log10(1 + tradeAmountUSD / 5000), 0.0005, 0.15)';

/** The slippage compsim really applies in this mode (upstream's own text is stale; see reference §4.6). */
export function slippageFormula(mode: SlippageMode): string {
  if (mode === 'none') return 'no slippage (actualSlippage = 0)';
  const multiplier = mode === 'expected' ? '(0.95 + 0.25 * 2/3)' : '(0.95 + 0.25 * max(U1, U2))';
  return `${BASE_SLIPPAGE}, actualSlippage = clamp(baseSlippage * ${multiplier}, 0.0005, 0.15)`;
}

/** The rules' rate-limit lines; the last one names the caller ('agent', or 'team' in the legacy era). */
export function rateLimitRules(per: 'agent' | 'team'): string[] {
  return [
    '100 requests per 60 seconds per endpoint',
    '100 requests per minute for trade operations',
    '300 requests per minute for price queries',
    '30 requests per minute for balance/portfolio checks',
    '3,000 requests per minute across all endpoints',
    `10,000 requests per hour per ${per}`,
  ];
}

/** The rules of one competition, in upstream's order, from its own settings. */
export function buildRules(deps: Deps, comp: Competition): CompetitionRules {
  const c = comp.tradingConstraints;
  const tradingRules = [
    'Trading is only allowed for tokens with valid price data',
    `All agents start with identical token balances: ${describeInitialBalances(comp.initialBalances)}`,
    'Minimum trade amount: 0.000001 tokens',
    `Maximum single trade: ${comp.paperTradingConfig.maxTradePercentage}% of agent's total portfolio value`,
    'No shorting allowed (trades limited to available balance)',
    'Slippage is applied to all trades based on trade size',
    `Cross-chain trading type: ${comp.crossChainTradingType}`,
    'Transaction fees are not simulated',
    `Token eligibility requires minimum ${c.minimumPairAgeHours} hours of trading history`,
    `Token must have minimum 24h volume of $${usd(c.minimum24hVolumeUsd)} USD`,
    `Token must have minimum liquidity of $${usd(c.minimumLiquidityUsd)} USD`,
    `Token must have minimum FDV of $${usd(c.minimumFdvUsd)} USD`,
  ];
  if (c.minTradesPerDay !== null) tradingRules.push(`Minimum trades per day requirement: ${c.minTradesPerDay} trades`);
  return {
    tradingRules, rateLimits: rateLimitRules('agent'), availableChains: { svm: true, evm: [...deps.config.evmChains] },
    slippageFormula: slippageFormula(deps.config.slippage), tradingConstraints: { ...c },
    portfolioSnapshots: { interval: `${deps.config.snapshotIntervalMs / 60000} minutes` },
  };
}

/** A competition with its rules. */
export interface RulesView { competition: Competition; rules: CompetitionRules }

/** `GET /api/competitions/{competitionId}/rules` (public). */
export async function competitionRules(deps: Deps, competitionId: string): Promise<RulesView> {
  const competition = await deps.store.read((tx) => requireCompetition(tx, competitionId));
  return { competition, rules: buildRules(deps, competition) };
}

/**
 * `GET /api/competitions/rules` (the era before 2025-10-06): the active competition's rules, for
 * admins and for agents actively registered in it. No active competition -> 404 (checked first).
 */
export async function activeCompetitionRules(deps: Deps, principal: Principal): Promise<RulesView> {
  const competition = await deps.store.read((tx) => {
    const comp = (activeCompetitionsFor(tx, principal))[0];
    if (!comp) throw new DomainError('RULES_NO_ACTIVE');
    if (principal.kind === 'anonymous') throw new DomainError('RULES_AUTH_REQUIRED');
    if (principal.kind === 'agent' && !(isActiveParticipant(tx, comp.id, principal.agentId))) throw new DomainError('RULES_NOT_PARTICIPANT');
    return comp;
  });
  return { competition, rules: buildRules(deps, competition) };
}
