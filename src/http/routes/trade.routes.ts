// Paper trading: execute and quote.
import { executeTrade, quoteTrade } from '../../domain/trading.js';
import type { RouteDef } from '../route.js';
import { executeBody, quoteQuery } from '../schemas/trading.js';
import { apiTrade } from '../serialize/trades.js';

/** Trade routes. */
export const TRADE_ROUTES: RouteDef[] = [
  {
    id: 'trade.execute', method: 'POST', path: '/api/trade/execute', auth: 'key', generation: 'current', tag: 'trade',
    summary: 'Execute a paper trade', schemas: { body: executeBody },
    handler: async ({ world, principal, body }) => ({ body: { success: true, transaction: apiTrade(await executeTrade(world.deps, principal, body)) } }),
  },
  {
    id: 'trade.quote', method: 'GET', path: '/api/trade/quote', auth: 'key', generation: 'current', tag: 'trade',
    summary: 'Quote a paper trade (no success field, as upstream)', schemas: { query: quoteQuery },
    handler: async ({ world, principal, query }) => ({ body: await quoteTrade(world.deps, principal, query) }),
  },
];
