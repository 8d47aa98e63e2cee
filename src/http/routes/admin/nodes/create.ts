import { defineRoute } from '../../../route-def.js';
import type { AppDeps } from '../../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'nodes'>;

/**
 * POST /api/admin/nodes/ — a hidden placeholder node with a generated secret. Any JSON body is
 * ignored; the client reads the new node from the list.
 */
export function adminNodesCreateRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/admin/nodes/',
    aliases: ['/api/admin/nodes'],
    auth: 'admin',
    errors: ['secret_generation_failed', 'secret_collision_exhausted'],
    handler: async (_req, reply) => {
      await deps.nodes.create();
      return reply.code(204).send();
    },
  });
}
