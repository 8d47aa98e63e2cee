import type { SessionChange } from '../auth/auth-service.js';
import type { NodeEvent, NodeEvents } from '../nodes/node-events.js';
import { MAX_MESSAGE_BYTES, type ClusterBus } from './cluster-bus.js';
import { ChangeBatcher } from './change-batcher.js';
import { packIds, unpackIds } from './id-payloads.js';

/** How long a report's node id waits for others before the batch is published. */
export const FRONT_BATCH_MS = 50;

/** The hot state of one instance that follows what other instances change. */
export interface ClusterFollowers {
  front: {
    /**
     * Follows these nodes' stored current projections (re-reads them now, or notes them to be
     * read when first needed); returns those whose view changed now.
     */
    refreshCurrent(nodeIds: readonly number[]): Promise<number[]>;
    /** Re-reads every node and projection. */
    load(): Promise<void>;
  };
  /** Told of the nodes whose view another instance's report just changed (alert evaluation). */
  onRemoteReports?: (nodeIds: readonly number[]) => void | Promise<void>;
  /** Node record changes are re-emitted here (front meta, uptime, upgrades, alerts follow). */
  nodeEvents: NodeEvents;
  /** Re-reads the node secret index (a node created, deleted or given a new secret). */
  reloadSecrets(): Promise<void>;
  auth: {
    remoteChange(change: SessionChange): Promise<void>;
    load(): Promise<void>;
  };
  /** Limiters by scope, told when a key reached its limit on another instance. */
  limiters: Record<string, { limitedElsewhere(key: string, windowStart: number): void }>;
  /** Settings caches by area, re-read when another instance saved that area. */
  settings: Record<string, () => void | Promise<void>>;
}

export interface ClusterSyncOptions {
  bus: ClusterBus;
  /** The install's channel (database-wide: installs sharing a database need distinct ones). */
  channel: string;
  /** Random per process: an instance skips its own messages. */
  instanceId: string;
  followers: ClusterFollowers;
  onError: (err: unknown) => void;
}

const NODE_EVENT_CODES = { created: 'c', updated: 'u', deleted: 'd', reordered: 'r' } as const;

/**
 * Keeps the hot state of Dash instances sharing one PostgreSQL in step (issue 23). Every change
 * an instance makes is published after its commit as a small message naming what changed (node
 * ids of reports that became current, batched; node record events; session ids; rate-limited
 * keys; settings areas); every other instance re-reads what the message names from the store.
 * After the bus lost its connection (`resync`), everything is re-read, since messages may have
 * been missed. Message: `<instance>|<kind>|<body>`.
 */
export class ClusterSync {
  private readonly front: ChangeBatcher;
  private readonly replayed = new WeakSet<NodeEvent>();
  /** Node ids heard but not yet re-read: one read at a time, later ids coalesce. */
  private queued = new Set<number>();
  private reading: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly o: ClusterSyncOptions) {
    this.front = new ChangeBatcher(
      FRONT_BATCH_MS,
      async (ids) => {
        for (const p of packIds(this.prefix('f'), ids, MAX_MESSAGE_BYTES)) await this.send(p);
      },
      o.onError,
    );
  }

  /** Listens, and publishes this instance's node record changes from now on. */
  async start(): Promise<void> {
    this.unsubscribe = await this.o.bus.subscribe(this.o.channel, (m) => this.receive(m));
    this.o.followers.nodeEvents.on((event) => {
      if (this.replayed.has(event)) return;
      const body = event.type === 'reordered' ? '' : String(event.nodeId);
      this.publish(`n|${NODE_EVENT_CODES[event.type]}${body}`);
    });
  }

  /** A report accepted here became its node's current projection. */
  reportApplied(nodeId: number): void {
    this.front.add(nodeId);
  }

  /** A node's view changed here for another reason (static report). */
  nodeRefreshed(nodeId: number): void {
    this.publish(`n|u${nodeId}`);
  }

  sessionChanged(change: SessionChange): void {
    this.publish(change.type === 'all' ? 's|*' : `s|${change.id}`);
  }

  keyLimited(scope: string, key: string, windowStart: number): void {
    this.publish(`l|${scope}|${windowStart}|${key}`);
  }

  settingsChanged(area: string): void {
    this.publish(`g|${area}`);
  }

  /** Messages may have been missed (the bus reconnected): re-read every shared state. */
  async resync(): Promise<void> {
    const f = this.o.followers;
    await f.front.load();
    await f.reloadSecrets();
    await f.auth.load();
    for (const reload of Object.values(f.settings)) await reload();
  }

  /** Publishes what is batched; resolves when sent and every re-read heard so far is done. */
  async flush(): Promise<void> {
    await this.front.flush();
    await this.reading;
  }

  stop(): void {
    this.unsubscribe?.();
  }

  private prefix(kind: string): string {
    return `${this.o.instanceId}|${kind}|`;
  }

  private publish(rest: string): void {
    this.send(`${this.o.instanceId}|${rest}`).catch(this.o.onError);
  }

  private send(payload: string): Promise<void> {
    return this.o.bus.publish(this.o.channel, payload);
  }

  private receive(message: string): void {
    const first = message.indexOf('|');
    const second = message.indexOf('|', first + 1);
    if (first < 0 || second < 0 || message.slice(0, first) === this.o.instanceId) return;
    const kind = message.slice(first + 1, second);
    const body = message.slice(second + 1);
    const done = (p: void | Promise<void>) => Promise.resolve(p).catch(this.o.onError);
    switch (kind) {
      case 'f':
        for (const id of unpackIds(body)) this.queued.add(id);
        this.reading ??= this.readQueued();
        return;
      case 'n':
        void done(this.nodeEvent(body));
        return;
      case 's':
        void done(
          this.o.followers.auth.remoteChange(
            body === '*' ? { type: 'all' } : { type: 'session', id: body },
          ),
        );
        return;
      case 'l': {
        const [scope = '', start = '', ...key] = body.split('|');
        this.o.followers.limiters[scope]?.limitedElsewhere(key.join('|'), Number(start));
        return;
      }
      case 'g': {
        const reload = this.o.followers.settings[body];
        if (reload) void done(reload());
        return;
      }
    }
  }

  private async readQueued(): Promise<void> {
    try {
      while (this.queued.size > 0) {
        const ids = [...this.queued];
        this.queued = new Set();
        const changed = await this.o.followers.front.refreshCurrent(ids);
        if (changed.length > 0) await this.o.followers.onRemoteReports?.(changed);
      }
    } catch (err) {
      this.o.onError(err);
    } finally {
      this.reading = undefined;
    }
  }

  private async nodeEvent(body: string): Promise<void> {
    const code = body.charAt(0);
    const nodeId = Number(body.slice(1));
    let event: NodeEvent;
    if (code === 'r') event = { type: 'reordered' };
    else if (code === 'c') event = { type: 'created', nodeId };
    else if (code === 'u') event = { type: 'updated', nodeId };
    else if (code === 'd') event = { type: 'deleted', nodeId };
    else return;
    if (event.type !== 'reordered' && !(Number.isSafeInteger(nodeId) && nodeId > 0)) return;
    // Any record change may have been a new secret (or the node's first or last).
    if (event.type !== 'reordered') await this.o.followers.reloadSecrets();
    this.replayed.add(event);
    await this.o.followers.nodeEvents.emit(event, this.o.onError);
  }
}
