import { defineRoute } from '../../../route-def.js';
import { LooseBody } from '../../../presenters/alerts.js';
import type { AppDeps } from '../../../../deps.js';
import {
  MtprotoCodeSchema,
  MtprotoPasswordRequiredSchema,
  MtprotoPingSchema,
} from '../../../../protocol/api/channels.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'channels'>;

const BASE = '/api/admin/alerts/channels/telegram/mtproto';

/** POST …/mtproto/code — `{channel_id}` → `{login_id, timeout?}`; Telegram sends a code. */
export function adminMtprotoCodeRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: `${BASE}/code`,
    auth: 'admin',
    bodyLimit: 4 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: LooseBody, response: { 200: MtprotoCodeSchema } },
    handler: async (req) => {
      const r = await deps.channels.mtprotoCode(req.body);
      return r.timeoutSec === undefined
        ? { login_id: r.loginId }
        : { login_id: r.loginId, timeout: r.timeoutSec };
    },
  });
}

/** POST …/mtproto/verify — `{login_id, code}` → 204, or 200 `{password_required: true}`. */
export function adminMtprotoVerifyRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: `${BASE}/verify`,
    auth: 'admin',
    bodyLimit: 4 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: LooseBody, response: { 200: MtprotoPasswordRequiredSchema } },
    handler: async (req, reply) => {
      const r = await deps.channels.mtprotoVerify(req.body);
      if (r.passwordRequired) return { password_required: true as const };
      return reply.code(204).send();
    },
  });
}

/** POST …/mtproto/password — `{login_id, password}` → 204 (session saved). */
export function adminMtprotoPasswordRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: `${BASE}/password`,
    auth: 'admin',
    bodyLimit: 4 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: LooseBody },
    handler: async (req, reply) => {
      await deps.channels.mtprotoPassword(req.body);
      return reply.code(204).send();
    },
  });
}

/** POST …/mtproto/ping — `{channel_id}` → `{valid, reason?}`. */
export function adminMtprotoPingRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: `${BASE}/ping`,
    auth: 'admin',
    bodyLimit: 4 * 1024,
    validationErrorCode: 'invalid_fields',
    schema: { body: LooseBody, response: { 200: MtprotoPingSchema } },
    handler: async (req) => deps.channels.mtprotoPing(req.body),
  });
}
