// Paper trading: execute and quote.
import type { RouteDef } from '../route.js';

/** Trade routes. */
export const TRADE_ROUTES: RouteDef[] = [];
