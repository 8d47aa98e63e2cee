import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './deps.js';
import { createHttpServer } from './http/server.js';
import { routeTable } from './http/route-table.js';
import { buildGuards } from './http/plugins/guards.js';
import { registerDeployRoutes } from './http/static/deploy.js';
import { registerThemeRoutes } from './http/static/theme.js';
import { createSpaHandler, defaultWebRoot } from './http/static/spa.js';
import { registerMetricsEndpoint } from './http/metrics-endpoint.js';

export interface BuildAppOptions {
  /** The routes' fast lanes before Fastify (default on); tests turn them off to compare answers. */
  fastLanes?: boolean;
}

/** Builds the HTTP application; never listens, so tests drive it with inject(). */
export function buildApp(deps: AppDeps, opts: BuildAppOptions = {}): FastifyInstance {
  const app = createHttpServer({
    logger: deps.log,
    routes: routeTable(deps),
    guards: buildGuards(deps),
    trustProxy: deps.config.trustedProxies,
    connectionLimits: deps.config.connections,
    fallback: createSpaHandler({ root: defaultWebRoot() }),
    fastLanes: opts.fastLanes !== false,
  });
  registerDeployRoutes(app, deps);
  registerMetricsEndpoint(app, deps.telemetry, deps.clock);
  registerThemeRoutes(app, deps);
  return app;
}
