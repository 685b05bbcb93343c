// The route table: every endpoint of compsim, concatenated from the per-resource arrays.
import type { RouteDef } from '../route.js';
import { ADMIN_ACTOR_ROUTES } from './admin-actors.routes.js';
import { ADMIN_ARENA_ROUTES } from './admin-arenas.routes.js';
import { ADMIN_COMPETITION_ROUTES } from './admin-competitions.routes.js';
import { AGENT_ROUTES } from './agent.routes.js';
import { AGENT_PROFILE_ROUTES } from './agent-profile.routes.js';
import { AGENTS_ROUTES } from './agents.routes.js';
import { ADMIN_REWARD_ROUTES } from './admin-rewards.routes.js';
import { LEADERBOARD_ROUTES } from './leaderboard.routes.js';
import { PUBLIC_ARENA_ROUTES } from './public-arenas.routes.js';
import { COMPETITION_ROUTES } from './competitions.routes.js';
import { HEALTH_ROUTES } from './health.routes.js';
import { LEGACY_ACCOUNT_ROUTES } from './legacy/account.routes.js';
import { LEGACY_COMPETITION_ROUTES } from './legacy/competition.routes.js';
import { LEGACY_TEAM_ROUTES } from './legacy/teams.routes.js';
import { PARTICIPATION_ROUTES } from './participation.routes.js';
import { PRICE_ROUTES } from './price.routes.js';
import { SIM_ROUTES } from './sim.routes.js';
import { SIM_CHEAT_ROUTES, SIM_WORLD_ROUTES } from './sim-worlds.routes.js';
import { TRADE_ROUTES } from './trade.routes.js';
import { AUTH_ROUTES } from './auth.routes.js';
import { INFERENCE_ROUTES } from './inference.routes.js';
import { PERPS_ROUTES } from './perps.routes.js';
import { SPOT_LIVE_ROUTES } from './spot-live.routes.js';

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
