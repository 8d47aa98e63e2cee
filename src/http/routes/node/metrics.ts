import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { NODE_BODY_LIMIT, defineRoute } from '../../route-def.js';
import { nodeOf } from '../../plugins/node-guard.js';

const Manifest = Type.Object({
  id: Type.String(),
  version: Type.String(),
  url: Type.String(),
  sha256: Type.String(),
  size: Type.Integer(),
});
const MetricsResponse = Type.Object({
  ok: Type.Boolean(),
  update: Type.Union([Manifest, Type.Null()]),
});

/**
 * POST /api/node/metrics — a node's runtime report (spec §4.4, reference §1). The body is
 * read here but decoded and checked against protocol/node-report.ts (400 on JSON or type
 * errors, 422 on value rules) by the ingest pipeline, off the HTTP thread.
 */
export function nodeMetricsRoute(deps: AppDeps) {
  return defineRoute({
    method: 'POST',
    path: '/api/node/metrics',
    auth: 'node',
    errors: ['invalid_metrics', 'service_unavailable'],
    bodyLimit: NODE_BODY_LIMIT,
    gzipBody: true,
    rawBody: true,
    schema: { response: { 200: MetricsResponse } },
    handler: async (req) => {
      const { nodeId, receivedAt } = nodeOf(req);
      deps.nodeUpgrades.agents.observe(nodeId, req.headers['user-agent']);
      const { update } = await deps.metricsIngest.accept({
        nodeId,
        receivedAt,
        body: req.body as Buffer | undefined,
        ip: req.ip,
      });
      return { ok: true, update };
    },
  });
}
