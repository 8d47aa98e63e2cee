import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { BrandSchema } from '../../../protocol/api/front.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'systemSettings' | 'config'>;

/**
 * GET /api/front/brand — logo, page title and top bar text for the dashboard, and whether this
 * Dash runs an agent for its own host (`local_agent`), so an empty first-run dashboard can say
 * it is waiting for that agent's first report rather than that there are no nodes.
 */
export function brandRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/front/brand',
    auth: 'optional',
    schema: {
      response: { 200: BrandSchema },
    },
    handler: async () => ({
      ...(await deps.systemSettings.get()),
      local_agent: deps.config.localAgent,
    }),
  });
}
