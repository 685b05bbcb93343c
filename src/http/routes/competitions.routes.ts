// Public competition reads: list, detail, participants, leaderboard, status, rules, upcoming, timeline, trade lists.
import type { RouteDef } from '../route.js';

/** Competition read routes. */
export const COMPETITION_ROUTES: RouteDef[] = [];
