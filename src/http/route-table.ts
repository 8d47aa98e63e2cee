import type { AppDeps } from '../deps.js';
import type { RouteDef } from './route-def.js';
import { versionDetailRoute } from './routes/version/detail.js';
import { loginRoute } from './routes/auth/login.js';
import { refreshRoute } from './routes/auth/refresh.js';
import { logoutRoute } from './routes/auth/logout.js';
import {
  deleteAllSessionsRoute,
  deleteCurrentSessionRoute,
  deleteSessionRoute,
  listSessionsRoute,
} from './routes/auth/sessions.js';

/**
 * Every /api route. This table drives routing, 405 + Allow, aliases and auth, and the
 * conventions test walks it, so a route exists only once it is listed here.
 */
export function routeTable(deps: AppDeps): RouteDef[] {
  return [
    versionDetailRoute(deps),
    loginRoute(deps),
    refreshRoute(deps),
    logoutRoute(deps),
    listSessionsRoute(deps),
    deleteCurrentSessionRoute(deps),
    deleteAllSessionsRoute(deps),
    deleteSessionRoute(deps),
  ];
}
