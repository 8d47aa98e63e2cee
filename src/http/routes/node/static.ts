import type { AppDeps } from '../../../deps.js';
import { StaticReportSchema } from '../../../protocol/static-report.js';
import { NODE_BODY_LIMIT, defineRoute } from '../../route-def.js';
import { nodeOf } from '../../plugins/node-guard.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'staticIngest'>;

/** POST /api/node/static — a node's host facts; answers plain-text `ok` (reference §2). */
export function nodeStaticRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/node/static',
    auth: 'node',
    errors: ['invalid_static_payload', 'service_unavailable'],
    bodyLimit: NODE_BODY_LIMIT,
    gzipBody: true,
    schema: { body: StaticReportSchema },
    handler: async (req, reply) => {
      const { nodeId } = nodeOf(req);
      await deps.staticIngest.accept(nodeId, req.body, req.ip);
      return reply.type('text/plain; charset=utf-8').send('ok');
    },
  });
}
