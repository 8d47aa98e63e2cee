import type BetterSqlite3 from 'better-sqlite3';
import type { TrafficBatch, TrafficFactRow } from '../ports.js';

/** The 5-minute bucket of the facts (the domain's BUCKET_MS, domain/traffic/facts.ts). */
const BUCKET_MS = 300_000;
const bucketOf = (at: number) => Math.floor(at / BUCKET_MS) * BUCKET_MS;

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
 * The open 5-minute bucket of each interface, kept on its `traffic_iface` row (migration 0018):
 * `traffic_5m` is clustered by (node, interface, bucket), so a flush adding its parts there
 * rewrote one leaf per interface, ~30,000 leaves a flush for 10,000 nodes (about 1.3 KiB per
 * report at 3,000/s once each interface has a leaf of its own). The cursor row is rewritten by
 * every flush anyway (its last sample): the open bucket's parts add up there, in the same
 * transaction as the counters they come from, and its fact goes to `traffic_5m` once, when a
 * later sample of the interface closes it. A bucket's fact is its `traffic_5m` row (if any)
 * plus the open columns when they name it; reads add the two.
 *
 * The open bucket is the bucket of the interface's last stored sample: a pair starting at that
 * sample adds to it, every later pair starts after it. Nothing is held in memory, so a restart
 * or a crash finds the same state as the last committed flush left.
 */
export function sqliteTrafficOpen(db: BetterSqlite3.Database) {
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
        if (open && open.bucket !== openBucket) {
          store(nodeId, iface, open); // closed by this batch
          open = undefined;
        }
        for (const p of e.parts) {
          if (p.bucket === openBucket) open = add(open, p);
          else store(nodeId, iface, p);
        }
        if (e.row) {
          const r = e.row;
          upIface.run(nodeId, iface, r.firstAt, r.lastAt, r.lastRx, r.lastTx, ...openParams(open));
        } else if (stored && open !== before) {
          setOpen.run(...openParams(open), nodeId, iface);
        }
      }
    },
    /** Merges an interface's open bucket into facts read from `traffic_5m` ([from, to)). */
    withOpen(nodeId: number, iface: string, rows: Fact[], from: number, to: number): Fact[] {
      const open = openOf(getOpen.get(nodeId, iface) as OpenDb | undefined);
      if (!open || open.bucket < from || open.bucket >= to) return rows;
      const i = rows.findIndex((f) => f.bucket >= open.bucket);
      if (i < 0) return [...rows, open];
      const hit = rows[i] as Fact;
      if (hit.bucket === open.bucket) rows[i] = add(hit, open);
      else rows.splice(i, 0, open);
      return rows;
    },
    /** Forgets the open buckets of one node in [from, to) (a rebuild replaces those facts). */
    clearOpen(nodeId: number, from: number, to: number): void {
      clearOpenIn.run(nodeId, from, to);
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
    /** Forgets open buckets before the retention cut-off, as their facts would be pruned. */
    pruneOpen(cutoff: number): number {
      return clearOpenBefore.run(cutoff).changes;
    },
  };
}
