import { Type, type Static } from 'typebox';

/** `update` of the answer to POST /api/node/metrics (spec §2.7, reference §1.6). */
export const UpdateManifestSchema = Type.Object({
  id: Type.String(),
  version: Type.String(),
  url: Type.String(),
  sha256: Type.String(),
  size: Type.Integer(),
});
export type UpdateManifest = Static<typeof UpdateManifestSchema>;

/** The answer to POST /api/node/metrics: the server's schema and the agent's type. */
export const MetricsReplySchema = Type.Object({
  ok: Type.Boolean(),
  update: Type.Union([UpdateManifestSchema, Type.Null()]),
});
export type MetricsReply = Static<typeof MetricsReplySchema>;
