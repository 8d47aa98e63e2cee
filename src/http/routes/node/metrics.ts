import type { AppDeps } from '../../../deps.js';
import { NODE_BODY_LIMIT, defineRoute } from '../../route-def.js';
import { nodeOf } from '../../plugins/node-guard.js';
import { MetricsReplySchema, metricsReply } from '../../presenters/node-metrics.js';
import { nodeMetricsLane, type LaneDeps } from './metrics-lane.js';

/** The services these routes use (not the whole composition root). */
type Deps = Pick<AppDeps, 'config' | 'metricsIngest' | 'nodeUpgrades'> & LaneDeps;

/**
 * POST /api/node/metrics — a node's runtime report (spec §4.4, reference §1). The body is
 * read here but decoded and checked against protocol/node-report.ts (400 on JSON or type
 * errors, 422 on value rules) by the ingest pipeline, off the HTTP thread. A well-formed report
 * from a known node is answered by the fast lane beside this file.
 */
export function nodeMetricsRoute(deps: Deps) {
  return defineRoute({
    method: 'POST',
    path: '/api/node/metrics',
    auth: 'node',
    lane: nodeMetricsLane(deps, deps.config.trustedProxies),
    errors: ['invalid_metrics', 'service_unavailable'],
    bodyLimit: NODE_BODY_LIMIT,
    gzipBody: true,
    rawBody: true,
    schema: { response: { 200: MetricsReplySchema } },
    handler: async (req) => {
      const { nodeId, receivedAt } = nodeOf(req);
      deps.nodeUpgrades.agents.observe(nodeId, req.headers['user-agent']);
      const { update } = await deps.metricsIngest.accept({
        nodeId,
        receivedAt,
        body: req.body as Buffer | undefined,
        ip: req.ip,
      });
      return metricsReply(update);
    },
  });
}
