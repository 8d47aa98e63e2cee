import type pg from 'pg';
import type { MetricsDeviceSample } from '../ports.js';
import { DEVICE_KIND_CODE } from '../sqlite/metrics-codec.js';
import { DEFAULT_MAX_DEVICES_PER_NODE } from '../sqlite/device-registry.js';

interface DeviceEntry {
  kind: number;
  name: string;
  /** 0 while the row is being written in the open transaction. */
  id: number;
  ref: string;
  alt: string;
  lastSeenAt: number;
}

/** last_seen_at is refreshed at most this often (as on SQLite). */
const SEEN_GRANULARITY_MS = 60_000;

const keyOf = (kind: number, name: string): string => `${kind}\u0000${name}`;

/**
 * The per-node device dictionary for PostgreSQL ingest: (node, kind, name) → id, cached per node
 * after its first batch. Unlike SQLite's registry, which writes device by device, a batch first
 * marks what it needs (`note`), then `flush` writes every new or due device in one upsert (which
 * also re-registers a device another instance's retention removed, and tolerates a concurrent
 * instance registering the same device), then `idOf` is a map read.
 */
export class PgDeviceRegistry {
  private readonly byNode = new Map<number, Map<string, DeviceEntry>>();
  /** Entries to write in this transaction, with their node. */
  private pending = new Map<DeviceEntry, number>();
  private undo: Array<() => void> = [];

  constructor(readonly maxPerNode: number = DEFAULT_MAX_DEVICES_PER_NODE) {}

  /** Reads the dictionaries of nodes not cached yet (one statement). */
  async load(db: pg.ClientBase, nodeIds: Iterable<number>): Promise<void> {
    const missing = [...new Set(nodeIds)].filter((id) => !this.byNode.has(id));
    if (missing.length === 0) return;
    const res = await db.query<{
      id: number;
      node_id: number;
      kind: number;
      name: string;
      ref: string;
      alt: string;
      last_seen_at: number;
    }>(
      `SELECT id, node_id, kind, name, ref, alt, last_seen_at FROM metric_devices
       WHERE node_id = ANY($1::bigint[])`,
      [missing],
    );
    for (const id of missing) this.byNode.set(id, new Map());
    for (const r of res.rows) {
      this.byNode.get(r.node_id)?.set(keyOf(r.kind, r.name), {
        kind: r.kind,
        name: r.name,
        id: r.id,
        ref: r.ref,
        alt: r.alt,
        lastSeenAt: r.last_seen_at,
      });
    }
  }

  private entries(nodeId: number): Map<string, DeviceEntry> {
    let map = this.byNode.get(nodeId);
    if (!map) this.byNode.set(nodeId, (map = new Map<string, DeviceEntry>()));
    return map;
  }

  forget(nodeId: number): void {
    this.byNode.delete(nodeId);
  }

  /** Whether the report's devices keep the node within `maxPerNode` (nothing noted otherwise). */
  admits(nodeId: number, devices: readonly MetricsDeviceSample[]): boolean {
    const map = this.entries(nodeId);
    if (map.size + devices.length <= this.maxPerNode) return true;
    let unknown = 0;
    for (const d of devices) if (!map.has(keyOf(DEVICE_KIND_CODE[d.kind], d.name))) unknown++;
    return map.size + unknown <= this.maxPerNode;
  }

  /** Notes that a report of `nodeId` at `now` names these devices. */
  note(nodeId: number, devices: readonly MetricsDeviceSample[], now: number): void {
    const map = this.entries(nodeId);
    for (const d of devices) {
      const kind = DEVICE_KIND_CODE[d.kind];
      const key = keyOf(kind, d.name);
      const found = map.get(key);
      if (!found) {
        const entry: DeviceEntry = {
          kind,
          name: d.name,
          id: 0,
          ref: d.ref,
          alt: d.alt,
          lastSeenAt: now,
        };
        map.set(key, entry);
        this.undo.push(() => {
          if (map.get(key) === entry) map.delete(key);
        });
        this.pending.set(entry, nodeId);
        continue;
      }
      if (
        found.ref === d.ref &&
        found.alt === d.alt &&
        now - found.lastSeenAt < SEEN_GRANULARITY_MS
      ) {
        continue;
      }
      const before = { ...found };
      this.undo.push(() => Object.assign(found, before));
      found.ref = d.ref;
      found.alt = d.alt;
      found.lastSeenAt = Math.max(now, found.lastSeenAt);
      this.pending.set(found, nodeId);
    }
  }

  /**
   * Writes every noted new or due device in one upsert and learns the ids. A due refresh of a
   * row another instance refreshed less than SEEN_GRANULARITY_MS ago is skipped in the
   * statement: with several instances a device's row is still rewritten about once a minute,
   * not once a minute per instance (its id is known already, so nothing needs returning).
   */
  async flush(db: pg.ClientBase): Promise<void> {
    // Sorted by key: instances upserting overlapping devices take row locks in one order and
    // cannot deadlock each other.
    const rows = [...this.pending]
      .map(([entry, nodeId]) => ({ entry, nodeId }))
      .sort(
        (a, b) =>
          a.nodeId - b.nodeId ||
          a.entry.kind - b.entry.kind ||
          (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0),
      );
    this.pending = new Map();
    if (rows.length === 0) return;
    const res = await db.query<{ id: number; node_id: number; kind: number; name: string }>(
      `INSERT INTO metric_devices AS d (node_id, kind, name, ref, alt, first_seen_at, last_seen_at)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[],
         $6::bigint[], $6::bigint[])
       ON CONFLICT (node_id, kind, name) DO UPDATE SET ref = excluded.ref, alt = excluded.alt,
         last_seen_at = greatest(d.last_seen_at, excluded.last_seen_at)
       WHERE d.ref <> excluded.ref OR d.alt <> excluded.alt
         OR excluded.last_seen_at - d.last_seen_at >= ${SEEN_GRANULARITY_MS}
       RETURNING id, node_id, kind, name`,
      [
        rows.map((r) => r.nodeId),
        rows.map((r) => r.entry.kind),
        rows.map((r) => r.entry.name),
        rows.map((r) => r.entry.ref),
        rows.map((r) => r.entry.alt),
        rows.map((r) => r.entry.lastSeenAt),
      ],
    );
    this.learnIds(res.rows);
    // A new device another instance registered moments ago was neither inserted nor due.
    const unknown = rows.filter((r) => r.entry.id === 0);
    if (unknown.length === 0) return;
    const found = await db.query<{ id: number; node_id: number; kind: number; name: string }>(
      `SELECT d.id, d.node_id, d.kind, d.name FROM metric_devices d
       JOIN unnest($1::bigint[], $2::bigint[], $3::text[]) AS v (node_id, kind, name)
         ON d.node_id = v.node_id AND d.kind = v.kind AND d.name = v.name`,
      [
        unknown.map((r) => r.nodeId),
        unknown.map((r) => r.entry.kind),
        unknown.map((r) => r.entry.name),
      ],
    );
    this.learnIds(found.rows);
  }

  private learnIds(
    rows: ReadonlyArray<{ id: number; node_id: number; kind: number; name: string }>,
  ) {
    for (const r of rows) {
      const entry = this.byNode.get(r.node_id)?.get(keyOf(r.kind, r.name));
      if (!entry) continue;
      const old = entry.id;
      this.undo.push(() => {
        entry.id = old;
      });
      entry.id = r.id;
    }
  }

  idOf(nodeId: number, d: MetricsDeviceSample): number {
    const e = this.byNode.get(nodeId)?.get(keyOf(DEVICE_KIND_CODE[d.kind], d.name));
    if (!e || e.id === 0) throw new Error(`device ${d.name} of node ${nodeId} was not flushed`);
    return e.id;
  }

  /** Starts a transaction's worth of changes. */
  begin(): void {
    this.pending = new Map();
    this.undo = [];
  }

  commit(): void {
    this.undo = [];
  }

  rollback(): void {
    for (const undo of this.undo.reverse()) undo();
    this.undo = [];
    this.pending = new Map();
  }
}
