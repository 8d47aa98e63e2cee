/** What a metrics response carries in `update` (spec §2.7). */
export interface UpdateManifest {
  id: string;
  version: string;
  url: string;
  sha256: string;
  size: number;
}

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
