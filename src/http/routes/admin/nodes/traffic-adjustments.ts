import { Type } from 'typebox';
import { defineRoute } from '../../../route-def.js';
import { pathId } from '../../../schemas/common.js';
import { AppError } from '../../../../errors/app-error.js';
import type { AppDeps } from '../../../../deps.js';
import { TrafficAdjustmentSchema, TrafficAdjustmentsSchema } from '../../../../protocol/traffic.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'traffic'>;

const PATH = '/api/admin/nodes/:id/traffic/adjustments';

/** Fields are checked one by one in the domain, each with its own code. */
const Body = Type.Object(
  {
    iface: Type.Optional(Type.Unknown()),
    cycle_start: Type.Optional(Type.Unknown()),
    direction: Type.Optional(Type.Unknown()),
    billed_bytes: Type.Optional(Type.Unknown()),
    note: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);

const BODY_ERRORS = [
  'invalid_fields',
  'invalid_traffic_adjustment_iface',
  'invalid_traffic_adjustment_cycle',
  'invalid_traffic_adjustment_direction',
  'invalid_traffic_adjustment_bytes',
  'invalid_traffic_adjustment_note',
  'traffic_adjustment_cycle_open',
  'traffic_adjustment_no_data',
] as const;

/** GET …/traffic/adjustments?iface= — every recorded bill of the node, newest first. */
export function adminTrafficAdjustmentsListRoute(deps: Deps) {
  return defineRoute({
    method: 'GET',
    path: PATH,
    auth: 'admin',
    summary: "List a node's recorded bills (traffic calibration), revoked ones included",
    errors: ['invalid_traffic_adjustment_iface'],
    schema: {
      params: Type.Object({ id: Type.String() }),
      querystring: Type.Object({ iface: Type.Optional(Type.String()) }),
      response: { 200: TrafficAdjustmentsSchema },
    },
    handler: async (req) => {
      const raw = req.query.iface;
      const iface = raw === undefined ? undefined : raw.trim();
      if (iface !== undefined && (iface === '' || [...iface].length > 64)) {
        throw new AppError('invalid_traffic_adjustment_iface');
      }
      return deps.traffic.adjustments.list(pathId(req.params.id), iface);
    },
  });
}

/** POST …/traffic/adjustments — record what the provider billed for a closed cycle (201). */
export function adminTrafficAdjustmentsCreateRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: PATH,
    auth: 'admin',
    bodyLimit: 8 * 1024,
    validationErrorCode: 'invalid_fields',
    summary: "Record a provider's bill for one closed cycle; a newer record supersedes an older",
    errors: BODY_ERRORS,
    schema: {
      params: Type.Object({ id: Type.String() }),
      body: Body,
      response: { 201: TrafficAdjustmentSchema },
    },
    handler: async (req, reply) => {
      const row = await deps.traffic.adjustments.create(pathId(req.params.id), req.body);
      return reply.code(201).send(row);
    },
  });
}

/** POST …/traffic/adjustments/{adjustmentId}/revoke — figures return to raw; the record stays. */
export function adminTrafficAdjustmentsRevokeRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: `${PATH}/:adjustmentId/revoke`,
    auth: 'admin',
    summary: 'Revoke a recorded bill (kept, marked revoked)',
    errors: ['traffic_adjustment_revoked'],
    schema: {
      params: Type.Object({ id: Type.String(), adjustmentId: Type.String() }),
      response: { 200: TrafficAdjustmentSchema },
    },
    handler: async (req) =>
      deps.traffic.adjustments.revoke(pathId(req.params.id), pathId(req.params.adjustmentId)),
  });
}
