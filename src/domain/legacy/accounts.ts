// A team's own account (legacy /api/account/*): profile, balances, portfolio, trade history, key reset. Admin keys see an empty admin "team".
import type { BlockchainType, SpecificChain } from '../../ports/prices.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { newestFirst } from '../trading/holdings.js';
import { newestSnapshot } from '../rankings/leaderboard.js';
import { capList, TRADE_LIST_LIMIT } from '../data/limits.js';
import type { Admin, Balance, Principal, Trade } from '../model.js';
import { valuationPrice } from '../trading/prices.js';
import { callerAgentId } from '../trading/trade.js';
import { accountCompetition } from './competition.js';
import { teamView, type TeamView } from './teams.js';

/** The calling account: a team (any agent) or an admin, who legacy-wise was a team without balances. */
export type Account = { kind: 'team'; team: TeamView } | { kind: 'admin'; admin: Admin };

/** Id the legacy responses call `teamId`. */
export function accountId(a: Account): string {
  return a.kind === 'team' ? a.team.agent.id : a.admin.id;
}

/** Loads the caller's account; a vanished row (deleted meanwhile) is 404 `Team not found`. */
export async function getAccount(deps: Deps, principal: Principal): Promise<Account> {
  return deps.store.read((tx) => {
    if (principal.kind === 'agent') {
      const agent = tx.get('agents', principal.agentId);
      if (agent) return { kind: 'team', team: teamView(tx, agent) };
    } else if (principal.kind === 'admin') {
      const admin = tx.get('admins', principal.adminId);
      if (admin) return { kind: 'admin', admin };
    }
    throw new DomainError('TEAM_NOT_FOUND');
  });
}

/** `PUT /api/account/profile`: only `contactPerson` (the owner's name) and `metadata` (replaced whole) apply; `updatedAt` moves. */
export async function updateProfile(deps: Deps, principal: Principal, input: { contactPerson?: string; metadata?: unknown }): Promise<Account> {
  if (principal.kind !== 'agent') return getAccount(deps, principal);
  return deps.store.transact((tx) => {
    const agent = tx.get('agents', principal.agentId);
    if (!agent) throw new DomainError('TEAM_NOT_FOUND');
    const now = deps.clock.now();
    let owner = tx.get('users', agent.ownerId);
    if (owner && input.contactPerson !== undefined) owner = tx.put('users', { ...owner, name: input.contactPerson, updatedAt: now });
    const next = tx.put('agents', { ...agent, ...(input.metadata !== undefined ? { metadata: input.metadata } : {}), updatedAt: now });
    return { kind: 'team', team: { agent: next, owner } };
  });
}

/**
 * `POST /api/account/reset-api-key`: a new key at once; the old one stops working in the same step.
 * compsim's admins are not teams: an admin key gets 401 `Authentication required`, as on the other
 * routes that act as an agent.
 */
export async function resetApiKey(deps: Deps, principal: Principal): Promise<string> {
  const agentId = callerAgentId(principal);
  return deps.store.transact((tx) => {
    const agent = tx.get('agents', agentId);
    if (!agent) throw new DomainError('TEAM_NOT_FOUND');
    const apiKey = deps.ids.apiKey();
    tx.put('agents', { ...agent, apiKeyHash: deps.secrets.hash(apiKey), apiKeyEnc: deps.secrets.encrypt(apiKey), updatedAt: deps.clock.now() });
    return apiKey;
  });
}

/** Parent chain of a balance row from its specific chain. */
export const parentChain = (c: SpecificChain): BlockchainType => (c === 'svm' ? 'svm' : 'evm');

/** `GET /api/account/balances`: every row of the account competition (zero rows included), storage order. */
export async function accountBalances(deps: Deps, principal: Principal): Promise<{ teamId: string; balances: Balance[] }> {
  const account = await getAccount(deps, principal);
  if (account.kind === 'admin') return { teamId: account.admin.id, balances: [] };
  const id = account.team.agent.id;
  return deps.store.read((tx) => {
    const comp = accountCompetition(tx, id);
    return { teamId: id, balances: comp ? tx.find('balances', 'agentCompetition', `${id}:${comp.id}`) : [] };
  });
}

/** One token of a portfolio. */
export interface PortfolioToken { token: string; amount: number; price: number; value: number; chain: BlockchainType; specificChain: SpecificChain }

/** `GET /api/account/portfolio` result. */
export interface Portfolio { teamId: string; totalValue: number; tokens: PortfolioToken[]; snapshotTime: number | null; source: 'snapshot' | 'live-calculation' }

/**
 * `GET /api/account/portfolio` (reference legacy §2.6 #17): while the account competition is active
 * and the team has a snapshot there, the newest snapshot's total with the tokens priced at its
 * instant (`source: "snapshot"`); otherwise live prices (unpriced tokens count 0).
 */
export async function accountPortfolio(deps: Deps, principal: Principal): Promise<Portfolio> {
  const account = await getAccount(deps, principal);
  if (account.kind === 'admin') return { teamId: account.admin.id, totalValue: 0, tokens: [], snapshotTime: null, source: 'live-calculation' };
  const id = account.team.agent.id;
  return deps.store.read((tx) => {
    const comp = accountCompetition(tx, id);
    const rows = comp ? tx.find('balances', 'agentCompetition', `${id}:${comp.id}`) : [];
    const snap = comp?.status === 'active' ? newestSnapshot(tx.find('snapshots', 'agentCompetition', `${id}:${comp.id}`)) : undefined;
    const at = snap?.timestamp ?? deps.clock.now();
    const tokens = rows.map((b): PortfolioToken => {
      const price = valuationPrice(deps.prices, b.tokenAddress, b.specificChain, at) ?? 0;
      return { token: b.tokenAddress, amount: b.amount, price, value: b.amount * price, chain: parentChain(b.specificChain), specificChain: b.specificChain };
    });
    if (snap) return { teamId: id, totalValue: snap.totalValue, tokens, snapshotTime: snap.timestamp, source: 'snapshot' };
    return { teamId: id, totalValue: tokens.reduce((s, t) => s + t.value, 0), tokens, snapshotTime: null, source: 'live-calculation' };
  });
}

/** `GET /api/account/trades`: all of the team's trades across competitions, newest first, unpaged (at most TRADE_LIST_LIMIT). */
export async function accountTrades(deps: Deps, principal: Principal): Promise<{ teamId: string; trades: Trade[] }> {
  const account = await getAccount(deps, principal);
  if (account.kind === 'admin') return { teamId: account.admin.id, trades: [] };
  const id = account.team.agent.id;
  const trades = await deps.store.read((tx) => {
    capList(tx.count('trades', 'agent', id), TRADE_LIST_LIMIT, 'trades', 'The legacy API has no paged trade list.');
    return tx.find('trades', 'agent', id);
  });
  return { teamId: id, trades: newestFirst(trades) };
}
