import { defineRoute } from '../../../../route-def.js';
import type { AppDeps } from '../../../../../deps.js';
import { ReleaseNotesSchema } from '../../../../../protocol/api/dash-update.js';
import { parseChannel, parseLang, UpdateQuery } from '../../../../schemas/dash-update.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'systemSettings' | 'updater'>;

/** GET /api/admin/system/dash-update/release-notes?lang= — newest release's notes, escaped HTML. */
export function dashUpdateReleaseNotesRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: '/api/admin/system/dash-update/release-notes',
    auth: 'admin',
    errors: ['dash_update_unavailable', 'release_notes_fetch_failed'],
    validationErrorCode: 'invalid_fields',
    schema: { querystring: UpdateQuery, response: { 200: ReleaseNotesSchema } },
    handler: async (req) => {
      parseLang(req.query.lang, false);
      const settings = await deps.systemSettings.get();
      return deps.updater.releaseNotes(
        parseChannel(req.query.channel, settings.dash_update_channel),
      );
    },
  });
}
