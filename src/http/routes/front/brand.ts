import { Type } from 'typebox';
import { defineRoute } from '../../route-def.js';
import type { AppDeps } from '../../../deps.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'systemSettings'>;

/** GET /api/front/brand — logo, page title and top bar text for the dashboard. */
export function brandRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/front/brand',
    auth: 'optional',
    schema: {
      response: {
        200: Type.Object({
          logo_url: Type.String(),
          page_title: Type.String(),
          topbar_text: Type.String(),
        }),
      },
    },
    handler: () => deps.systemSettings.get(),
  });
}
