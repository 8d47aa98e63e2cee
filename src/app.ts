import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './deps.js';
import { createHttpServer } from './http/server.js';
import { routeTable } from './http/route-table.js';
import { buildGuards } from './http/plugins/guards.js';
import { nodeMetricsLane } from './http/lanes/node-metrics-lane.js';
import { registerDeployRoutes } from './http/static/deploy.js';
import { registerThemeRoutes } from './http/static/theme.js';
import { createSpaHandler, defaultWebRoot } from './http/static/spa.js';
import { FrontMetricsCache } from './http/front-metrics-cache.js';
import { frontMetricsLane } from './http/lanes/front-metrics-lane.js';
import { registerMetricsEndpoint } from './http/metrics-endpoint.js';

export interface BuildAppOptions {
  /** Hot-path handlers before Fastify (default on); tests turn them off to compare answers. */
  fastLanes?: boolean;
}

/** Builds the HTTP application; never listens, so tests drive it with inject(). */
export function buildApp(deps: AppDeps, opts: BuildAppOptions = {}): FastifyInstance {
  // One cache for the route and its lane: a snapshot is built and compressed once per change.
  const frontMetrics = new FrontMetricsCache(deps.front, deps.clock);
  const app = createHttpServer({
    logger: deps.log,
    routes: routeTable(deps, { frontMetrics }),
    guards: buildGuards(deps),
    trustProxy: deps.config.trustedProxies,
    connectionLimits: deps.config.connections,
    fallback: createSpaHandler({ root: defaultWebRoot() }),
    fastLanes:
      opts.fastLanes === false
        ? []
        : [
            nodeMetricsLane(deps, deps.config.trustedProxies),
            frontMetricsLane(frontMetrics, deps.auth),
          ],
  });
  registerDeployRoutes(app, deps);
  registerMetricsEndpoint(app, deps.telemetry, deps.clock);
  registerThemeRoutes(app, deps);
  return app;
}
