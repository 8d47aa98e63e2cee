import { Type, type Static } from 'typebox';
import type { UpdateManifest } from '../../domain/nodes/update-offers.js';

const ManifestSchema = Type.Object({
  id: Type.String(),
  version: Type.String(),
  url: Type.String(),
  sha256: Type.String(),
  size: Type.Integer(),
});

/** The answer to POST /api/node/metrics (spec §2.7). */
export const MetricsReplySchema = Type.Object({
  ok: Type.Boolean(),
  update: Type.Union([ManifestSchema, Type.Null()]),
});
export type MetricsReply = Static<typeof MetricsReplySchema>;

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
