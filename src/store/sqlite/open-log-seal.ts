import type BetterSqlite3 from 'better-sqlite3';
import { encodeBlock } from '../history-blocks/block-codec.js';
import { dayAccounting, rowsToBlock, storedDevices, type StoredRow } from './history-blocks.js';
import { watermarks } from './metrics-jobs-state.js';
import type { OpenLogIndex } from './open-log-index.js';
import type { OpenProjection } from '../history-blocks/open-log-record.js';
import { UPSERT_NODE_CURRENT_SQL } from './current-sql.js';

/**
 * The seal step of the open-block log (docs/ingest-disk-writes.md): the closed windows of one
 * log become blocks, each node's newest projection is checkpointed into `node_current`, and the
 * boundary is recorded as the log's sealed watermark. Replay and readers skip log records before
 * that watermark, so a crash between the last commit and the log's rotation neither loses nor
 * doubles a point.
 *
 * With 10,000 nodes a seal writes some 40 MB of projections plus the blocks; as one transaction
 * it held the thread's commits (and the shared write slot) for seconds, longer than a report's
 * deadline. So it runs as short transactions over ascending node ranges (`LogSeal.step`), each
 * committing its nodes' blocks and projections together with a progress mark (the boundary
 * being sealed to and the highest node done), and the thread commits reports between them.
 * Readers and a later seal take a node's samples from the boundary when the node is at or
 * below the mark, else from the watermark; a seal interrupted by a crash is resumed, to the
 * same boundary, before any newer one. The last step moves the watermark, synced
 * (synchronous=FULL for that transaction), because the rotation that follows drops the log's
 * copy; the steps before it need no sync of their own: that commit syncs the WAL up to it.
 */

/**
 * Name of a log's sealed watermark in metrics_jobs. None yet counts as 0, and a new log starts
 * at its watermark, so a log whose header starts later was rotated by a newer seal.
 */
export const sealedWatermark = (shard: number) => `open_log_sealed_${shard}`;
/** Boundary of the seal in progress (meaningful while above the watermark). */
export const sealingTo = (shard: number) => `open_log_sealing_to_${shard}`;
/** Highest node id the seal in progress has committed. */
export const sealingThrough = (shard: number) => `open_log_sealing_through_${shard}`;

/** Where one log's sealed part ends, node by node. */
export interface SealMarks {
  sealed: number;
  /** Boundary of an unfinished seal, or `sealed` when there is none. */
  to: number;
  through: number;
}

export function sealMarks(get: (name: string) => number | undefined, shard: number): SealMarks {
  const sealed = get(sealedWatermark(shard)) ?? 0;
  const to = get(sealingTo(shard)) ?? sealed;
  return to > sealed
    ? { sealed, to, through: get(sealingThrough(shard)) ?? Number.MIN_SAFE_INTEGER }
    : { sealed, to: sealed, through: Number.MIN_SAFE_INTEGER };
}

/** Receive time from which a node's log samples are not yet in blocks. */
export function unsealedFrom(marks: SealMarks, node: number): number {
  return node <= marks.through ? marks.to : marks.sealed;
}

/** Boundary of a seal that was started and not finished (a crash, a failed step), if any. */
export function unfinishedSeal(marks: SealMarks): number | undefined {
  return marks.to > marks.sealed ? marks.to : undefined;
}

export interface LogSealResult {
  blocks: number;
  points: number;
  projections: number;
}

/** Bytes one step writes before it commits: a few milliseconds of work on a quiet disk. */
export const SEAL_STEP_BYTES = 128 * 1024;

/**
 * A running server's seals store each node's newest projection in `node_current` only once in
 * this many seals (one hour at the default 5 minutes), a different slice of the nodes each
 * time; the other projections are carried into the next log file instead. Rewriting every
 * node's ~4.5 KB row at every seal cost about 16 KiB of page writes per node (leaf, overflow
 * pages, freelist; once in the WAL and again at checkpoint), the largest part of the disk
 * writes per report (docs/ingest-disk-writes.md), while a carried projection is ~1.7 KB
 * appended once. `node_current` is read at start (after the start has sealed what the logs
 * hold) and by a front view that re-reads a node after its static facts changed; a stop or a
 * start still stores every projection, so this only bounds how stale the table is while the
 * server runs (a copy of the database file taken meanwhile).
 */
export const CURRENT_REFRESH_SEALS = 12;

/**
 * The nodes whose projection the seal to `boundary` stores in `node_current`: one slice in
 * `seals`, by a hash of the node id so that both ingest threads' nodes (odd, even) spread over
 * every slice.
 */
export function currentSlice(
  boundary: number,
  sealMs: number,
  seals = CURRENT_REFRESH_SEALS,
): (node: number) => boolean {
  const slice = Math.floor(boundary / sealMs) % seals;
  return (node) => (Math.imul(node, 0x9e3779b1) >>> 0) % seals === slice;
}

export class LogSeal {
  readonly result: LogSealResult = { blocks: 0, points: 0, projections: 0 };
  /**
   * Per node, the receive time from which its projection records stay in the next log file:
   * after the one written to `node_current`, or from the newest one when it is carried.
   */
  readonly keepFrom = new Map<number, number>();
  /** Bytes of block data written, and projections carried into the next log instead. */
  blockBytes = 0;
  carried = 0;
  private readonly nodes: number[];
  private next = 0;
  private readonly marks: SealMarks;
  private readonly jobs: ReturnType<typeof watermarks>;
  private readonly insert: BetterSqlite3.Statement;
  private readonly current: BetterSqlite3.Statement;
  private readonly storedAt: BetterSqlite3.Statement;
  private readonly account: ReturnType<typeof dayAccounting>;
  private finished = false;
  /** Fraction of `stepBytes` the next ranges take (`scaleSteps`). */
  private stepScale = 1;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly index: OpenLogIndex,
    private readonly shard: number,
    readonly boundary: number,
    private readonly sealMs: number,
    private readonly stepBytes = SEAL_STEP_BYTES,
    /** Whether a node's newest projection goes to `node_current` now (else it is carried). */
    private readonly storeCurrent: (node: number) => boolean = () => true,
  ) {
    index.refresh();
    this.jobs = watermarks(db);
    this.marks = sealMarks(this.jobs.get, shard);
    const pending = unfinishedSeal(this.marks);
    if (pending !== undefined && pending !== boundary) {
      throw new Error(`seal of log ${shard} to ${pending} unfinished; resume it first`);
    }
    // Nodes the interrupted seal committed are done; a node's projection is written only if
    // newer than the stored one, so nothing is rewritten either way.
    this.nodes = index.nodeIds().filter((n) => pending === undefined || n > this.marks.through);
    this.insert = db.prepare(
      'INSERT INTO metrics_blocks (node_id, t_start, t_end, count, data) VALUES (?, ?, ?, ?, ?)',
    );
    this.current = db.prepare(UPSERT_NODE_CURRENT_SQL);
    this.storedAt = db.prepare('SELECT received_at FROM node_current WHERE node_id = ?').pluck();
    this.account = dayAccounting(db);
  }

  /** Whether every node range is committed (only `finish` is left). */
  get ranges(): boolean {
    return this.next >= this.nodes.length && this.prepared === undefined;
  }

  get done(): boolean {
    return this.finished;
  }

  /**
   * Makes the next ranges `scale` of `stepBytes` (at least one node each): a paced seal cuts
   * its steps down while they run long on a loaded machine (platform/step-pacer.ts).
   */
  scaleSteps(scale: number): void {
    this.stepScale = scale;
  }

  /** The next node range, read from the log and encoded, waiting for `commit`. */
  private prepared: { nodes: PreparedNode[]; last: number } | undefined;

  /**
   * Reads and encodes the next node range (blocks, the projection to store), writing nothing:
   * a thread may run it outside the write slot, so two threads sealing at once (a stop) encode
   * in parallel and only their inserts take turns. False when no range is left.
   */
  prepare(): boolean {
    if (this.prepared) return true;
    if (this.next >= this.nodes.length) return false;
    this.index.refresh();
    const nodes: PreparedNode[] = [];
    let bytes = 0;
    let last = this.nodes[this.next]!;
    const limit = this.stepBytes * this.stepScale;
    while (this.next < this.nodes.length && bytes < limit) {
      last = this.nodes[this.next++]!;
      const node = this.prepareNode(last);
      nodes.push(node);
      bytes += node.bytes;
    }
    this.prepared = { nodes, last };
    return true;
  }

  /** Commits the prepared range (one short transaction, in the write slot). */
  commit(): void {
    const range = this.prepared;
    if (!range) return;
    this.db.transaction(() => {
      for (const node of range.nodes) this.writeNode(node);
      this.jobs.set(sealingTo(this.shard), this.boundary);
      this.jobs.set(sealingThrough(this.shard), range.last);
    })();
    this.prepared = undefined;
  }

  /** Prepares and commits the next node range; false when none was left. */
  step(): boolean {
    if (!this.prepare()) return false;
    this.commit();
    return true;
  }

  /** Moves the watermark to the boundary, synced: the log's sealed part may then be dropped. */
  finish(): LogSealResult {
    while (this.step());
    const previous = this.db.pragma('synchronous', { simple: true }) as number;
    this.db.pragma('synchronous = FULL');
    try {
      this.db.transaction(() => {
        this.jobs.set(sealedWatermark(this.shard), Math.max(this.marks.sealed, this.boundary));
      })();
    } finally {
      this.db.pragma(`synchronous = ${previous}`);
    }
    this.finished = true;
    return this.result;
  }

  /** One node's closed windows as encoded blocks, and its newest projection. */
  private prepareNode(node: number): PreparedNode {
    const windows = new Map<number, StoredRow[]>();
    for (const s of this.index.samples(node, unsealedFrom(this.marks, node), this.boundary)) {
      const window = Math.floor(s.at / this.sealMs) * this.sealMs;
      let rows = windows.get(window);
      if (!rows) windows.set(window, (rows = []));
      rows.push({ at: s.at, host: [...s.host], devices: storedDevices(s.devices) });
    }
    const blocks: PreparedNode['blocks'] = [];
    let bytes = 0;
    for (const rows of windows.values()) {
      const data = encodeBlock(rowsToBlock(rows));
      blocks.push({ tStart: rows[0]!.at, tEnd: rows.at(-1)!.at, count: rows.length, data });
      bytes += data.length;
    }
    const p = this.index.projection(node);
    const store = p !== undefined && this.storeCurrent(node);
    if (p && store) {
      bytes +=
        p.runtimeJson.length +
        (p.smartJson?.length ?? 0) +
        (p.thermalJson?.length ?? 0) +
        (p.pressureJson?.length ?? 0);
    }
    return { node, blocks, projection: p, store, bytes };
  }

  private writeNode({ node, blocks, projection: p, store }: PreparedNode): void {
    for (const b of blocks) {
      this.insert.run(node, b.tStart, b.tEnd, b.count, b.data);
      this.account(b.tStart, b.data.length, b.count, 1);
      this.result.blocks++;
      this.result.points += b.count;
      this.blockBytes += b.data.length;
    }
    if (!p) return;
    if (!store) {
      this.keepFrom.set(node, p.at);
      this.carried++;
      return;
    }
    this.keepFrom.set(node, p.at + 1);
    const stored = this.storedAt.get(node) as number | undefined;
    if (stored === undefined || p.at > stored) {
      this.current.run(
        node,
        p.at,
        p.reportedAt,
        p.at,
        p.runtimeJson,
        p.smartJson,
        p.thermalJson,
        p.pressureJson,
      );
      this.result.projections++;
    }
  }
}

interface PreparedNode {
  node: number;
  blocks: Array<{ tStart: number; tEnd: number; count: number; data: Uint8Array }>;
  projection: OpenProjection | undefined;
  /** Whether the projection goes to `node_current` (else it is carried into the next log). */
  store: boolean;
  bytes: number;
}

/** A whole seal at once (start, stop, tests): every range, then the watermark. */
export function sealOpenLog(
  db: BetterSqlite3.Database,
  index: OpenLogIndex,
  shard: number,
  boundary: number,
  sealMs: number,
): LogSealResult {
  return new LogSeal(db, index, shard, boundary, sealMs).finish();
}
