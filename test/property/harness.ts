// Command-model harness: sends recorded steps through the driver, checks expectations with the scenario matcher, and the invariant sweep run after every command.
import { actorWallet } from '../../src/harness/runner.js';
import { match } from '../../src/harness/matcher.js';
import { callRequest, simRequest } from '../../src/harness/steps.js';
import type { TargetResponse } from '../../src/harness/targets.js';
import type { CallStep, Json, Step } from '../../src/harness/types.js';
import type { StoreSnapshot } from '../../src/ports/store.js';
import type { Figures } from './budget.js';
import { Driver } from './driver.js';
import {
  activeIds, boardValue, expectedBoard, nearlyEqual, priceOf, type MAgent, type MComp, type Model,
} from './model.js';
import type { Recorder } from './regressions.js';

/** An invariant or expectation the system broke (the run's recorded steps reproduce it). */
export class InvariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvariantError';
  }
}

/** The real side of the model run. */
export interface Real { d: Driver; rec: Recorder; fig: Figures }

/** Who sends a call. */
export type As = MAgent | 'admin' | undefined;

const approx = (x: number): Json => ({ $approx: x, $rel: 1e-9, $tol: 1e-9 });
const keyOf = (as: As) => (as === undefined ? undefined : as === 'admin' ? Driver.adminKey : as.key);
const nameOf = (as: As) => (as === undefined ? undefined : as === 'admin' ? 'admin' : as.name);

function statusProblem(expect: CallStep['expect'], status: number): string | null {
  const want = expect?.status;
  if (want === undefined) return status >= 200 && status < 300 ? null : `expected a 2xx status, got ${status}`;
  const list = Array.isArray(want) ? want : [want];
  return list.includes(status) ? null : `expected status ${list.join(' or ')}, got ${status}`;
}

/** What went wrong with an answer against an expectation (null when it matches). */
export function mismatch(expect: CallStep['expect'], res: TargetResponse): string | null {
  const problems: string[] = [];
  const s = statusProblem(expect, res.status);
  if (s) problems.push(s);
  if (expect && 'body' in expect) problems.push(...match(expect.body, res.body).map((x) => `${x.path}: ${x.message}`));
  return problems.length === 0 ? null : problems.slice(0, 4).join('; ');
}

/** A call as a scenario step. */
export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; as?: As; query?: Record<string, string>; body?: Json;
  expect?: CallStep['expect']; save?: Record<string, string>; actor?: CallStep['actor'];
}

function toStep(c: Call): CallStep {
  const as = nameOf(c.as);
  return {
    call: `${c.method} ${c.path}`, ...(as !== undefined ? { as } : {}), ...(c.query && Object.keys(c.query).length > 0 ? { query: c.query } : {}),
    ...(c.body !== undefined ? { body: c.body } : {}), ...(c.expect ? { expect: c.expect } : {}),
    ...(c.save ? { save: c.save } : {}), ...(c.actor ? { actor: c.actor } : {}),
  };
}

/**
 * Sends a call exactly as the scenario runner would send its step. A command's call is always
 * recorded; a check's call only when it fails (reads change nothing, so leaving passed ones out
 * keeps the replay identical). A 500 or a mismatch throws an {@link InvariantError}.
 */
export async function send(r: Real, c: Call, record: boolean): Promise<TargetResponse> {
  const step = toStep(c);
  const res = await r.d.send(callRequest(step, keyOf(c.as)));
  const problem = res.status >= 500 ? `answered ${res.status} ${JSON.stringify(res.body)}` : mismatch(c.expect, res);
  if (record || problem) r.rec.add(step);
  if (problem) throw new InvariantError(`${c.method} ${c.path}${c.query ? `?${new URLSearchParams(c.query)}` : ''}: ${problem}`);
  return res;
}

/** Sends a sim step (advance, setPrice) through the sim API, recorded. */
export async function sim(r: Real, step: Exclude<Step, CallStep>): Promise<TargetResponse> {
  const req = simRequest(step, r.rec.steps.length, () => {
    throw new Error('the model uses no named snapshots or faults');
  })!;
  r.rec.add(step);
  const res = await r.d.send({ ...req.request, headers: { authorization: `Bearer ${Driver.adminKey}` } });
  if (res.status !== 200) throw new InvariantError(`${req.request.method} ${req.request.path}: sim API answered ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

/**
 * Proves a rejected request changed nothing: on a difference, records `GET /api/sim/dump`
 * expecting the parts that changed to hold their earlier values, and throws.
 */
export async function expectUnchanged(r: Real, before: StoreSnapshot, what: string): Promise<void> {
  const after = await r.d.mark();
  const changed = Driver.diff(before, after);
  if (changed.length === 0) return;
  const b = Driver.asDump(before);
  const expectBody: Record<string, Json> = {};
  const tables: Record<string, Json> = {};
  for (const path of changed) {
    const m = /^(tables|seqs|aux)\.(\w+)/.exec(path)!;
    const [, part, name] = m as unknown as [string, 'tables' | 'seqs' | 'aux', string];
    if (part === 'tables') {
      const rows = (b.tables[name] ?? []) as Json[];
      const idx = /\[(\d+)\]$/.exec(path);
      const prev = (tables[name] as Json[] | undefined) ?? rows.map(() => ({}));
      if (idx && prev.length === rows.length) prev[Number(idx[1])] = rows[Number(idx[1])]!;
      tables[name] = idx ? prev : rows;
    } else {
      expectBody[part] = { ...((expectBody[part] as Record<string, Json>) ?? {}), [name]: ((b[part] ?? {}) as Record<string, Json>)[name] ?? null };
    }
  }
  if (Object.keys(tables).length > 0) expectBody.tables = tables;
  r.rec.add({ call: 'GET /api/sim/dump', as: 'admin', expect: { status: 200, body: expectBody } });
  throw new InvariantError(`${what} was rejected but changed the world: ${changed.slice(0, 6).join(', ')}`);
}

/** The agent with this id. */
const agentById = (m: Model, id: string) => m.agents.find((a) => a.id === id)!;

/** Expected balance rows of an agent in a competition (storage order), with `value = amount × price`. */
function balanceRows(m: Model, comp: MComp, agentId: string): Json[] {
  return [...(comp.balances.get(agentId) ?? new Map<string, number>())].map(([tokenAddress, amount]) => {
    const price = priceOf(m, tokenAddress);
    return { tokenAddress, amount: { $approx: amount, $rel: 1e-9, $tol: 1e-9, $gte: 0 }, price, value: approx(amount * price) };
  });
}

/** `GET /api/agent/balances`: the model's amounts, none negative, each valued at its price. */
export async function checkBalances(m: Model, r: Real, comp: MComp, agentId: string): Promise<void> {
  await send(r, {
    method: 'GET', path: '/api/agent/balances', as: agentById(m, agentId), query: { competitionId: comp.id },
    expect: { status: 200, body: { agentId, competitionId: comp.id, balances: balanceRows(m, comp, agentId) } },
  }, false);
}

/** An agent's trades are exactly the accepted ones, newest first, in both agent trade lists. */
export async function checkAgentTrades(m: Model, r: Real, comp: MComp, agentId: string): Promise<void> {
  const ids = comp.trades.filter((t) => t.agentId === agentId).map((t) => ({ id: t.id })).reverse();
  await send(r, {
    method: 'GET', path: '/api/agent/trades', as: agentById(m, agentId), query: { competitionId: comp.id },
    expect: { status: 200, body: { trades: ids } },
  }, false);
  await send(r, {
    method: 'GET', path: `/api/competitions/${comp.id}/agents/${agentId}/trades`, as: 'admin', query: { limit: '100' },
    expect: { status: 200, body: { trades: ids, total: ids.length } },
  }, false);
}

/**
 * One agent across competitions: its whole trade history (newest first), its public trade count,
 * and per competition it registered in (registration order) its trade count and snapshot values.
 */
export async function checkAgent(m: Model, r: Real, agent: MAgent): Promise<void> {
  const mine = m.tradeLog.filter((t) => t.agentId === agent.id);
  await send(r, { method: 'GET', path: '/api/account/trades', as: agent, expect: { status: 200, body: { trades: [...mine].reverse().map((t) => ({ id: t.id })) } } }, false);
  await send(r, { method: 'GET', path: `/api/agents/${agent.id}`, expect: { status: 200, body: { agent: { id: agent.id, stats: { totalTrades: mine.length } } } } }, false);
  const comps = m.regLog.filter((g) => g.agentId === agent.id).map((g) => m.comps.find((c) => c.id === g.compId)!);
  await send(r, {
    method: 'GET', path: `/api/agents/${agent.id}/competitions`, query: { limit: '100' },
    expect: {
      status: 200,
      body: {
        competitions: comps.map((c) => {
          const latest = c.latest.get(agent.id) ?? 0;
          return { id: c.id, status: c.status, totalTrades: c.trades.filter((t) => t.agentId === agent.id).length, portfolioValue: approx(latest), pnl: approx(latest - (c.first.get(agent.id) ?? 0)) };
        }),
        pagination: { total: comps.length },
      },
    },
  }, false);
}

/** Orders near-ties (equal up to rounding) the way the system did; exact ties keep the model's (registration) order. */
function reconcile(expected: string[], actual: string[], value: (id: string) => number): string[] {
  const out = [...expected];
  for (let pass = 0; pass < out.length; pass++) {
    for (let i = 0; i + 1 < out.length; i++) {
      const [x, y] = [out[i]!, out[i + 1]!];
      if (nearlyEqual(value(x), value(y)) && actual.indexOf(y) >= 0 && actual.indexOf(y) < actual.indexOf(x)) [out[i], out[i + 1]] = [y, x];
    }
  }
  return out;
}

/**
 * Competition status (never backwards: it must equal the model's, which only moves forward),
 * the participants ranking (sorted by rank, complete, equal values in registration order, scores
 * = newest snapshot values) and the older leaderboard view.
 */
export async function checkCompetition(m: Model, r: Real, comp: MComp, deep: boolean): Promise<void> {
  await send(r, {
    method: 'GET', path: `/api/competitions/${comp.id}`,
    expect: {
      status: 200,
      body: {
        competition: {
          id: comp.id, status: comp.status, registeredParticipants: activeIds(comp).length,
          stats: { totalTrades: comp.trades.length, totalVolume: approx(comp.trades.reduce((s, t) => s + t.usd, 0)), totalAgents: activeIds(comp).length },
        },
      },
    },
  }, false);
  if (!deep) return;
  const query = { includeInactive: 'true', limit: '100' };
  const actual = await r.d.send(callRequest(toStep({ method: 'GET', path: `/api/competitions/${comp.id}/agents`, query }), undefined));
  const actualIds = ((actual.body as { agents?: { id: string }[] } | undefined)?.agents ?? []).map((a) => a.id);
  const board = reconcile(expectedBoard(m, comp), actualIds, (id) => boardValue(comp, id));
  const total = comp.regs.length;
  const rows = comp.regs.map((reg, i) => {
    const pos = reg.status === 'active' ? board.indexOf(reg.agentId) : -1;
    return { i, id: reg.agentId, active: reg.status === 'active', rank: pos >= 0 ? pos + 1 : total, score: pos >= 0 ? boardValue(comp, reg.agentId) : 0 };
  }).sort((a, b) => a.rank - b.rank || a.i - b.i);
  await send(r, {
    method: 'GET', path: `/api/competitions/${comp.id}/agents`, query,
    expect: { status: 200, body: { agents: rows.map((x) => ({ id: x.id, active: x.active, rank: x.rank, score: approx(x.score) })), pagination: { total } } },
  }, false);
  if (comp.status === 'pending') return;
  const inactive = comp.regs.filter((g) => !board.includes(g.agentId)).length;
  await send(r, {
    method: 'GET', path: '/api/competitions/leaderboard', as: 'admin', query: { competitionId: comp.id },
    expect: {
      status: 200,
      body: { leaderboard: board.map((id, i) => ({ rank: i + 1, agentId: id, portfolioValue: approx(boardValue(comp, id)) })), inactiveAgents: { $len: inactive } },
    },
  }, false);
  const all = [...comp.trades].reverse().map((t) => ({ id: t.id, agentId: t.agentId }));
  await send(r, {
    method: 'GET', path: `/api/competitions/${comp.id}/trades`, as: 'admin', query: { limit: '100' },
    expect: { status: 200, body: { trades: all, total: all.length } },
  }, false);
}

/** A paged list endpoint: where its items are, and sort keys worth paging through (ties included). */
interface ListEndpoint { path: string; as?: As; query?: Record<string, string>; items: string; sorts?: string[] }

/** Every paged list endpoint the model's world has, for the pagination invariant. */
export function listEndpoints(m: Model): ListEndpoint[] {
  const out: ListEndpoint[] = [
    { path: '/api/agents', items: 'agents', sorts: ['name', '-createdAt', 'status', '-handle'] },
    { path: '/api/arenas', items: 'arenas', sorts: ['name', '-createdAt'] }, { path: '/api/leaderboard', items: 'agents' },
    { path: '/api/admin/agents', as: 'admin', items: 'agents', sorts: ['-name', 'status', 'createdAt'] },
    { path: '/api/admin/arenas', as: 'admin', items: 'arenas', sorts: ['-name'] },
  ];
  for (const status of ['pending', 'active', 'ended']) {
    out.push({ path: '/api/competitions', query: { status }, items: 'competitions', sorts: ['name', '-startDate', 'endDate', '-createdAt', 'description'] });
  }
  for (const c of m.comps) {
    out.push({ path: `/api/competitions/${c.id}/agents`, query: { includeInactive: 'true' }, items: 'agents', sorts: ['-score', 'pnl', 'name', '-rank', 'status', 'change24h', '-voteCount'] });
    out.push({ path: `/api/competitions/${c.id}/agents`, items: 'agents', sorts: ['score', '-pnlPercent'] });
    out.push({ path: `/api/competitions/${c.id}/trades`, as: 'admin', items: 'trades' });
    for (const id of activeIds(c).slice(0, 1)) out.push({ path: `/api/competitions/${c.id}/agents/${id}/trades`, as: 'admin', items: 'trades' });
  }
  for (const a of m.agents) {
    out.push({ path: `/api/agents/${a.id}/competitions`, items: 'competitions', sorts: ['rank', '-portfolioValue', 'status', 'agentName', '-totalTrades', 'startDate'] });
  }
  return out;
}

/** Concatenating pages of `size` gives the full list (limit 100), item for item, and `total` agrees (under the `turn`-th sort key, or none). */
export async function checkPagination(r: Real, e: ListEndpoint, size: number, turn = 0): Promise<void> {
  const sorts = [undefined, ...(e.sorts ?? [])];
  const sort = sorts[turn % sorts.length];
  const query = { ...e.query, ...(sort !== undefined ? { sort } : {}) };
  const full = await send(r, { method: 'GET', path: e.path, as: e.as, query: { ...query, limit: '100' }, expect: { status: 200 } }, false);
  const items = ((full.body as Record<string, unknown>)[e.items] ?? []) as Json[];
  const key = (x: Json) => (x && typeof x === 'object' && !Array.isArray(x) && 'id' in x ? { id: x.id } : x) as Json;
  const step = Math.max(size, Math.ceil(items.length / 6));
  for (let offset = 0; offset <= items.length; offset += step) {
    await send(r, {
      method: 'GET', path: e.path, as: e.as, query: { ...query, limit: String(step), offset: String(offset) },
      expect: { status: 200, body: { [e.items]: items.slice(offset, offset + step).map(key), pagination: { total: items.length } } },
    }, false);
  }
}

/** What a command touched: checked in full after it (everything is, every few commands and at the end). */
export interface Touched { agents: Set<string>; comps: Set<string>; all: boolean }

/** The invariant sweep after a command. */
export async function sweep(m: Model, r: Real, t: Touched): Promise<void> {
  for (const comp of m.comps) {
    const deep = t.all || t.comps.has(comp.id);
    await checkCompetition(m, r, comp, deep);
    for (const reg of comp.regs) {
      if (!(deep || t.agents.has(reg.agentId))) continue;
      await checkBalances(m, r, comp, reg.agentId);
      await checkAgentTrades(m, r, comp, reg.agentId);
    }
  }
  for (const agent of m.agents) if (t.all || t.agents.has(agent.id)) await checkAgent(m, r, agent);
  const lists = listEndpoints(m);
  if (t.all) for (const [i, e] of lists.entries()) await checkPagination(r, e, 1 + ((m.step + i) % 3), m.step + i);
  else await checkPagination(r, lists[m.step % lists.length]!, 1 + (m.step % 3), m.step);
}

export { actorWallet };
