// Admin competition lifecycle across generations: slippage model at creation, teamIds at start (teams reactivated), team deactivation at end.
import type { WriteTx } from '../../ports/store.js';
import { createCompetitionTx, requireCompetition, type CompetitionInput } from '../competitions/create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { endCompetitionTx, startCompetitionTx, type EndResult, type StartResult } from '../competitions/lifecycle.js';
import { loadOpenSkill, type RatingLibrary } from '../rankings/rating.js';
import type { Competition, SlippageModel, TradingConstraints } from '../model.js';
import type { Tables } from '../tables.js';
import { legacyStatusOf, teamEraWorld } from './competition.js';
import { setTeamActiveTx } from './teams.js';

/** Creates a pending competition inside `tx` with its slippage formula fixed (undefined: not chosen, the current one). */
function createWithModelTx(deps: Deps, tx: WriteTx<Tables>, input: CompetitionInput, model: SlippageModel | undefined): Competition {
  const comp = createCompetitionTx(deps, tx, input);
  return model ? tx.put('competitions', { ...comp, slippageModel: model }) : comp;
}

/**
 * `POST /api/admin/competition/create` with the slippage model chosen from the body; `bare`: the
 * body has the team era's bare form (`{name, description}`), which is a legacy competition when the
 * world is a team-era one ({@link teamEraWorld}). Returns the competition and whether it is legacy.
 */
export function createCompetitionWithModel(deps: Deps, input: CompetitionInput, model: SlippageModel | undefined, bare = false): Promise<Competition> {
  return deps.store.transact((tx) => {
    const chosen = model ?? (bare && teamEraWorld(tx) ? 'legacy' : undefined);
    return createWithModelTx(deps, tx, input, chosen);
  });
}

/** Input of {@link startAnyGeneration}: the current body's fields plus the legacy `teamIds`. */
export interface AnyStartInput {
  competitionId?: string; create?: CompetitionInput; agentIds: string[]; teamIds?: string[];
  tradingConstraints?: Partial<TradingConstraints>;
  /** Formula of a competition created by this call (undefined: not chosen); an existing one started with `teamIds` keeps or takes the legacy one. */
  slippageModel?: SlippageModel | undefined;
}

/**
 * `POST /api/admin/competition/start` for both generations: `teamIds` join `agentIds`; an explicit
 * empty `teamIds` (and no agentIds) is upstream's 400. Deactivated teams among the ids are
 * reactivated first (the team era's start did so); everything runs in one transaction.
 */
export async function startAnyGeneration(deps: Deps, input: AnyStartInput): Promise<StartResult> {
  if (input.teamIds !== undefined && input.teamIds.length === 0 && input.agentIds.length === 0) throw new DomainError('LEGACY_TEAM_IDS_REQUIRED');
  return deps.store.transact((tx) => {
    let id = input.competitionId;
    if (id === undefined) {
      id = (createWithModelTx(deps, tx, input.create ?? {}, input.slippageModel)).id;
    } else {
      const comp = requireCompetition(tx, id);
      if (comp.slippageModel === 'legacy' && comp.status !== 'pending') throw new DomainError('START_NOT_PENDING', { status: legacyStatusOf(comp.status) });
      // Started the team era's way (`teamIds`), a competition whose formula was never chosen becomes legacy.
      if (input.teamIds !== undefined && comp.slippageModel === undefined && comp.status === 'pending') tx.put('competitions', { ...comp, slippageModel: 'legacy' });
    }
    const ids = [...new Set([...input.agentIds, ...(input.teamIds ?? [])])];
    for (const agentId of ids) {
      const agent = tx.get('agents', agentId);
      if (agent && agent.generation === 'legacy' && agent.status === 'inactive') setTeamActiveTx(deps, tx, agent, true, null);
    }
    return startCompetitionTx(deps, tx, id, ids, input.tradingConstraints);
  });
}

/**
 * Ends a competition inside `tx` and, when it was not ended already, deactivates every team
 * (legacy-generation agent) registered in it with reason `Competition <name> (<id>) ended`
 * (reference legacy §2.5). Current agents keep their status.
 */
export function endCompetitionWithTeamsTx(deps: Deps, tx: WriteTx<Tables>, competitionId: string, lib: RatingLibrary): EndResult {
  const before = requireCompetition(tx, competitionId);
  const result = endCompetitionTx(deps, tx, competitionId, lib);
  if (before.status === 'ended') return result;
  const reason = `Competition ${before.name} (${before.id}) ended`;
  for (const reg of tx.find('competitionAgents', 'competition', before.id)) {
    const agent = tx.get('agents', reg.agentId);
    if (agent && agent.generation === 'legacy' && agent.status === 'active') setTeamActiveTx(deps, tx, agent, false, reason);
  }
  return result;
}

/** `POST /api/admin/competition/end` for both generations. */
export async function endCompetitionWithTeams(deps: Deps, competitionId: string): Promise<EndResult> {
  const lib = await loadOpenSkill();
  return deps.store.transact((tx) => endCompetitionWithTeamsTx(deps, tx, competitionId, lib));
}
