import type BetterSqlite3 from 'better-sqlite3';
import type { DeviceKind, MetricsDeviceSample } from '../ports.js';
import { DEVICE_KIND_CODE } from './metrics-codec.js';

interface DeviceEntry {
  id: number;
  ref: string;
  alt: string;
  lastSeenAt: number;
}

/** last_seen_at is refreshed at most this often, so a steady device costs no write per report. */
const SEEN_GRANULARITY_MS = 60_000;

/**
 * Maps (node, kind, name) to a small integer id so raw rows carry ids instead of names. The
 * dictionary of a node is read once, on its first report after start. Ids created inside a
 * transaction that rolls back are forgotten with it (see begin/commit/rollback).
 */
export class DeviceRegistry {
  /** node id → kind code → name → entry (nested, so lookups build no key strings). */
  private readonly byNode = new Map<number, Array<Map<string, DeviceEntry>>>();
  private pending: Array<() => void> = [];
  private readonly selectNode: BetterSqlite3.Statement<[number]>;
  private readonly insert: BetterSqlite3.Statement<
    [number, number, string, string, string, number, number]
  >;
  private readonly update: BetterSqlite3.Statement<[string, string, number, number]>;

  constructor(db: BetterSqlite3.Database) {
    this.selectNode = db.prepare(
      'SELECT id, kind, name, ref, alt, last_seen_at FROM metric_devices WHERE node_id = ?',
    );
    this.insert = db.prepare(
      `INSERT INTO metric_devices (node_id, kind, name, ref, alt, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
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

  private nodeMap(nodeId: number): Array<Map<string, DeviceEntry>> {
    let maps = this.byNode.get(nodeId);
    if (maps) return maps;
    maps = [new Map(), new Map(), new Map(), new Map(), new Map()];
    const rows = this.selectNode.all(nodeId) as Array<{
      id: number;
      kind: number;
      name: string;
      ref: string;
      alt: string;
      last_seen_at: number;
    }>;
    for (const r of rows) {
      maps[r.kind]?.set(r.name, { id: r.id, ref: r.ref, alt: r.alt, lastSeenAt: r.last_seen_at });
    }
    this.byNode.set(nodeId, maps);
    return maps;
  }

  /** Dictionary id of a device, creating or refreshing its row as needed (inside a transaction). */
  idOf(nodeId: number, d: MetricsDeviceSample, now: number): number {
    const code = DEVICE_KIND_CODE[d.kind];
    const map = this.nodeMap(nodeId)[code] as Map<string, DeviceEntry>;
    const key = d.name;
    const found = map.get(key);
    if (!found) {
      const info = this.insert.run(nodeId, code, d.name, d.ref, d.alt, now, now);
      const entry = { id: Number(info.lastInsertRowid), ref: d.ref, alt: d.alt, lastSeenAt: now };
      map.set(key, entry);
      this.pending.push(() => map.delete(key));
      return entry.id;
    }
    if (
      found.ref !== d.ref ||
      found.alt !== d.alt ||
      now - found.lastSeenAt >= SEEN_GRANULARITY_MS
    ) {
      const before = { ...found };
      this.update.run(d.ref, d.alt, Math.max(now, found.lastSeenAt), found.id);
      found.ref = d.ref;
      found.alt = d.alt;
      found.lastSeenAt = Math.max(now, found.lastSeenAt);
      this.pending.push(() => Object.assign(found, before));
    }
    return found.id;
  }
}

export const DEVICE_KIND_BY_CODE: Record<number, DeviceKind> = {
  1: 'iface',
  2: 'io',
  3: 'usage',
  4: 'temp',
};
