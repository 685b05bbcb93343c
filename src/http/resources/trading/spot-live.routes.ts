// Spot-live control (compsim only): inject an on-chain swap of an agent's wallet, and load or read a competition's script of timed actions.
import { competitionScript, loadScript } from '../../../domain/competitions/script.js';
import type { ScriptedAction } from '../../../domain/model.js';
import { recordSwap } from '../../../domain/trading/spot-live.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { uuidParams } from '../shared/request.js';
import { scriptBody, swapBody } from './request.js';
import { iso } from '../shared/time.js';
import { apiTrade } from './serialize.js';
import { scriptResponses, swapResponses } from './response.js';

const base = { generation: 'current', tag: 'admin', auth: 'admin' } as const;
const params = uuidParams('competitionId');

/** A stored script action with ISO times: its fields by name (a loaded row's extra keys stay out of the answer). */
function apiAction(a: ScriptedAction) {
  return {
    id: a.id, competitionId: a.competitionId, at: iso(a.at), action: a.action, ref: a.ref, agentId: a.agentId, params: a.params,
    status: a.status, resultId: a.resultId, error: a.error, ranAt: iso(a.ranAt),
  };
}

/** Spot-live swaps and competition scripts (admin). */
export const SPOT_LIVE_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'admin.spotLive.swap', method: 'POST', path: '/api/admin/competitions/{competitionId}/spot-live/swaps',
    summary: "Record an on-chain swap of an agent's wallet as a spot-live trade (compsim only)", schemas: { responses: swapResponses, params, body: swapBody },
    handler: async ({ world, params: p, body }) => ({ body: { success: true, trade: apiTrade(await recordSwap(world.deps, p.competitionId!, body)) } }),
  }),
  route({
    ...base, id: 'admin.script.load', method: 'POST', path: '/api/admin/competitions/{competitionId}/script',
    summary: 'Schedule timed perps opens/closes or spot-live swaps (compsim only)', schemas: { responses: scriptResponses, params, body: scriptBody },
    handler: async ({ world, params: p, body }) => ({ body: { success: true, actions: (await loadScript(world.deps, p.competitionId!, body.actions)).map(apiAction) } }),
  }),
  route({
    ...base, id: 'admin.script.get', method: 'GET', path: '/api/admin/competitions/{competitionId}/script',
    summary: "A competition's scripted actions and their outcome (compsim only)", schemas: { responses: scriptResponses, params },
    handler: async ({ world, params: p }) => ({ body: { success: true, actions: (await competitionScript(world.deps, p.competitionId!)).map(apiAction) } }),
  }),
];
