import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './deps.js';
import { createHttpServer } from './http/server.js';
import { routeTable } from './http/route-table.js';
import { buildGuards } from './http/plugins/guards.js';
import { registerDeployRoutes } from './http/static/deploy.js';
import { createSpaHandler, defaultWebRoot } from './http/static/spa.js';

/** Builds the HTTP application; never listens, so tests drive it with inject(). */
export function buildApp(deps: AppDeps): FastifyInstance {
  const app = createHttpServer({
    logger: deps.log,
    routes: routeTable(deps),
    guards: buildGuards(deps),
    trustProxy: deps.config.trustedProxies,
    fallback: createSpaHandler({ root: defaultWebRoot() }),
  });
  registerDeployRoutes(app, deps);
  return app;
}
