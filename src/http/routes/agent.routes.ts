// The calling agent's own data: balances and trade history per competition.
import type { RouteDef } from '../route.js';

/** Own-agent routes. */
export const AGENT_ROUTES: RouteDef[] = [];
