// Generation switch of the shared paths: a team key gets the legacy trade engine and shapes; legacy-style admin bodies get legacy competitions.
import { checkBoostTimeDecayRate, type CompetitionInput } from '../../../domain/competitions/create.js';
import { createCompetitionWithModel, endCompetitionWithTeams, startAnyGeneration } from '../../../domain/legacy/admin-lifecycle.js';
import { executeLegacyTrade, quoteLegacyTrade } from '../../../domain/legacy/trading.js';
import type { CrossChainTradingType, Principal, SlippageModel } from '../../../domain/model.js';
import { executeTrade, quoteTrade, type QuoteInput } from '../../../domain/trading/trade.js';
import { HttpError } from '../../envelope.js';
import { contractSchema, type HandlerRequest, type HandlerResult, type JSONSchema, type RouteDef } from '../../route.js';
import { executeBody, quoteQuery } from '../trading/request.js';
import { createCompetitionBody, endCompetitionBody, startCompetitionBody } from '../competitions/request.js';
import type { Infer } from '../../typed-route.js';
import { apiCompetition, apiStartedCompetition } from '../competitions/serialize.js';
import { apiLegacyCompetition, apiLegacyTrade } from './serialize.js';
import { apiTrade } from '../trading/serialize.js';
import { compileValidators, type PartValidator } from '../../validate.js';

/** A team: an agent of the legacy generation. Its key selects the legacy shapes on shared paths. */
export function isTeam(p: Principal): p is Extract<Principal, { kind: 'agent' }> {
  return p.kind === 'agent' && p.generation === 'legacy';
}

/** `POST /api/trade/execute`: the legacy engine and transaction for team keys, the current ones otherwise. */
export async function executeAnyGeneration({ world, principal, body }: HandlerRequest<Infer<typeof executeBody>>): Promise<HandlerResult> {
  if (isTeam(principal)) return { body: { success: true, transaction: apiLegacyTrade(await executeLegacyTrade(world.deps, principal.agentId, body)) } };
  return { body: { success: true, transaction: apiTrade(await executeTrade(world.deps, principal, body)) } };
}

// The route's own schema is loose (team keys get upstream's messages); agent keys still get the current one's.
// Compiled on the first quote, as route validators are (about 45 ms of every start-up otherwise).
let currentQuote: PartValidator | undefined;

/** The quote contract as agent keys are checked: all of it, but the amount's rule is the domain's (upstream's `Amount must be a positive number`). */
function agentQuoteQuery(): JSONSchema {
  const contract = contractSchema(quoteQuery);
  const properties = contract.properties as Record<string, JSONSchema>;
  return { ...contract, properties: { ...properties, amount: { type: 'string' } } };
}

/** `GET /api/trade/quote`: the legacy quote (no tradeAmountUsd, no symbols) for team keys, the current one otherwise. */
export async function quoteAnyGeneration({ world, principal, query }: HandlerRequest<unknown, Infer<typeof quoteQuery>>): Promise<HandlerResult> {
  if (isTeam(principal)) return { body: await quoteLegacyTrade(world.deps, principal.agentId, query) };
  currentQuote ??= compileValidators({ schemas: { query: agentQuoteQuery() } } as RouteDef).query!;
  const msg = currentQuote(query);
  if (msg) throw new HttpError(400, msg);
  // The whole contract was just checked: the tokens and the amount are there, the chains are chain names.
  return { body: await quoteTrade(world.deps, principal, query as QuoteInput) };
}

/** True when an admin competition body uses the team era's fields (`teamIds`, `allowCrossChainTrading`). */
export function isLegacyBody(body: Record<string, unknown>): boolean {
  return body.teamIds !== undefined || body.allowCrossChainTrading !== undefined;
}

/** Slippage formula of a competition created from `body`: explicit `slippageModel`, else legacy for legacy-style bodies, else not chosen. */
export function slippageModelOf(body: Record<string, unknown>): SlippageModel | undefined {
  if (body.slippageModel === 'legacy' || body.slippageModel === 'current') return body.slippageModel;
  return isLegacyBody(body) ? 'legacy' : undefined;
}

/** The keys a team-era create body could carry (TS: `name`, `description`). */
const BARE_KEYS = new Set(['name', 'description']);

/** `allowCrossChainTrading` as `tradingType` (literal true -> allow, anything else -> disallowAll) unless tradingType is given. */
export function legacyTradingType(body: Record<string, unknown>): { tradingType?: CrossChainTradingType } {
  if (body.tradingType !== undefined || body.allowCrossChainTrading === undefined) return {};
  return { tradingType: body.allowCrossChainTrading === true ? 'allow' : 'disallowAll' };
}

/** Create: the model from the body; a legacy-style body is answered with the legacy competition object. */
export async function createAnyGeneration({ world, body }: HandlerRequest<Infer<typeof createCompetitionBody>>, input: CompetitionInput): Promise<HandlerResult> {
  const bare = Object.keys(body).every((k) => BARE_KEYS.has(k));
  const c = await createCompetitionWithModel(world.deps, input, slippageModelOf(body), bare);
  const legacy = isLegacyBody(body) || (bare && c.slippageModel === 'legacy');
  return { status: 201, body: { success: true, competition: legacy ? apiLegacyCompetition(c) : apiCompetition(c) } };
}

/** Start: `teamIds` beside `agentIds`; a legacy-style body is answered with the legacy object plus `teamIds`. */
export async function startAnyGenerationHandler({ world, body }: HandlerRequest<Infer<typeof startCompetitionBody>>, create: CompetitionInput): Promise<HandlerResult> {
  checkBoostTimeDecayRate(world.deps, create.boostTimeDecayRate);
  const r = await startAnyGeneration(world.deps, {
    ...(body.competitionId !== undefined ? { competitionId: body.competitionId } : { create }),
    agentIds: body.agentIds ?? [], ...(body.teamIds !== undefined ? { teamIds: body.teamIds } : {}),
    ...(body.tradingConstraints ? { tradingConstraints: body.tradingConstraints } : {}), slippageModel: slippageModelOf(body),
  });
  const competition = isLegacyBody(body) ? { ...apiLegacyCompetition(r.competition), teamIds: r.agentIds } : apiStartedCompetition(r.competition, r.agentIds);
  return { body: { success: true, competition } };
}

/** End: teams are deactivated; a competition marked legacy is answered in the team era's shape (`leaderboard: [{teamId, value}]`). */
export async function endAnyGeneration({ world, body }: HandlerRequest<Infer<typeof endCompetitionBody>>): Promise<HandlerResult> {
  const r = await endCompetitionWithTeams(world.deps, body.competitionId);
  if (r.competition.slippageModel !== 'legacy') return { body: { success: true, competition: apiCompetition(r.competition), leaderboard: r.leaderboard } };
  return {
    body: { success: true, competition: apiLegacyCompetition(r.competition), leaderboard: r.leaderboard.map((e) => ({ teamId: e.agentId, value: e.value })) },
  };
}
