import { gzipSync } from 'node:zlib';
import type { FrontItem, FrontState } from '../../../domain/front/front-state.js';
import type { Clock } from '../../../platform/clock.js';

export type Audience = 'guest' | 'admin';

export interface FrontSnapshot {
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

interface Built extends FrontSnapshot {
  version: number;
  list: readonly FrontItem[];
  builtAt: number;
}

/** Runtime updates are folded in at most this often; list changes (add, hide, delete) at once. */
const REFRESH_MS = 1000;

/**
 * GET /api/front/metrics is served from a pre-serialised, pre-compressed array per audience.
 * Per-node JSON is already cached by FrontState; a rebuild only concatenates and compresses,
 * and happens when data changed — never per request.
 */
export class FrontMetricsCache {
  private readonly built = new Map<Audience, Built>();

  constructor(
    private readonly front: FrontState,
    private readonly clock: Clock,
  ) {}

  get(audience: Audience): FrontSnapshot {
    const now = this.clock.now();
    const list = this.front.list();
    const have = this.built.get(audience);
    if (
      have &&
      (have.version === this.front.version ||
        (have.list === list && now - have.builtAt < REFRESH_MS))
    ) {
      return have;
    }
    const body = Buffer.from(this.render(this.visible(list, audience)), 'utf8');
    const version = this.front.version;
    const snap: Built = {
      body,
      gzip: gzipSync(body, { level: 6 }),
      etag: `"fm-${audience[0]}-${version}"`,
      version,
      list,
      builtAt: now,
    };
    this.built.set(audience, snap);
    return snap;
  }

  /** One page, rendered on demand from the per-node JSON (at most 1000 nodes). */
  page(audience: Audience, offset: number, limit: number): Buffer {
    const items = this.visible(this.front.list(), audience).slice(offset, offset + limit);
    return Buffer.from(this.render(items), 'utf8');
  }

  private visible(list: readonly FrontItem[], audience: Audience): readonly FrontItem[] {
    return audience === 'admin' ? list : list.filter((i) => i.guestVisible);
  }

  private render(items: readonly FrontItem[]): string {
    const parts: string[] = [];
    for (const item of items) {
      const json = this.front.json(item.nodeId);
      if (json !== undefined) parts.push(json);
    }
    return `[${parts.join(',')}]`;
  }
}
