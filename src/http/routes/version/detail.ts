import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';
import { VersionInfoSchema } from '../../../protocol/api/metrics.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'versions'>;

/** GET /api/version/ — service version and the node agent version bundled with it. */
export function versionDetailRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/version/',
    aliases: ['/api/version'],
    auth: 'public',
    schema: { response: { 200: VersionInfoSchema } },
    handler: () => ({ version: deps.versions.dash, node_version: deps.versions.node }),
  });
}
