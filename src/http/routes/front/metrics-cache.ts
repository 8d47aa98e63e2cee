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

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
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

  /**
   * The audience's snapshot: synchronously when the one held is still current, or once the
   * front state has caught up with the reports it only noted (another instance's, on an
   * instance that is not the alert leader: FrontState.follow), which takes a read.
   */
  get(audience: Audience): FrontSnapshot | Promise<FrontSnapshot> {
    const have = this.built.get(audience);
    if (
      have &&
      (have.version === this.front.version ||
        (have.list === this.front.list() && this.clock.now() - have.builtAt < REFRESH_MS))
    ) {
      return have;
    }
    const caught = this.front.catchUp();
    return caught ? caught.then(() => this.build(audience)) : this.build(audience);
  }

  /** One page, rendered on demand from the per-node JSON (at most 1000 nodes). */
  async page(audience: Audience, offset: number, limit: number): Promise<Buffer> {
    await this.front.catchUp();
    const items = this.visible(this.front.list(), audience).slice(offset, offset + limit);
    return this.render(items);
  }

  private build(audience: Audience): FrontSnapshot {
    const now = this.clock.now();
    const list = this.front.list();
    const have = this.built.get(audience);
    // Another caller may have built it while this one waited for the catch-up.
    if (have?.version === this.front.version) return have;
    const body = this.render(this.visible(list, audience));
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

  private visible(list: readonly FrontItem[], audience: Audience): readonly FrontItem[] {
    return audience === 'admin' ? list : list.filter((i) => i.guestVisible);
  }

  /** The views' bytes copied straight from their slabs: no string per node on the JS heap. */
  private render(items: readonly FrontItem[]): Buffer {
    const parts: Buffer[] = [OPEN];
    for (const item of items) {
      const bytes = this.front.jsonBytes(item.nodeId);
      if (bytes === undefined) continue;
      if (parts.length > 1) parts.push(COMMA);
      parts.push(bytes);
    }
    parts.push(CLOSE);
    return Buffer.concat(parts);
  }
}
