import type { AppDeps } from '../deps.js';
import type { RouteDef } from './route-def.js';
import { versionDetailRoute } from './routes/version/detail.js';
import { nodeIdentityRoute } from './routes/node/identity.js';
import { nodeMetricsRoute } from './routes/node/metrics.js';
import { nodeStaticRoute } from './routes/node/static.js';

/**
 * Every /api route. This table drives routing, 405 + Allow, aliases and auth, and the
 * conventions test walks it, so a route exists only once it is listed here.
 */
export function routeTable(deps: AppDeps): RouteDef[] {
  return [
    versionDetailRoute(deps),
    nodeIdentityRoute(deps),
    nodeMetricsRoute(deps),
    nodeStaticRoute(deps),
  ];
}
