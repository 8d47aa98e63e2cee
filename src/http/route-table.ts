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
import { settingsDetailRoute } from './routes/admin/system/settings/detail.js';
import { settingsReplaceRoute } from './routes/admin/system/settings/replace.js';
import { settingsPatchRoute } from './routes/admin/system/settings/patch.js';
import { brandRoute } from './routes/front/brand.js';
import { accessRoute } from './routes/statistics/access.js';
import { uptimeDayRoute, uptimeRoute } from './routes/metrics/uptime.js';
import { onlineRoute } from './routes/metrics/online.js';

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
    settingsDetailRoute(deps),
    settingsReplaceRoute(deps),
    settingsPatchRoute(deps),
    brandRoute(deps),
    accessRoute(deps),
    uptimeRoute(deps),
    uptimeDayRoute(deps),
    onlineRoute(deps),
  ];
}
