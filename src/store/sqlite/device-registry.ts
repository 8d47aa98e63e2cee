import type BetterSqlite3 from 'better-sqlite3';
import type { DeviceKind, MetricsDeviceSample } from '../ports.js';
import { DEVICE_KIND_CODE } from './metrics-codec.js';

interface DeviceEntry {
  nodeId: number;
  kind: number;
  name: string;
  id: number;
  ref: string;
  alt: string;
  lastSeenAt: number;
}

/** last_seen_at is refreshed at most this often, so a steady device costs no write per report. */
const SEEN_GRANULARITY_MS = 60_000;

/**
 * A due last-seen refresh waits for the next batch that writes to SQLite anyway, so that a batch
 * of known devices stays out of SQLite (and of the write slot); a batch takes the slot to write
 * them once this many wait or the oldest has waited SEEN_GRANULARITY_MS (so last_seen_at lags
 * the newest report by at most twice that). Each slot-holding batch writes at most this many,
 * which bounds how long it holds the slot.
 */
export const SEEN_CHUNK = 500;

/** Distinct devices one node may have in the dictionary unless configured otherwise. */
export const DEFAULT_MAX_DEVICES_PER_NODE = 4096;

/**
 * One node's dictionary: a map by name per device kind code (1–4), so a lookup hashes the name
 * the report carries instead of building a "kind + name" key string for every device of every
 * report.
 */
class NodeDevices {
  size = 0;
  private readonly byKind: Array<Map<string, DeviceEntry> | undefined> = [];

  get(kind: number, name: string): DeviceEntry | undefined {
    return this.byKind[kind]?.get(name);
  }

  has(kind: number, name: string): boolean {
    return this.byKind[kind]?.has(name) === true;
  }

  set(e: DeviceEntry): void {
    let names = this.byKind[e.kind];
    if (!names) this.byKind[e.kind] = names = new Map();
    if (!names.has(e.name)) this.size++;
    names.set(e.name, e);
  }

  /** Removes the entry for e's kind and name if it is e itself. */
  delete(e: DeviceEntry): void {
    const names = this.byKind[e.kind];
    if (names?.get(e.name) !== e) return;
    names.delete(e.name);
    this.size--;
  }
}

/**
 * Maps (node, kind, name) to a small integer id so raw rows carry ids instead of names. The
 * dictionary of a node is read once, on its first report after start, and kept in a map, so a
 * lookup costs the same however many devices the node has; `maxPerNode` bounds how many that is
 * (devices unseen for longer than the device retention leave the dictionary).
 * Ids created inside a transaction that rolls back are forgotten with it (begin/commit/rollback).
 */
export class DeviceRegistry {
  private readonly byNode = new Map<number, NodeDevices>();
  private pending: Array<() => void> = [];
  /** Due last-seen refreshes not written yet: entry → [first queued at, newest seen]. */
  private readonly seenDue = new Map<DeviceEntry, [number, number]>();
  private readonly selectNode: BetterSqlite3.Statement<[number]>;
  private readonly restore: BetterSqlite3.Statement<
    [number, number, number, string, string, string, number, number]
  >;
  private readonly insert: BetterSqlite3.Statement<
    [number, number, string, string, string, number, number]
  >;
  private readonly update: BetterSqlite3.Statement<[string, string, number, number]>;

  constructor(
    db: BetterSqlite3.Database,
    readonly maxPerNode: number = DEFAULT_MAX_DEVICES_PER_NODE,
  ) {
    this.selectNode = db.prepare(
      'SELECT id, kind, name, ref, alt, last_seen_at FROM metric_devices WHERE node_id = ?',
    );
    this.insert = db.prepare(
      `INSERT INTO metric_devices (node_id, kind, name, ref, alt, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.restore = db.prepare(
      `INSERT OR IGNORE INTO metric_devices
         (id, node_id, kind, name, ref, alt, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.update = db.prepare(
      'UPDATE metric_devices SET ref = ?, alt = ?, last_seen_at = ? WHERE id = ?',
    );
  }

  /** Starts tracking changes that a rollback must undo. */
  begin(): void {
    this.pending = [];
  }

  commit(): void {
    this.pending = [];
  }

  rollback(): void {
    for (const undo of this.pending.reverse()) undo();
    this.pending = [];
  }

  /** Forgets a node's cached dictionary (after the node's rows were deleted). */
  forget(nodeId: number): void {
    this.byNode.delete(nodeId);
  }

  private entries(nodeId: number): NodeDevices {
    const cached = this.byNode.get(nodeId);
    if (cached) return cached;
    const rows = this.selectNode.all(nodeId) as Array<{
      id: number;
      kind: number;
      name: string;
      ref: string;
      alt: string;
      last_seen_at: number;
    }>;
    const map = new NodeDevices();
    for (const r of rows) {
      map.set({
        nodeId,
        kind: r.kind,
        name: r.name,
        id: r.id,
        ref: r.ref,
        alt: r.alt,
        lastSeenAt: r.last_seen_at,
      });
    }
    this.byNode.set(nodeId, map);
    return map;
  }

  /**
   * Whether registering the report's devices keeps the node within `maxPerNode`. Checked before
   * any of them is registered, so a refused report leaves the dictionary as it was.
   */
  admits(nodeId: number, devices: readonly MetricsDeviceSample[]): boolean {
    const map = this.entries(nodeId);
    if (map.size + devices.length <= this.maxPerNode) return true;
    let unknown = 0;
    for (const d of devices) if (!map.has(DEVICE_KIND_CODE[d.kind], d.name)) unknown++;
    return map.size + unknown <= this.maxPerNode;
  }

  /** Whether every device is registered with the ref and alt it reports (no write needed). */
  known(nodeId: number, devices: readonly MetricsDeviceSample[]): boolean {
    const map = this.entries(nodeId);
    for (const d of devices) {
      const e = map.get(DEVICE_KIND_CODE[d.kind], d.name);
      if (!e || e.ref !== d.ref || e.alt !== d.alt) return false;
    }
    return true;
  }

  /** Whether the deferred last-seen refreshes must be written now (see SEEN_CHUNK). */
  seenOverdue(now: number): boolean {
    if (this.seenDue.size >= SEEN_CHUNK) return true;
    for (const [queuedAt] of this.seenDue.values()) return now - queuedAt >= SEEN_GRANULARITY_MS;
    return false;
  }

  /** Writes the oldest deferred last-seen refreshes, at most SEEN_CHUNK (inside a transaction). */
  writeSeen(): void {
    let written = 0;
    for (const [e, due] of this.seenDue) {
      if (written++ >= SEEN_CHUNK) break;
      const before = e.lastSeenAt;
      this.seenDue.delete(e);
      this.pending.push(() => {
        this.seenDue.set(e, due);
        e.lastSeenAt = before;
      });
      const seen = Math.max(due[1], before);
      if (this.update.run(e.ref, e.alt, seen, e.id).changes > 0) {
        e.lastSeenAt = seen;
        continue;
      }
      // Its row is gone (pruned by retention on another ingest thread) while samples stored
      // since refer to its id: the row comes back under the same id, first seen now.
      if (this.restore.run(e.id, e.nodeId, e.kind, e.name, e.ref, e.alt, seen, seen).changes > 0) {
        e.lastSeenAt = seen;
        continue;
      }
      // The id was taken meanwhile: the node's next report registers the device again.
      const map = this.byNode.get(e.nodeId);
      if (map?.get(e.kind, e.name) === e) {
        map.delete(e);
        this.pending.push(() => map.set(e));
      }
    }
  }

  /** Dictionary id of a device, creating or refreshing its row as needed (inside a transaction). */
  idOf(nodeId: number, d: MetricsDeviceSample, now: number): number {
    const map = this.entries(nodeId);
    const kind = DEVICE_KIND_CODE[d.kind];
    const found = map.get(kind, d.name);
    if (found && this.refresh(found, d, now)) return found.id;
    if (found) {
      // Its row is gone: pruned by retention on another ingest thread. Register it again.
      map.delete(found);
      this.pending.push(() => map.set(found));
    }
    const info = this.insert.run(nodeId, kind, d.name, d.ref, d.alt, now, now);
    const entry = {
      nodeId,
      kind,
      name: d.name,
      id: Number(info.lastInsertRowid),
      ref: d.ref,
      alt: d.alt,
      lastSeenAt: now,
    };
    map.set(entry);
    this.pending.push(() => map.delete(entry));
    return entry.id;
  }

  /**
   * Updates a known device's row when its ref or alt changed, and queues its last-seen refresh
   * when due (writeSeen); false when the row no longer exists.
   */
  private refresh(e: DeviceEntry, d: MetricsDeviceSample, now: number): boolean {
    if (e.ref === d.ref && e.alt === d.alt) {
      if (now - e.lastSeenAt < SEEN_GRANULARITY_MS) return true;
      const was = this.seenDue.get(e);
      const seen = Math.max(now, e.lastSeenAt, was?.[1] ?? 0);
      this.seenDue.set(e, [was?.[0] ?? now, seen]);
      this.pending.push(() => (was ? this.seenDue.set(e, was) : this.seenDue.delete(e)));
      return true;
    }
    const before = { ref: e.ref, alt: e.alt, lastSeenAt: e.lastSeenAt };
    const seen = Math.max(now, e.lastSeenAt);
    if (this.update.run(d.ref, d.alt, seen, e.id).changes === 0) return false;
    e.ref = d.ref;
    e.alt = d.alt;
    e.lastSeenAt = seen;
    this.pending.push(() => Object.assign(e, before));
    return true;
  }
}

export const DEVICE_KIND_BY_CODE: Record<number, DeviceKind> = {
  1: 'iface',
  2: 'io',
  3: 'usage',
  4: 'temp',
};
