import type { UpdateManifest } from '../../domain/nodes/update-offers.js';
import { MetricsReplySchema, type MetricsReply } from '../../protocol/node-metrics-reply.js';

export { MetricsReplySchema };

/**
 * The one presenter of that answer, for the route and its fast lane alike: the manifest's wire
 * fields only, in schema order, so both write the same bytes.
 */
export function metricsReply(update: UpdateManifest | null): MetricsReply {
  return {
    ok: true,
    update: update && {
      id: update.id,
      version: update.version,
      url: update.url,
      sha256: update.sha256,
      size: update.size,
    },
  };
}
