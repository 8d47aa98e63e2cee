import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';
import { THEME_WARNING_HEADER } from '../../../../../protocol/theme.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'themes'>;

/**
 * GET /api/admin/system/themes/ — built-in and uploaded themes; an active theme that is missing
 * or broken is listed too and flagged with X-Dash-Warning.
 */
export function themesListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/system/themes/',
    aliases: ['/api/admin/system/themes'],
    auth: 'admin',
    storeErrorCode: 'theme_storage_unavailable',
    handler: async (_req, reply) => {
      const list = await deps.themes.list();
      if (list.warning) void reply.header(THEME_WARNING_HEADER, list.warning);
      return reply.code(200).send(list.items);
    },
  });
}
