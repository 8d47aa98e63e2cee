import type { FrontState } from '../domain/front/front-state.js';
import { NODE_FAMILIES, familyHeader, labelValue, renderNodeFamilies } from './node-families.js';

/** Group names of each node (joined with ","), read once per refresh. */
export type GroupLabels = () => Promise<Map<number, string>>;

export interface NodeExpositionOptions {
  front: FrontState;
  groups: GroupLabels;
  /** A node is down when its last report is older than this. */
  offlineAfterMs: number;
  /** Wanted age of the node part; an older one is rebuilt before a scrape is answered. */
  refreshIntervalMs: number;
  /** Nodes rendered between two yields to the event loop. */
  sliceSize?: number;
}

interface NodeChunk {
  receivedAt: number;
  labels: string;
  /** The node's lines of every family, encoded once at render time, family after family. */
  bytes: Buffer;
  /** Where family i ends in `bytes` (it starts where family i - 1 ends). */
  ends: Uint32Array;
}

/** A node's families as one buffer with the end offset of each. */
function encodeChunk(families: readonly string[]): Pick<NodeChunk, 'bytes' | 'ends'> {
  const ends = new Uint32Array(families.length);
  let end = 0;
  families.forEach((f, i) => (ends[i] = end += Buffer.byteLength(f)));
  const bytes = Buffer.allocUnsafe(end);
  let at = 0;
  for (const f of families) at += bytes.write(f, at);
  return { bytes, ends };
}

/** Refreshes stop when nobody scraped for this long, so an idle /metrics costs nothing. */
const IDLE_AFTER_MS = 10 * 60_000;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The per-node part of GET /metrics, built from the in-memory front state (never the
 * database) and cached: a refresh re-renders only nodes whose report or labels changed since
 * the last one, in slices that yield to the event loop, and assembles the families into one
 * buffer. A scrape then only writes that buffer plus a line per node of `dash_node_up`, so its
 * cost does not grow with how many nodes reported since the last scrape. Refreshes run from a
 * job every refresh interval while someone scrapes, and before a scrape whose cache is older
 * than two intervals.
 */
export class NodeExposition {
  private readonly chunks = new Map<number, NodeChunk>();
  private body: Buffer = Buffer.alloc(0);
  private order: Array<{ nodeId: number; labels: string }> = [];
  private builtAt: number | undefined;
  private lastScrapeAt: number | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly o: NodeExpositionOptions) {}

  /** Job entry point: refreshes only while /metrics is being scraped. */
  async refreshIfScraped(now: number): Promise<void> {
    if (this.lastScrapeAt === undefined || now - this.lastScrapeAt > IDLE_AFTER_MS) return;
    await this.refresh(now);
  }

  /** Brings the cache up to date; concurrent calls share one refresh. */
  refresh(now: number): Promise<void> {
    this.running ??= this.rebuild(now).finally(() => (this.running = undefined));
    return this.running;
  }

  /** The node part of a scrape at `now`: cached families, then who is up. */
  async scrape(now: number): Promise<Buffer[]> {
    this.lastScrapeAt = now;
    // Receive times of nodes another instance's reports changed (FrontState.follow).
    await this.o.front.catchUp();
    if (this.builtAt === undefined || now - this.builtAt > 2 * this.o.refreshIntervalMs) {
      await this.refresh(now);
    }
    const front = this.o.front;
    let up = '# HELP dash_node_up Whether the node reported within the offline threshold.\n';
    up += '# TYPE dash_node_up gauge\n';
    let online = 0;
    for (const { nodeId, labels } of this.order) {
      const at = front.receivedAt(nodeId);
      const isUp = at !== undefined && now - at <= this.o.offlineAfterMs;
      if (isUp) online++;
      up += `dash_node_up{${labels}} ${isUp ? 1 : 0}\n`;
    }
    up += '# HELP dash_nodes Nodes that have reported, by state.\n# TYPE dash_nodes gauge\n';
    up += `dash_nodes{state="online"} ${online}\ndash_nodes{state="offline"} ${this.order.length - online}\n`;
    return [this.body, Buffer.from(up)];
  }

  private async rebuild(now: number): Promise<void> {
    const front = this.o.front;
    await front.catchUp();
    const groups = await this.o.groups();
    const slice = this.o.sliceSize ?? 250;
    const order: Array<{ nodeId: number; labels: string }> = [];
    const listed = new Set<number>();
    let rendered = 0;
    for (const { nodeId } of front.list()) {
      const meta = front.meta(nodeId);
      const receivedAt = front.receivedAt(nodeId);
      if (!meta || receivedAt === undefined) continue;
      const labels =
        `node_id="${nodeId}",node="${labelValue(meta.name)}",` +
        `group="${labelValue(groups.get(nodeId) ?? '')}"`;
      order.push({ nodeId, labels });
      listed.add(nodeId);
      const known = this.chunks.get(nodeId);
      if (known && known.receivedAt === receivedAt && known.labels === labels) continue;
      const view = front.view(nodeId);
      if (!view) continue;
      const families = renderNodeFamilies(view, labels, receivedAt);
      this.chunks.set(nodeId, { receivedAt, labels, ...encodeChunk(families) });
      if (++rendered % slice === 0) await yieldToLoop();
    }
    for (const nodeId of this.chunks.keys()) if (!listed.has(nodeId)) this.chunks.delete(nodeId);
    this.body = await this.assemble(order.map(({ nodeId }) => this.chunks.get(nodeId)));
    this.order = order;
    this.builtAt = now;
  }

  /**
   * The families of every node, family after family, copied byte range by byte range into one
   * buffer, yielding between families. (Joining the nodes' strings instead held the event loop
   * for ~0.9 s with 10,000 nodes: docs/ingest-performance.md#tail-latency.)
   */
  private async assemble(chunks: ReadonlyArray<NodeChunk | undefined>): Promise<Buffer> {
    const headers = NODE_FAMILIES.map((family) => Buffer.from(familyHeader(family)));
    let size = 0;
    for (const h of headers) size += h.length;
    for (const c of chunks) size += c?.bytes.length ?? 0;
    const body = Buffer.allocUnsafe(size);
    let at = 0;
    for (let i = 0; i < headers.length; i++) {
      at += headers[i]!.copy(body, at);
      for (const c of chunks) {
        if (!c) continue;
        const start = i === 0 ? 0 : c.ends[i - 1]!;
        if (c.ends[i]! > start) at += c.bytes.copy(body, at, start, c.ends[i]);
      }
      await yieldToLoop();
    }
    return body;
  }
}

/** "a,b" label values of every node's groups, from the group memberships. */
export async function groupLabelsFrom(
  memberships: () => Promise<Array<{ name: string; nodes: Array<{ id: number }> }>>,
): Promise<Map<number, string>> {
  const names = new Map<number, string[]>();
  for (const g of await memberships()) {
    for (const n of g.nodes) {
      const list = names.get(n.id);
      if (list) list.push(g.name);
      else names.set(n.id, [g.name]);
    }
  }
  const out = new Map<number, string>();
  for (const [id, list] of names) out.set(id, list.sort().join(','));
  return out;
}
