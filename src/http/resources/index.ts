// The route table: every endpoint of compsim, concatenated from the per-resource arrays, and upstream's mounts (key guards, eras).
import type { RouteDef } from '../route.js';
import { ADMIN_ACTOR_ROUTES } from './agents/admin.routes.js';
import { ADMIN_ARENA_ROUTES } from './arenas/admin.routes.js';
import { ADMIN_COMPETITION_ROUTES } from './competitions/admin.routes.js';
import { ADMIN_READ_ROUTES } from './reports/reports.routes.js';
import { PARTNER_ROUTES } from './partners/partners.routes.js';
import { AGENT_ROUTES } from './trading/agent.routes.js';
import { AGENT_PROFILE_ROUTES } from './agents/profile.routes.js';
import { AGENTS_ROUTES } from './agents/agents.routes.js';
import { ADMIN_REWARD_ROUTES } from './competitions/rewards.routes.js';
import { LEADERBOARD_ROUTES } from './agents/leaderboard.routes.js';
import { PUBLIC_ARENA_ROUTES } from './arenas/arenas.routes.js';
import { COMPETITION_ROUTES } from './competitions/competitions.routes.js';
import { HEALTH_ROUTES } from './health/health.routes.js';
import { LEGACY_ACCOUNT_ROUTES } from './legacy/account.routes.js';
import { LEGACY_COMPETITION_ROUTES } from './legacy/competition.routes.js';
import { LEGACY_TEAM_ROUTES } from './legacy/teams.routes.js';
import { PARTICIPATION_ROUTES } from './competitions/participation.routes.js';
import { PRICE_ROUTES } from './trading/price.routes.js';
import { SIM_ROUTES } from './sim/sim.routes.js';
import { SIM_CHEAT_ROUTES, SIM_WORLD_ROUTES } from './sim/worlds.routes.js';
import { TRADE_ROUTES } from './trading/trade.routes.js';
import { AUTH_ROUTES } from './agents/auth.routes.js';
import { INFERENCE_ROUTES } from './inference/inference.routes.js';
import { PERPS_ROUTES } from './perps/perps.routes.js';
import { SPOT_LIVE_ROUTES } from './trading/spot-live.routes.js';

/** All routes; Koa mounting, dispatch, OpenAPI and msw read this array. */
export const ROUTES: readonly RouteDef[] = [
  ...HEALTH_ROUTES,
  ...PRICE_ROUTES,
  ...TRADE_ROUTES,
  ...AGENT_ROUTES,
  ...COMPETITION_ROUTES,
  ...PARTICIPATION_ROUTES,
  ...ADMIN_ACTOR_ROUTES,
  ...ADMIN_COMPETITION_ROUTES,
  ...ADMIN_ARENA_ROUTES,
  ...ADMIN_READ_ROUTES,
  ...PARTNER_ROUTES,
  ...LEGACY_TEAM_ROUTES,
  ...LEGACY_ACCOUNT_ROUTES,
  ...LEGACY_COMPETITION_ROUTES,
  // Own profile, public agents, arenas, global leaderboard, reward claims.
  ...AGENT_PROFILE_ROUTES,
  ...AGENTS_ROUTES,
  ...PUBLIC_ARENA_ROUTES,
  ...LEADERBOARD_ROUTES,
  ...ADMIN_REWARD_ROUTES,
  // Wallet verification, verified-inference badge, perps, spot-live swaps and competition scripts.
  ...AUTH_ROUTES,
  ...INFERENCE_ROUTES,
  ...PERPS_ROUTES,
  ...SPOT_LIVE_ROUTES,
  // Simulation control; createServer leaves these out when the sim API is off.
  ...SIM_ROUTES,
  ...SIM_CHEAT_ROUTES,
  ...SIM_WORLD_ROUTES,
];

/**
 * A prefix upstream mounts a router on, where it matters to the edge. `keyGuard`: an agent-key
 * middleware guards the whole prefix, so a path under it that no route serves answers the key's
 * 401 before the 404. `legacy`: the team era's router, whose authentication failures use the team
 * era's messages (on its routes and on unserved paths under it alike).
 */
export interface Mount { readonly path: string; readonly keyGuard?: true; readonly legacy?: true }

/** Upstream's mounts (segment-matched; the longest that holds a path applies). */
export const MOUNTS: readonly Mount[] = Object.freeze([
  { path: '/api/agent', keyGuard: true },
  { path: '/api/trade', keyGuard: true },
  { path: '/api/price', keyGuard: true },
  { path: '/api/nfl', keyGuard: true },
  { path: '/api/account', keyGuard: true, legacy: true },
  { path: '/api/competition', keyGuard: true, legacy: true },
  { path: '/api/public', legacy: true },
  { path: '/api/admin/teams', legacy: true },
  { path: '/api/admin/reports', legacy: true },
] as const);
