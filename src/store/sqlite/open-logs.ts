import type BetterSqlite3 from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SAMPLE, recordHead } from '../history-blocks/open-log-record.js';
import { DEFAULT_SEAL_MS, SEAL_GRACE_MS } from './history-blocks.js';
import type { OpenLogs } from './history-source.js';
import { OpenLogFile } from './open-log.js';
import { OpenLogIndex } from './open-log-index.js';
import {
  LogSeal,
  currentSlice,
  sealMarks,
  sealedWatermark,
  unfinishedSeal,
  type LogSealResult,
} from './open-log-seal.js';
import { watermarks } from './metrics-jobs-state.js';

/**
 * Where the open-block logs of a database live and the steps that move them into SQLite
 * (docs/ingest-disk-writes.md): one log per ingest thread, `<database>-open-<shard>`.
 */
export const openLogPath = (dbPath: string, shard: number): string => `${dbPath}-open-${shard}`;

/** Every open-block log file of a database, whatever thread count wrote them. */
export function existingOpenLogs(dbPath: string): string[] {
  if (dbPath === ':memory:') return [];
  const prefix = `${basename(dbPath)}-open-`;
  return readdirSync(dirname(dbPath))
    .filter((f) => f.startsWith(prefix) && /^\d+$/.test(f.slice(prefix.length)))
    .map((f) => join(dirname(dbPath), f));
}

/** The seal boundary a shard's log starts at: its sealed watermark (0 before any seal). */
export function sealedBoundary(db: BetterSqlite3.Database, shard: number): number {
  return watermarks(db).get(sealedWatermark(shard)) ?? 0;
}

/**
 * The readers' view of a database's logs (history reads, uptime, rollups, the storage panel):
 * one index per log, `<database>-open-0` upward; a log created later (its thread started after
 * this reader) joins at the next read.
 */
export class OpenLogReaders implements OpenLogs {
  private readonly indexes: OpenLogIndex[] = [];
  private own: OpenLogIndex | undefined;

  constructor(private readonly dbPath: string) {}

  /**
   * Reads the log `index` follows through it (an ingest thread's index of its own log, which
   * its seal keeps), so the thread indexes that log once, not once for the seal and once more
   * for its rollups.
   */
  share(index: OpenLogIndex): void {
    this.own = index;
    const at = this.indexes.findIndex((i) => i.path === index.path);
    if (at >= 0) this.indexes.splice(at, 1, index)[0]!.close();
  }

  logs(): readonly OpenLogIndex[] {
    for (;;) {
      const path = openLogPath(this.dbPath, this.indexes.length);
      if (!existsSync(path)) return this.indexes;
      this.indexes.push(this.own?.path === path ? this.own : new OpenLogIndex(path));
    }
  }

  /** Unsealed samples in the logs and the logs' bytes on disk. */
  size(): { records: number; bytes: number } {
    let records = 0;
    let bytes = 0;
    for (const log of this.logs()) {
      log.refresh();
      records += log.size.records;
      bytes += log.size.bytes;
    }
    return { records, bytes };
  }

  /** Receive time of the oldest unsealed sample, if any. */
  oldest(): number | undefined {
    let oldest: number | undefined;
    for (const log of this.logs()) {
      log.refresh();
      for (const node of log.nodeIds()) {
        const t = log.times(node, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)[0];
        if (t !== undefined && (oldest === undefined || t < oldest)) oldest = t;
      }
    }
    return oldest;
  }

  close(): void {
    for (const log of this.indexes.splice(0)) log.close();
  }
}

/** Newest sample time in an index, if it has any. */
function newestSample(index: OpenLogIndex): number | undefined {
  let newest: number | undefined;
  for (const node of index.nodeIds()) {
    const t = index.times(node, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER).at(-1);
    if (t !== undefined && (newest === undefined || t > newest)) newest = t;
  }
  return newest;
}

/** Bytes of the old log one rotation step reads (and copies what is still open of). */
export const ROTATE_STEP_BYTES = 4 * 1024 * 1024;

/**
 * One seal of a log: its node ranges, committed one short transaction at a time (`step`, so the
 * thread commits reports between them), then the copy of what is still open into the next log
 * file (samples from the boundary on, and projections newer than those the seal wrote), also in
 * steps; then `finish`: the watermark, the copy of what came since, and the rename. Call
 * `finish` with no sync of the log in flight.
 */
export class SealRun {
  private rotating = false;
  private rotateScale = 1;

  constructor(
    private readonly seal: LogSeal,
    private readonly file: OpenLogFile,
    private readonly rotateStepBytes = ROTATE_STEP_BYTES,
  ) {
    file.sealingTo(seal.boundary);
  }

  get boundary(): number {
    return this.seal.boundary;
  }

  /**
   * Whether every node range is committed: the steps left only copy the log's open part into
   * the next file (no SQLite write, so no write slot), then `finish`.
   */
  get copying(): boolean {
    return this.seal.ranges;
  }

  /** Bytes of block data written and projections carried into the next file so far. */
  get written(): { blockBytes: number; carried: number } {
    return { blockBytes: this.seal.blockBytes, carried: this.seal.carried };
  }

  /** Makes the next steps (node ranges, rotation copies) `scale` of their full size. */
  scaleSteps(scale: number): void {
    this.seal.scaleSteps(scale);
    this.rotateScale = scale;
  }

  /**
   * Reads and encodes the next node range without writing (outside the write slot); false
   * once every range is committed. `commitRange` then writes it.
   */
  prepareRange(): boolean {
    return this.seal.prepare();
  }

  commitRange(): void {
    this.seal.commit();
  }

  /** Runs the next step; false once only `finish` is left. */
  step(): boolean {
    if (this.seal.step()) return true;
    if (!this.rotating) {
      this.file.beginRotation(this.boundary);
      this.rotating = true;
    }
    return !this.file.copyForRotation(this.keep, this.rotateStepBytes * this.rotateScale);
  }

  /** Syncs the copied part of the next file off the thread, before `finish` (see there). */
  readonly syncCopy = (done: (err: Error | null) => void): void => {
    this.file.syncRotationCopy(done);
  };

  finish(): LogSealResult {
    const result = this.seal.finish();
    this.file.rotate(this.boundary, this.keep);
    return result;
  }

  /** The records the next file holds; known once every node range is committed. */
  private readonly keep = (p: Uint8Array): boolean => {
    const head = recordHead(p);
    if (head.type === SAMPLE) return head.at >= this.seal.boundary;
    return head.at >= (this.seal.keepFrom.get(head.node) ?? Number.NEGATIVE_INFINITY);
  };
}

function marksOf(db: BetterSqlite3.Database, shard: number) {
  return sealMarks(watermarks(db).get, shard);
}

/** The boundary `planSeal` would seal the log to, if there is a seal to run. */
export function sealBoundary(
  db: BetterSqlite3.Database,
  file: OpenLogFile,
  shard: number,
  now: number,
  sealMs: number = DEFAULT_SEAL_MS,
): number | undefined {
  const boundary =
    unfinishedSeal(marksOf(db, shard)) ?? Math.floor((now - SEAL_GRACE_MS) / sealMs) * sealMs;
  return boundary > file.from ? boundary : undefined;
}

/**
 * The next seal of the log's closed windows (those ending `SEAL_GRACE_MS` before `now`), or
 * the rest of one a crash or a failed step interrupted (to its boundary; the next call seals
 * the windows closed since). Undefined when nothing is closed. `carry`: a running server's
 * seal, which stores only one slice of the newest projections in `node_current` and carries
 * the others into the next log file (`CURRENT_REFRESH_SEALS`); otherwise it stores them all.
 */
export function planSeal(
  db: BetterSqlite3.Database,
  file: OpenLogFile,
  index: OpenLogIndex,
  shard: number,
  now: number,
  sealMs: number = DEFAULT_SEAL_MS,
  stepBytes?: number,
  carry = false,
): SealRun | undefined {
  const boundary = sealBoundary(db, file, shard, now, sealMs);
  if (boundary === undefined) return undefined;
  const store = carry ? currentSlice(boundary, sealMs) : undefined;
  return new SealRun(new LogSeal(db, index, shard, boundary, sealMs, stepBytes, store), file);
}

/** `planSeal` run to its end at once. Call it with no sync of the log in flight. */
export function sealClosedWindows(
  db: BetterSqlite3.Database,
  file: OpenLogFile,
  index: OpenLogIndex,
  shard: number,
  now: number,
  sealMs: number = DEFAULT_SEAL_MS,
): LogSealResult | undefined {
  return planSeal(db, file, index, shard, now, sealMs)?.finish();
}

/**
 * Seals every record of the log, the open window's too (it gives the window a second block
 * later, which readers and retention allow), and empties the file: at a stop, and at start for
 * what a crash left (first the rest of a seal it interrupted).
 */
export function sealEverything(
  db: BetterSqlite3.Database,
  file: OpenLogFile,
  index: OpenLogIndex,
  shard: number,
  sealMs: number = DEFAULT_SEAL_MS,
): LogSealResult {
  const total: LogSealResult = { blocks: 0, points: 0, projections: 0 };
  for (const run of sealEverythingRuns(db, file, index, shard, sealMs)) {
    const r = run.finish();
    total.blocks += r.blocks;
    total.points += r.points;
    total.projections += r.projections;
  }
  return total;
}

/**
 * `sealEverything` as the runs it is made of, for a caller that runs their steps itself (the
 * ingest thread's stop, between other work): first the rest of an interrupted seal, then
 * everything. Each run is planned once the one before it has finished.
 */
export function* sealEverythingRuns(
  db: BetterSqlite3.Database,
  file: OpenLogFile,
  index: OpenLogIndex,
  shard: number,
  sealMs: number = DEFAULT_SEAL_MS,
): Generator<SealRun> {
  const pending = unfinishedSeal(marksOf(db, shard));
  if (pending !== undefined)
    yield new SealRun(new LogSeal(db, index, shard, pending, sealMs), file);
  index.refresh();
  const boundary = Math.max(file.from, sealedBoundary(db, shard), (newestSample(index) ?? 0) + 1);
  yield new SealRun(new LogSeal(db, index, shard, boundary, sealMs), file);
}

/**
 * Start of `dash serve`: every log a stopped or crashed run left is replayed (whole records
 * only; a torn tail was never acknowledged) and sealed into blocks and `node_current`, so the
 * reports it acknowledged are in the database before anything reads it.
 */
export function sealLeftLogs(db: BetterSqlite3.Database, dbPath: string): LogSealResult {
  const total: LogSealResult = { blocks: 0, points: 0, projections: 0 };
  for (const path of existingOpenLogs(dbPath)) {
    const shard = Number(path.slice(path.lastIndexOf('-') + 1));
    const file = OpenLogFile.open(path, { shard, from: sealedBoundary(db, shard) });
    const index = new OpenLogIndex(path);
    try {
      const header = file.replayed.header;
      if (header.shard !== shard) throw new Error(`${path} holds the log of shard ${header.shard}`);
      const r = sealEverything(db, file, index, shard);
      total.blocks += r.blocks;
      total.points += r.points;
      total.projections += r.projections;
    } finally {
      index.close();
      file.close();
    }
  }
  return total;
}
