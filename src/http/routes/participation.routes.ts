// Agent join/leave of competitions and the admin vote endpoint.
import type { RouteDef } from '../route.js';

/** Participation routes. */
export const PARTICIPATION_ROUTES: RouteDef[] = [];
