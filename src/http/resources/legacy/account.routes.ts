// Legacy /api/account/*: a team's profile, balances, portfolio, trade history and key reset.
import {
  accountBalances, accountPortfolio, accountTrades, getAccount, resetApiKey, updateProfile,
} from '../../../domain/legacy/accounts.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { profileBody } from './request.js';
import { apiLegacyBalance, apiLegacyTrade, apiPortfolio, apiTeamProfile } from './serialize.js';
import { accountBalancesResponses, accountPortfolioResponses, accountProfileResponses, accountProfileUpdateResponses, accountResetKeyResponses, accountTradesResponses } from './response.js';

const base = { generation: 'legacy', tag: 'account', auth: 'key' } as const;

/** Account routes of the legacy generation (any team or agent key; an admin key sees an empty admin team). */
export const LEGACY_ACCOUNT_ROUTES: RouteDef[] = [
  route({
    ...base, id: 'account.profile.get', method: 'GET', path: '/api/account/profile', summary: "The team's profile",
    schemas: { responses: accountProfileResponses },
    handler: async ({ world, principal }) => ({ body: { success: true, team: apiTeamProfile(await getAccount(world.deps, principal)) } }),
  }),
  route({
    ...base, id: 'account.profile.update', method: 'PUT', path: '/api/account/profile', summary: 'Update contactPerson and metadata',
    schemas: { responses: accountProfileUpdateResponses, body: profileBody },
    handler: async ({ world, principal, body }) => ({ body: { success: true, team: apiTeamProfile(await updateProfile(world.deps, principal, body)) } }),
  }),
  route({
    ...base, id: 'account.balances', method: 'GET', path: '/api/account/balances', summary: "The team's balances",
    schemas: { responses: accountBalancesResponses },
    handler: async ({ world, principal }) => {
      const r = await accountBalances(world.deps, principal);
      return { body: { success: true, teamId: r.teamId, balances: r.balances.map(apiLegacyBalance) } };
    },
  }),
  route({
    ...base, id: 'account.portfolio', method: 'GET', path: '/api/account/portfolio', summary: "The team's portfolio value",
    schemas: { responses: accountPortfolioResponses },
    handler: async ({ world, principal }) => ({ body: apiPortfolio(await accountPortfolio(world.deps, principal)) }),
  }),
  route({
    ...base, id: 'account.trades', method: 'GET', path: '/api/account/trades', summary: "The team's trades, newest first",
    schemas: { responses: accountTradesResponses },
    handler: async ({ world, principal }) => {
      const r = await accountTrades(world.deps, principal);
      return { body: { success: true, teamId: r.teamId, trades: r.trades.map((t) => apiLegacyTrade(t, true)) } };
    },
  }),
  route({
    ...base, id: 'account.resetApiKey', agentOnly: true, method: 'POST', path: '/api/account/reset-api-key', summary: 'Replace the API key (the old one stops working)',
    schemas: { responses: accountResetKeyResponses },
    handler: async ({ world, principal }) => ({ body: { success: true, apiKey: await resetApiKey(world.deps, principal) } }),
  }),
];
