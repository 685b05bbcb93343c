// The worlds API (/api/sim/worlds: create, list, delete the isolated worlds of one server) and the cheat codes for bot tests (balances, lifecycle now).
import { DomainError } from '../../../domain/errors.js';
import { endCompetitionWithTeams, startAnyGeneration } from '../../../domain/legacy/admin-lifecycle.js';
import { setBalances } from '../../../domain/trading/set-balances.js';
import type { HttpWorld, RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import type { SimControl, SimJob } from '../../world-port.js';
import { worldUrl, type WorldInfo, type WorldsControl } from '../../worlds.js';
import { apiCompetition, apiStartedCompetition } from '../competitions/serialize.js';
import { iso } from '../shared/time.js';
import { competitionParams, createWorldBody, setBalancesBody, worldParams } from './request.js';
import {
  setBalancesResponses, simEndResponses, simStartResponses, worldCreateResponses, worldDeleteResponses, worldListResponses,
} from './response.js';

const base = { generation: 'sim', tag: 'sim' } as const;

function sim(world: HttpWorld): SimControl {
  if (!world.sim) throw new DomainError('SIM_UNAVAILABLE');
  return world.sim;
}

function worlds(world: HttpWorld): WorldsControl {
  if (!world.worlds) throw new DomainError('SIM_UNAVAILABLE');
  return world.worlds;
}

const apiWorld = (w: WorldInfo, headers: Record<string, string>) => ({
  id: w.id, basePath: w.basePath, url: worldUrl(headers, w.basePath), seed: w.seed, now: w.now === null ? null : iso(w.now), idleTtlSeconds: w.idleTtlSeconds,
  status: w.status, ...(w.damage ? { damage: w.damage } : {}),
});

const ranOf = (jobs: SimJob[]) => {
  const ran: Record<string, number> = {};
  for (const j of jobs) ran[j.kind] = (ran[j.kind] ?? 0) + 1;
  return ran;
};

/** `/api/sim/worlds`: the key is checked by the server holding the worlds (server key or an admin key of the default world). */
export const SIM_WORLD_ROUTES: RouteDef[] = [
  route({
    ...base, auth: 'public', keys: 'server', id: 'sim.worlds.create', method: 'POST', path: '/api/sim/worlds',
    summary: "Create an isolated world on this server (answers its id, admin key, base URL, and its fixture's agents with their keys and competitions)",
    schemas: { responses: worldCreateResponses, body: createWorldBody },
    handler: async ({ world, body, headers }) => {
      const w = worlds(world);
      await w.authorize(headers.authorization);
      const created = await w.create(body);
      return {
        status: 201,
        body: {
          success: true, ...apiWorld(created, headers), adminKey: created.adminKey,
          agents: created.agents.map((a) => ({ id: a.id, name: a.name, handle: a.handle, apiKey: a.apiKey })),
          competitions: created.competitions.map((c) => ({ id: c.id, name: c.name, status: c.status })),
        },
      };
    },
  }),
  route({
    ...base, auth: 'public', keys: 'server', id: 'sim.worlds.list', method: 'GET', path: '/api/sim/worlds', summary: 'The worlds this server holds, the default one first',
    schemas: { responses: worldListResponses },
    handler: async ({ world, headers }) => {
      const w = worlds(world);
      await w.authorize(headers.authorization);
      return { body: { success: true, worlds: w.list().map((i) => apiWorld(i, headers)) } };
    },
  }),
  route({
    ...base, auth: 'public', keys: 'server', id: 'sim.worlds.delete', method: 'DELETE', path: '/api/sim/worlds/{id}',
    summary: 'Delete a world and its state (its own admin key may delete it too)',
    schemas: { responses: worldDeleteResponses, params: worldParams },
    handler: async ({ world, params, headers }) => {
      const w = worlds(world);
      await w.authorize(headers.authorization, params.id!);
      await w.remove(params.id!);
      return { body: { success: true } };
    },
  }),
];

/** Cheat codes: set balances directly, start or end a competition now. Admin key of the world. */
export const SIM_CHEAT_ROUTES: RouteDef[] = [
  route({
    ...base, auth: 'admin', id: 'sim.balances.set', method: 'POST', path: '/api/sim/balances', summary: "Set an agent's balances in a competition",
    schemas: { responses: setBalancesResponses, body: setBalancesBody },
    handler: async ({ world, body }) => {
      sim(world);
      const rows = await setBalances(world.deps, body);
      return {
        body: {
          success: true, agentId: body.agentId, competitionId: body.competitionId,
          balances: rows.map((b) => ({ tokenAddress: b.tokenAddress, amount: b.amount, symbol: b.symbol, specificChain: b.specificChain })),
        },
      };
    },
  }),
  route({
    ...base, auth: 'admin', id: 'sim.competitions.start', method: 'POST', path: '/api/sim/competitions/{competitionId}/start',
    summary: 'Start a pending competition at the current virtual time, then run due jobs',
    schemas: { responses: simStartResponses, params: competitionParams },
    handler: async ({ world, params }) => {
      const s = sim(world);
      const r = await startAnyGeneration(world.deps, { competitionId: params.competitionId!, agentIds: [], slippageModel: 'current' });
      const ran = ranOf(await s.advance(0));
      return { body: { success: true, competition: apiStartedCompetition(r.competition, r.agentIds), ran } };
    },
  }),
  route({
    ...base, auth: 'admin', id: 'sim.competitions.end', method: 'POST', path: '/api/sim/competitions/{competitionId}/end',
    summary: 'End an active competition at the current virtual time, then run due jobs',
    schemas: { responses: simEndResponses, params: competitionParams },
    handler: async ({ world, params }) => {
      const s = sim(world);
      const r = await endCompetitionWithTeams(world.deps, params.competitionId!);
      const ran = ranOf(await s.advance(0));
      return { body: { success: true, competition: apiCompetition(r.competition), leaderboard: r.leaderboard, ran } };
    },
  }),
];
