import type BetterSqlite3 from 'better-sqlite3';
import type { TrafficBatch, TrafficFactRow } from '../ports.js';
import { decodeHeld, encodeHeld } from './traffic-held-codec.js';

/** The 5-minute bucket of the facts (the domain's BUCKET_MS, domain/traffic/facts.ts). */
const BUCKET_MS = 300_000;
const bucketOf = (at: number) => Math.floor(at / BUCKET_MS) * BUCKET_MS;
/**
 * Closed buckets an interface holds in `traffic_5m_held` before they go to `traffic_5m` together
 * (an hour): its leaf there is written once per hour instead of once per bucket. Nodes move in
 * turn (by node id), so each close moves a twelfth of the interfaces, not all at once.
 */
export const HELD_BUCKETS = 12;

type Fact = TrafficFactRow;
type BatchFact = TrafficBatch['facts'][number];

/** Each interface's open bucket as stored on its cursor row (migration 0018). */
interface OpenDb {
  last_at: number;
  open_bucket: number | null;
  open_in: number;
  open_out: number;
  open_valid_in: number;
  open_valid_out: number;
  open_valid_ms: number;
  open_gaps: number;
  open_resets: number;
}

const OPEN_COLUMNS = `open_bucket, open_in, open_out, open_valid_in, open_valid_out, open_valid_ms,
  open_gaps, open_resets`;

function openOf(r: OpenDb | undefined): Fact | undefined {
  if (!r || r.open_bucket === null) return undefined;
  return {
    bucket: r.open_bucket,
    inBytes: r.open_in,
    outBytes: r.open_out,
    validIn: r.open_valid_in,
    validOut: r.open_valid_out,
    validMs: r.open_valid_ms,
    gapCount: r.open_gaps,
    resetCount: r.open_resets,
  };
}

function add(into: Fact | undefined, part: Fact): Fact {
  if (!into) return { ...part };
  return {
    bucket: into.bucket,
    inBytes: into.inBytes + part.inBytes,
    outBytes: into.outBytes + part.outBytes,
    validIn: into.validIn + part.validIn,
    validOut: into.validOut + part.validOut,
    validMs: into.validMs + part.validMs,
    gapCount: into.gapCount + part.gapCount,
    resetCount: into.resetCount + part.resetCount,
  };
}

const openParams = (f: Fact | undefined) =>
  f
    ? [f.bucket, f.inBytes, f.outBytes, f.validIn, f.validOut, f.validMs, f.gapCount, f.resetCount]
    : [null, null, null, null, null, null, null, null];

/**
 * The recent 5-minute facts of each interface, kept apart from `traffic_5m` (migration 0018):
 * `traffic_5m` is clustered by (node, interface, bucket), so a flush adding its parts there
 * rewrote one leaf per interface, ~30,000 leaves a flush for 10,000 nodes (about 1.3 KiB per
 * report at 3,000/s once each interface has a leaf of its own).
 *
 * - The open bucket (that of the interface's last stored sample: a pair starting at that sample
 *   adds to it, every later pair starts after it) adds up on the interface's `traffic_iface`
 *   row, which every flush rewrites anyway (its last sample), in the same transaction as the
 *   counters it comes from.
 * - A closed bucket waits in `traffic_5m_held` (one small row per interface, written when a
 *   bucket closes, not per flush) until its node's turn, at most an hour: then the interface's
 *   held facts go to `traffic_5m` together, one leaf write for up to 12 facts.
 *
 * A bucket's fact is the sum of its `traffic_5m` row, its held entry and the open columns (any
 * of them may be absent); reads add them. Nothing is kept in memory, so a restart or a crash
 * finds the state the last committed flush left.
 */
export function sqliteTrafficRecent(db: BetterSqlite3.Database) {
  const getOpen = db.prepare(
    `SELECT last_at, ${OPEN_COLUMNS} FROM traffic_iface WHERE node_id = ? AND iface = ?`,
  );
  const upIface = db.prepare(
    `INSERT INTO traffic_iface (node_id, iface, first_at, last_at, last_rx, last_tx, ${OPEN_COLUMNS})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (node_id, iface) DO UPDATE SET first_at = min(first_at, excluded.first_at),
       last_at = excluded.last_at, last_rx = excluded.last_rx, last_tx = excluded.last_tx,
       open_bucket = excluded.open_bucket, open_in = excluded.open_in,
       open_out = excluded.open_out, open_valid_in = excluded.open_valid_in,
       open_valid_out = excluded.open_valid_out, open_valid_ms = excluded.open_valid_ms,
       open_gaps = excluded.open_gaps, open_resets = excluded.open_resets`,
  );
  const setOpen = db.prepare(
    `UPDATE traffic_iface SET (${OPEN_COLUMNS}) = (?, ?, ?, ?, ?, ?, ?, ?)
     WHERE node_id = ? AND iface = ?`,
  );
  const addFact = db.prepare(
    `INSERT INTO traffic_5m (node_id, iface, bucket, in_bytes, out_bytes, valid_in, valid_out,
       valid_ms, gap_count, reset_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (node_id, iface, bucket) DO UPDATE SET
       in_bytes = in_bytes + excluded.in_bytes, out_bytes = out_bytes + excluded.out_bytes,
       valid_in = valid_in + excluded.valid_in, valid_out = valid_out + excluded.valid_out,
       valid_ms = valid_ms + excluded.valid_ms, gap_count = gap_count + excluded.gap_count,
       reset_count = reset_count + excluded.reset_count`,
  );
  const clearOpenIn = db.prepare(
    `UPDATE traffic_iface SET (${OPEN_COLUMNS}) = (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
     WHERE node_id = ? AND open_bucket >= ? AND open_bucket < ?`,
  );
  const clearOpenBefore = db.prepare(
    `UPDATE traffic_iface SET (${OPEN_COLUMNS}) = (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
     WHERE open_bucket < ?`,
  );

  const getHeld = db.prepare('SELECT data FROM traffic_5m_held WHERE node_id = ? AND iface = ?');
  const putHeld = db.prepare(
    `INSERT INTO traffic_5m_held (node_id, iface, first_bucket, data) VALUES (?, ?, ?, ?)
     ON CONFLICT (node_id, iface) DO UPDATE SET first_bucket = excluded.first_bucket,
       data = excluded.data`,
  );
  const delHeld = db.prepare('DELETE FROM traffic_5m_held WHERE node_id = ? AND iface = ?');
  const nodeHeld = db.prepare('SELECT iface, data FROM traffic_5m_held WHERE node_id = ?');
  const oldHeld = db.prepare(
    'SELECT node_id, iface, data FROM traffic_5m_held WHERE first_bucket < ?',
  );

  const heldOf = (nodeId: number, iface: string): Fact[] => {
    const r = getHeld.get(nodeId, iface) as { data: Uint8Array } | undefined;
    return r ? decodeHeld(r.data) : [];
  };
  /** Writes an interface's held facts back (none: its row goes). */
  const rewriteHeld = (nodeId: number, iface: string, list: Fact[]) => {
    if (list.length === 0) delHeld.run(nodeId, iface);
    else putHeld.run(nodeId, iface, (list[0] as Fact).bucket, encodeHeld(list));
  };
  /**
   * Adds closed facts to the interface's held ones; on the node's turn (or when an hour is
   * held) they all go to `traffic_5m`, one leaf write for the lot.
   */
  const hold = (nodeId: number, iface: string, closed: readonly Fact[]) => {
    const byBucket = new Map(heldOf(nodeId, iface).map((f) => [f.bucket, f]));
    for (const f of closed) byBucket.set(f.bucket, add(byBucket.get(f.bucket), f));
    const list = [...byBucket.values()].sort((a, b) => a.bucket - b.bucket);
    const last = (list[list.length - 1] as Fact).bucket / BUCKET_MS;
    if (list.length >= HELD_BUCKETS || (last + nodeId) % HELD_BUCKETS === 0) {
      for (const f of list) store(nodeId, iface, f);
      delHeld.run(nodeId, iface);
    } else {
      rewriteHeld(nodeId, iface, list);
    }
  };

  const store = (nodeId: number, iface: string, f: Fact) =>
    addFact.run(
      nodeId,
      iface,
      f.bucket,
      f.inBytes,
      f.outBytes,
      f.validIn,
      f.validOut,
      f.validMs,
      f.gapCount,
      f.resetCount,
    );

  return {
    /**
     * Writes a batch's interface rows and facts (in the caller's transaction): the parts of
     * each interface's open bucket (the bucket of its last sample after the batch) onto its
     * row, every other part into `traffic_5m`, and the open bucket the batch closed too.
     */
    applyFacts(b: TrafficBatch): void {
      type Iface = { row?: TrafficBatch['ifaces'][number]; parts: BatchFact[] };
      const byIface = new Map<string, Iface>();
      const entry = (nodeId: number, iface: string) => {
        const k = `${nodeId}\u0000${iface}`;
        let e = byIface.get(k);
        if (!e) byIface.set(k, (e = { parts: [] }));
        return e;
      };
      // The last row of an interface is its cursor after the batch (rows come in time order).
      for (const r of b.ifaces) {
        const e = entry(r.nodeId, r.iface);
        e.row = e.row ? { ...r, firstAt: Math.min(e.row.firstAt, r.firstAt) } : r;
      }
      for (const f of b.facts) entry(f.nodeId, f.iface).parts.push(f);
      for (const [k, e] of byIface) {
        const cut = k.indexOf('\u0000');
        const nodeId = Number(k.slice(0, cut));
        const iface = k.slice(cut + 1);
        const stored = getOpen.get(nodeId, iface) as OpenDb | undefined;
        const lastAt = e.row?.lastAt ?? stored?.last_at;
        const openBucket = lastAt === undefined ? undefined : bucketOf(lastAt);
        let open = openOf(stored);
        const before = open;
        const closed: Fact[] = [];
        if (open && open.bucket !== openBucket) {
          closed.push(open); // closed by this batch
          open = undefined;
        }
        for (const p of e.parts) {
          if (p.bucket === openBucket) open = add(open, p);
          else closed.push(p);
        }
        if (closed.length > 0) hold(nodeId, iface, closed);
        if (e.row) {
          const r = e.row;
          upIface.run(nodeId, iface, r.firstAt, r.lastAt, r.lastRx, r.lastTx, ...openParams(open));
        } else if (stored && open !== before) {
          setOpen.run(...openParams(open), nodeId, iface);
        }
      }
    },
    /**
     * Facts read from `traffic_5m` ([from, to), ascending) with the interface's held and open
     * ones added: the bucket's fact is the sum of the three.
     */
    withRecent(nodeId: number, iface: string, rows: Fact[], from: number, to: number): Fact[] {
      const recent = heldOf(nodeId, iface);
      const open = openOf(getOpen.get(nodeId, iface) as OpenDb | undefined);
      if (open) recent.push(open);
      const inside = recent.filter((f) => f.bucket >= from && f.bucket < to);
      if (inside.length === 0) return rows;
      const byBucket = new Map(rows.map((f) => [f.bucket, f]));
      for (const f of inside) byBucket.set(f.bucket, add(byBucket.get(f.bucket), f));
      return [...byBucket.values()].sort((a, b) => a.bucket - b.bucket);
    },
    /** Forgets the held and open buckets of one node in [from, to) (a rebuild replaces them). */
    clearRecent(nodeId: number, from: number, to: number): void {
      clearOpenIn.run(nodeId, from, to);
      for (const r of nodeHeld.all(nodeId) as Array<{ iface: string; data: Uint8Array }>) {
        const list = decodeHeld(r.data);
        const kept = list.filter((f) => f.bucket < from || f.bucket >= to);
        if (kept.length < list.length) rewriteHeld(nodeId, r.iface, kept);
      }
    },
    /** Stores a rebuilt fact: onto the interface's row when it is its open bucket. */
    putRebuilt(nodeId: number, iface: string, f: Fact): void {
      const stored = getOpen.get(nodeId, iface) as OpenDb | undefined;
      if (stored && bucketOf(stored.last_at) === f.bucket) {
        let cur = openOf(stored);
        if (cur && cur.bucket !== f.bucket) {
          store(nodeId, iface, cur);
          cur = undefined;
        }
        setOpen.run(...openParams(add(cur, f)), nodeId, iface);
      } else {
        store(nodeId, iface, f);
      }
    },
    /** Forgets held and open buckets before the retention cut-off, as traffic_5m's are. */
    pruneRecent(cutoff: number): void {
      clearOpenBefore.run(cutoff);
      const old = oldHeld.all(cutoff) as Array<{
        node_id: number;
        iface: string;
        data: Uint8Array;
      }>;
      for (const r of old) {
        rewriteHeld(
          r.node_id,
          r.iface,
          decodeHeld(r.data).filter((f) => f.bucket >= cutoff),
        );
      }
    },
  };
}
