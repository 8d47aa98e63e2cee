import type { UpdateManifest } from '../../protocol/node-metrics-reply.js';

/** What a metrics response carries in `update` (spec §2.7): the wire model's manifest. */
export type { UpdateManifest };

/**
 * Answers "should this node be offered an update?" on every accepted metrics report. The node
 * upgrade service implements it; until then nothing is offered.
 */
export interface UpdateOffers {
  manifestFor(nodeId: number, reportedVersion: string): Promise<UpdateManifest | null>;
}

export const noUpdateOffers: UpdateOffers = {
  manifestFor: async () => null,
};
