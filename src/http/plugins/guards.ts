import type { AppDeps } from '../../deps.js';
import type { AuthGuards } from '../server.js';
import { adminGuard, optionalAdminGuard } from './admin-guard.js';
import { nodeGuard } from './node-guard.js';

/** The services the guards use (not the whole composition root). */
type Deps = Pick<AppDeps, 'auth'> & Parameters<typeof nodeGuard>[0];

/** Builds the onRequest guard for each auth mode from the app's services. */
export function buildGuards(deps: Deps): AuthGuards {
  return {
    admin: adminGuard(deps.auth),
    optional: optionalAdminGuard(deps.auth),
    node: nodeGuard(deps),
  };
}
