import { Type } from 'typebox';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'versions'>;

const VersionResponse = Type.Object({ version: Type.String(), node_version: Type.String() });

/** GET /api/version/ — service version and the node agent version bundled with it. */
export function versionDetailRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/version/',
    aliases: ['/api/version'],
    auth: 'public',
    schema: { response: { 200: VersionResponse } },
    handler: () => ({ version: deps.versions.dash, node_version: deps.versions.node }),
  });
}
