import type { NodeView, SmartView, ThermalView } from '../../protocol/front-view.js';
import type { CurrentRow, FrontRepo } from '../../store/ports.js';
import type { NodeEvent } from '../nodes/node-events.js';
import { nodeMetaFromRow, type NodeMeta } from './node-meta.js';
import { bodyReadings, type ReportDigest } from '../ingest/report-digest.js';
import {
  bodyJson,
  renderBody,
  renderBodyJson,
  renderFacts,
  renderNodePart,
  sameFacts,
  type RenderFacts,
  type SidePayloads,
} from './render.js';
import type { RuntimeView } from './runtime-view.js';
import { ViewArena, ViewSlab, type ArenaStats } from './view-slab.js';
import { FollowBacklog } from './follow-backlog.js';
import { FollowReadAhead, type ReadAheadOptions } from './follow-read-ahead.js';

export type { SidePayloads } from './render.js';

/** Nodes per statement when catching up with followed reports (bounds one result's size). */
const CATCH_UP_CHUNK = 500;

interface Entry {
  meta: NodeMeta;
  facts: RenderFacts;
  nodeJson: string;
  /** Receive time of the projected report; undefined until the node's first report. */
  receivedAt?: number;
  /**
   * The stored projection load() found, not rendered yet: rendered when the view is first
   * read or by renderPending(), whichever comes first; a newer report replaces it unrendered.
   */
  pending?: CurrentRow;
  /** The assembled view. */
  slab: ViewSlab;
}

/** One node of the front list. */
export interface FrontItem {
  nodeId: number;
  guestVisible: boolean;
}

export interface FrontStateOptions {
  repo: FrontRepo;
  /** ceil(node offline threshold in seconds): the view's observation.stale_after_sec. */
  staleAfterSec: number;
  warn: (msg: string, ctx: Record<string, unknown>) => void;
  /**
   * Told whenever what a node's view body is rendered from changes (null: the node is gone),
   * so whoever renders report views ahead of apply (the ingest thread) stays in step.
   */
  onFacts?: (nodeId: number, facts: RenderFacts | null) => void;
}

/**
 * Hot state for GET /api/front/metrics: every live node's front view kept as pre-serialised
 * JSON (off the JS heap, in one ViewArena), updated on each report that becomes current and on
 * node record changes. SMART, thermal and pressure payloads are kept apart from the rendered
 * body (apart in the store too) and spliced in only together with the report they came with,
 * i.e. with the snapshot's own received_at (spec §2.3). Loaded from the store at start.
 */
export class FrontState {
  private readonly entries = new Map<number, Entry>();
  /** Every view's bytes, in a few large chunks (see ViewArena). */
  private readonly arena = new ViewArena();
  private readonly loading = new Map<number, Promise<NodeMeta | undefined>>();
  private sorted: FrontItem[] | undefined;
  private rev = 0;
  private readonly backlog = new FollowBacklog((ids) => this.stageFollowed(ids));
  private readAhead: FollowReadAhead | undefined;
  /** Nodes a catch-up staged while reading ahead, for it to render (renderFollowed). */
  private readonly stagedFollowed = new Set<number>();

  constructor(private readonly opts: FrontStateOptions) {}

  /** Increases on every change of any view or of the list. */
  get version(): number {
    return this.rev;
  }

  async load(): Promise<void> {
    const [rows, currents] = await Promise.all([
      this.opts.repo.liveNodes(),
      this.opts.repo.currentRows(),
    ]);
    for (const e of this.entries.values()) e.slab.free();
    this.entries.clear();
    for (const row of rows) this.putMeta(nodeMetaFromRow(row, this.warner(row.id)));
    // Rendering 10,000 views was a third of the HTTP thread's start: they are rendered on
    // first read instead (never served unrendered) or by renderPending() once Dash serves.
    for (const c of currents) this.stage(c);
    this.changed(true);
  }

  /**
   * Renders up to `max` of the views load() left unrendered; returns how many are left. A
   * view is rendered when first read anyway: this only takes that cost off the first reads.
   */
  renderPending(max: number): number {
    let done = 0;
    for (const e of this.entries.values()) {
      if (!e.pending) continue;
      if (done === max) return this.pendingCount();
      this.settle(e);
      done++;
    }
    return 0;
  }

  private pendingCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.pending) n++;
    return n;
  }

  meta(nodeId: number): NodeMeta | undefined {
    return this.entries.get(nodeId)?.meta;
  }

  /** Node meta, read from the store the first time a node is seen (e.g. created after start). */
  ensureNode(nodeId: number): NodeMeta | Promise<NodeMeta | undefined> {
    const found = this.entries.get(nodeId);
    if (found) return found.meta;
    let p = this.loading.get(nodeId);
    if (!p) {
      p = this.loadNode(nodeId).finally(() => this.loading.delete(nodeId));
      this.loading.set(nodeId, p);
    }
    return p;
  }

  /**
   * Installs the view of a report that just became current. An older report (by receive time)
   * never replaces a newer one; an unknown (deleted) node is ignored.
   */
  apply(nodeId: number, runtime: RuntimeView, side: SidePayloads): boolean {
    const e = this.entries.get(nodeId);
    if (!e || (e.receivedAt !== undefined && e.receivedAt > runtime.receivedAt)) return false;
    const body = renderBodyJson(e.facts, runtime, side, this.opts.staleAfterSec);
    return this.applyRendered(nodeId, runtime.receivedAt, body);
  }

  /**
   * The same as apply, for a body already rendered by renderBodyJson (on the ingest thread), as
   * a string or as its UTF-8 bytes.
   */
  applyRendered(nodeId: number, receivedAt: number, body: string | Uint8Array): boolean {
    const e = this.entries.get(nodeId);
    if (!e || (e.receivedAt !== undefined && e.receivedAt > receivedAt)) return false;
    const firstTime = e.receivedAt === undefined;
    e.receivedAt = receivedAt;
    e.pending = undefined;
    if (typeof body === 'string') e.slab.write(e.nodeJson, [body]);
    else e.slab.writeBytes(e.nodeJson, body);
    this.changed(firstTime);
    return true;
  }

  /** Re-reads a node's record and static facts (after a static report) and re-renders it. */
  async refreshNode(nodeId: number): Promise<void> {
    const meta = await this.loadNode(nodeId, true);
    const e = this.entries.get(nodeId);
    if (!meta || e?.receivedAt === undefined) return;
    const [row] = await this.opts.repo.currentRows([nodeId]);
    // A newer report applied meanwhile was already rendered with the new meta.
    if (row && row.receivedAt === e.receivedAt) this.restore(row);
  }

  /**
   * Re-reads the stored current projections of these nodes (another instance accepted their
   * reports) and installs those newer than the view held here; returns the nodes that changed.
   * With `digests`, each installed view's alert readings and interface counters are handed to
   * it, taken from the objects the view was just rendered from: the alert leader needs them
   * for every report of the other instances, and parsing the rendered view again for them
   * cost it about as much as rendering it.
   */
  async refreshCurrent(
    nodeIds: readonly number[],
    digests?: (nodeId: number, receivedAt: number, digest: ReportDigest) => void,
  ): Promise<number[]> {
    if (nodeIds.length === 0) return [];
    const rows = await this.opts.repo.currentRows(nodeIds);
    const changed: number[] = [];
    for (const row of rows) {
      const before = this.entries.get(row.nodeId)?.receivedAt;
      if (!this.entries.has(row.nodeId)) await this.loadNode(row.nodeId);
      const digest = this.restore(row, digests !== undefined);
      const after = this.entries.get(row.nodeId)?.receivedAt;
      if (after === undefined || after === before) continue;
      changed.push(row.nodeId);
      // The same node may have been installed by a newer row meanwhile (loadNode awaited).
      if (digests && digest && after === row.receivedAt) digests(row.nodeId, after, digest);
    }
    return changed;
  }

  /**
   * Notes that other instances' reports changed these nodes' stored projections, without
   * reading them: an instance that is not the alert leader needs them only when someone reads
   * (FollowBacklog). Readers of views, the list or receive times call catchUp() first.
   */
  follow(nodeIds: readonly number[]): void {
    if (nodeIds.length === 0) return;
    this.backlog.note(nodeIds);
    this.readAhead?.noted();
    // A node without a view (or not known here yet) joins the list with this report: a list
    // change, which readers fold in at once rather than within their refresh interval.
    this.changed(nodeIds.some((id) => this.entries.get(id)?.receivedAt === undefined));
  }

  /**
   * Re-reads the projections follow() noted before this call, staged to be rendered when first
   * read; undefined when none waits (nothing to await: the state is as fresh as the store).
   */
  catchUp(): Promise<void> | undefined {
    this.readAhead?.readerSeen();
    return this.backlog.catchUp();
  }

  /**
   * While front views are read (a catchUp() within the window), catches up with followed
   * reports in the background, so readers find little to catch up (FollowReadAhead). For an
   * instance that may not lead; the leader never calls follow(), so it never reads ahead.
   */
  readAheadOfReaders(opts: Omit<ReadAheadOptions, 'warn'>): void {
    this.readAhead?.stop();
    const backlog = this.backlog;
    this.readAhead = new FollowReadAhead(
      {
        catchUp: () => backlog.catchUp(),
        renderFollowed: (max) => this.renderFollowed(max),
        get unread() {
          return backlog.size;
        },
      },
      { ...opts, warn: this.opts.warn },
    );
  }

  stopReadingAhead(): void {
    this.readAhead?.stop();
    this.readAhead = undefined;
    this.stagedFollowed.clear();
  }

  /** Views staged and not rendered yet (rendered when first read; for tests and diagnosis). */
  get unrenderedViews(): number {
    return this.pendingCount();
  }

  /** Nodes follow() noted and no catchUp() re-read yet. */
  get unreadFollowed(): number {
    return this.backlog.size;
  }

  /** Follows node record changes made by the admin API. */
  async onNodeEvent(event: NodeEvent): Promise<void> {
    switch (event.type) {
      case 'deleted':
        this.drop(event.nodeId);
        return;
      case 'created':
      case 'updated':
        await this.loadNode(event.nodeId, true);
        return;
      case 'reordered': {
        const rows = await this.opts.repo.liveNodes();
        for (const row of rows) this.putMeta(nodeMetaFromRow(row, this.warner(row.id)));
        this.changed(true);
        return;
      }
    }
  }

  /**
   * Nodes with a current projection, in front-list order: display order descending, then
   * title, then id. Their JSON comes from json(nodeId).
   */
  list(): readonly FrontItem[] {
    if (!this.sorted) {
      const items: Array<FrontItem & { order: number; title: string }> = [];
      for (const [nodeId, e] of this.entries) {
        if (e.receivedAt === undefined) continue;
        items.push({
          nodeId,
          guestVisible: e.meta.guestVisible,
          order: e.meta.displayOrder,
          title: e.meta.name,
        });
      }
      items.sort(
        (a, b) =>
          b.order - a.order ||
          (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) ||
          a.nodeId - b.nodeId,
      );
      this.sorted = items.map(({ nodeId, guestVisible }) => ({ nodeId, guestVisible }));
    }
    return this.sorted;
  }

  /** Receive time of the node's current projection. */
  receivedAt(nodeId: number): number | undefined {
    return this.entries.get(nodeId)?.receivedAt;
  }

  /** The node's front view JSON, or undefined when it has no current projection. */
  json(nodeId: number): string | undefined {
    const e = this.entries.get(nodeId);
    if (e?.pending) this.settle(e);
    return e?.receivedAt === undefined ? undefined : e.slab.text();
  }

  /**
   * The same view as UTF-8 bytes without copying, for building list responses. Valid until
   * the node's view next changes: copy (or write out) before yielding to other work.
   */
  jsonBytes(nodeId: number): Buffer | undefined {
    const e = this.entries.get(nodeId);
    if (e?.pending) this.settle(e);
    return e?.receivedAt === undefined ? undefined : e.slab.bytes();
  }

  /** Memory held by the views (for tests and diagnosis). */
  viewMemory(): ArenaStats {
    return this.arena.stats();
  }

  /** The view as an object (parses it: for tests and rare readers, not the ingest path). */
  view(nodeId: number): NodeView | undefined {
    const json = this.json(nodeId);
    return json === undefined ? undefined : (JSON.parse(json) as NodeView);
  }

  private warner(nodeId: number) {
    return (msg: string) => this.opts.warn(msg, { nodeId });
  }

  private async loadNode(nodeId: number, force = false): Promise<NodeMeta | undefined> {
    const [row] = await this.opts.repo.liveNodes([nodeId]);
    if (!row) {
      this.drop(nodeId);
      return undefined;
    }
    const known = this.entries.has(nodeId);
    if (known && !force) return this.entries.get(nodeId)?.meta;
    const meta = nodeMetaFromRow(row, this.warner(nodeId));
    this.putMeta(meta);
    if (!known) {
      const [current] = await this.opts.repo.currentRows([nodeId]);
      if (current) this.restore(current);
    }
    this.changed(true);
    return meta;
  }

  private putMeta(meta: NodeMeta): void {
    const e = this.entries.get(meta.id);
    const nodeJson = JSON.stringify(renderNodePart(meta));
    const facts = renderFacts(meta);
    if (!e || !sameFacts(e.facts, facts)) this.opts.onFacts?.(meta.id, facts);
    if (e) {
      e.meta = meta;
      e.facts = facts;
      if (nodeJson !== e.nodeJson) {
        e.nodeJson = nodeJson;
        e.slab.replaceNode(nodeJson);
      }
    } else {
      this.entries.set(meta.id, { meta, facts, nodeJson, slab: new ViewSlab(this.arena) });
    }
  }

  private drop(nodeId: number): void {
    const e = this.entries.get(nodeId);
    if (!e) return;
    this.entries.delete(nodeId);
    e.slab.free();
    this.opts.onFacts?.(nodeId, null);
    this.changed(true);
  }

  /**
   * Takes a stored projection as the node's view, to be rendered when needed (settle); returns
   * whether it was taken.
   */
  private stage(c: CurrentRow): boolean {
    const e = this.entries.get(c.nodeId);
    if (!e || (e.receivedAt !== undefined && e.receivedAt >= c.receivedAt)) return false;
    const firstTime = e.receivedAt === undefined;
    e.receivedAt = c.receivedAt;
    e.pending = c;
    if (firstTime) this.sorted = undefined;
    return true;
  }

  /** The catch-up read: the noted nodes' stored projections, staged as load() stages them. */
  private async stageFollowed(nodeIds: readonly number[]): Promise<void> {
    for (let at = 0; at < nodeIds.length; at += CATCH_UP_CHUNK) {
      const rows = await this.opts.repo.currentRows(nodeIds.slice(at, at + CATCH_UP_CHUNK));
      let staged = false;
      for (const row of rows) {
        // A node created on another instance: loadNode reads its projection itself.
        if (!this.entries.has(row.nodeId)) await this.loadNode(row.nodeId);
        else if (this.stage(row)) {
          staged = true;
          if (this.readAhead) this.stagedFollowed.add(row.nodeId);
        }
      }
      if (staged) this.changed(false);
    }
  }

  /** Renders up to `max` of the views catch-ups staged while reading ahead; returns how many are left. */
  private renderFollowed(max: number): number {
    let done = 0;
    for (const id of this.stagedFollowed) {
      if (done === max) break;
      this.stagedFollowed.delete(id);
      const e = this.entries.get(id);
      // Rendered by a reader meanwhile, or replaced by a newer report: nothing to do.
      if (!e?.pending) continue;
      this.settle(e);
      done++;
    }
    return this.stagedFollowed.size;
  }

  /** A stored projection's runtime view; undefined, with a warning, when it is unreadable. */
  private storedRuntime(c: CurrentRow): RuntimeView | undefined {
    try {
      return JSON.parse(c.runtimeJson) as RuntimeView;
    } catch {
      this.opts.warn('stored current projection is unreadable; waiting for the next report', {
        nodeId: c.nodeId,
      });
      return undefined;
    }
  }

  /** Renders a staged projection (with the node's facts as they are now). */
  private settle(e: Entry): void {
    const c = e.pending;
    if (!c) return;
    e.pending = undefined;
    const runtime = this.storedRuntime(c);
    if (!runtime) {
      e.receivedAt = undefined;
      this.changed(true);
      return;
    }
    e.slab.write(e.nodeJson, [renderBodyJson(e.facts, runtime, c, this.opts.staleAfterSec)]);
  }

  /**
   * Installs a stored projection unless the view held is newer; with `withDigest`, returns
   * what the accepted-report listeners read of it (see refreshCurrent).
   */
  private restore(c: CurrentRow, withDigest = false): ReportDigest | undefined {
    const e = this.entries.get(c.nodeId);
    if (!e || (e.receivedAt !== undefined && e.receivedAt > c.receivedAt)) return undefined;
    const runtime = this.storedRuntime(c);
    if (!runtime) return undefined;
    if (!withDigest) {
      this.apply(c.nodeId, runtime, c);
      return undefined;
    }
    const body = renderBody(e.facts, runtime, this.opts.staleAfterSec);
    if (!this.applyRendered(c.nodeId, runtime.receivedAt, bodyJson(body, c))) return undefined;
    return {
      // As the view shows them: a counter the report lacked is 0 there, so it is left unknown.
      counters: (runtime.network.by_interface ?? []).map((i) => ({
        name: i.name,
        rx: i.bytes_recv > 0 ? i.bytes_recv : null,
        tx: i.bytes_sent > 0 ? i.bytes_sent : null,
      })),
      readings: bodyReadings(
        body,
        this.storedSide<SmartView>(c.smartJson),
        this.storedSide<ThermalView>(c.thermalJson),
      ),
    };
  }

  /** A stored SMART or thermal view (unreadable: as if the report lacked it). */
  private storedSide<T>(json: string | null): T | undefined {
    if (json === null) return undefined;
    try {
      return JSON.parse(json) as T;
    } catch {
      return undefined;
    }
  }

  private changed(listChanged: boolean): void {
    if (listChanged) this.sorted = undefined;
    this.rev++;
  }
}
