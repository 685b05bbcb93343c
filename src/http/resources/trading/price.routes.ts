// GET /api/price: chain detection and discovery as upstream; a missing price is 200 {success:false}.
import { getPrice } from '../../../domain/trading/prices.js';
import type { RouteDef } from '../../route.js';
import { route } from '../../typed-route.js';
import { iso } from '../shared/time.js';
import { priceQuery } from './request.js';
import { priceResponses } from './response.js';

/** Price routes. */
export const PRICE_ROUTES: RouteDef[] = [
  route({
    id: 'price.get', method: 'GET', path: '/api/price', auth: 'key', generation: 'current', tag: 'price',
    summary: 'Price of a token',
    // competitionId is accepted (any era sent it) and ignored for now.
    schemas: { responses: priceResponses, query: priceQuery },
    handler: async ({ world, query }) => {
      const a = getPrice(world.deps, query);
      return {
        body: {
          success: a.found, price: a.price, token: a.token, chain: a.chain, specificChain: a.specificChain,
          ...(a.symbol !== null ? { symbol: a.symbol } : {}), timestamp: iso(a.timestamp),
        },
      };
    },
  }),
];
