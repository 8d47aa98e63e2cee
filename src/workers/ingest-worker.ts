import { fdatasync, openSync, fstatSync, statSync, closeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { RenderFacts } from '../domain/front/render.js';
import { notStored, type CoreResult, type RawReport } from '../domain/ingest/ingest-core.js';
import { systemClock } from '../platform/clock.js';
import {
  BACKGROUND_PACE,
  StepPacer,
  UNPACED,
  eventLoopWait,
  type PaceOptions,
} from '../platform/step-pacer.js';
import { nameThisThread } from '../platform/thread-names.js';
import type { EngineRequest } from '../store/sqlite/engine-runner.js';
import { openSqliteConnection } from '../store/sqlite/connection.js';
import { DEFAULT_SEAL_MS } from '../store/sqlite/history-blocks.js';
import { OpenLogFile } from '../store/sqlite/open-log.js';
import { INDEX_STEP_BYTES } from '../store/sqlite/open-log-index.js';
import {
  OpenLogReaders,
  openLogPath,
  planSeal,
  sealBoundary,
  sealEverythingRuns,
  sealedBoundary,
  type SealRun,
} from '../store/sqlite/open-logs.js';
import { createIngestHost } from './ingest-host.js';
import { GroupSync } from './group-sync.js';
import { ingestTraceOn, traceNow, type SyncTrace } from './ingest-trace.js';
import { packViews } from './packed-views.js';
import { WriteLock } from './write-lock.js';
import { emptyOpenLogIo, threadWrittenBytes, type OpenLogIo } from './open-log-io.js';
import { COMMIT_SHARE_BYTES, DEFAULT_COMMIT_DELAY_MS } from './commit-delay.js';

/**
 * The ingest thread: owns the second SQLite connection and runs the report pipeline and the
 * metrics maintenance tasks. Messages in: {reports: [...]} (one batch from the HTTP thread),
 * {facts: [...]} (render facts of nodes), {id, task}, {id, seal} (seal this thread's open-block
 * log) and {id, close} (which seals the whole log). Out: {ready} (once, when loaded),
 * {results: [...]} (one per batch), {id, ok, value|error}.
 */
export type ToWorker =
  | { reports: Array<RawReport & { id: number }> }
  | { facts: Array<[number, RenderFacts | null]> }
  | { id: number; task: EngineRequest }
  | { id: number; seal: { now: number; sealMs?: number } }
  | { id: number; close: true };

/** How one seal of this thread's log went: what it wrote and how long it held commits. */
export interface SealReport {
  shard: number;
  blocks: number;
  points: number;
  projections: number;
  /** Steps (node range transactions, then copies of the log's open part), and the longest of
   * them or the last one: the longest any commit waited. */
  steps: number;
  longestStepMs: number;
  /** The last step: the synced watermark commit, the copy of what came since, the rename. */
  finishMs: number;
  /** From the first step to the end, reports committed in between. */
  totalMs: number;
}

export type FromWorker =
  | { ready: true }
  | { sealed: SealReport }
  /** A paced maintenance run (rollup, retention) ended: how many steps, the longest. */
  | { stepped: { shard: number; task: string; steps: number; longestStepMs: number } }
  | { io: OpenLogIo }
  | { results: Array<{ id: number; result: CoreResult }>; trace?: SyncTrace }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };

if (!parentPort) throw new Error('ingest-worker must run as a worker thread');
const port = parentPort;

export interface IngestWorkerData {
  path: string;
  staleAfterSec: number;
  /** This thread's share of the nodes, and the write slot it shares with the other shares. */
  shard: number;
  writeLock?: SharedArrayBuffer;
  maxDevicesPerNode?: number;
  /** Bytes a seal step writes before it commits (tests make it small to get many steps). */
  sealStepBytes?: number;
  /**
   * Longest a committed report waits for its log sync to start (ingest_commit_delay), unless
   * `COMMIT_SHARE_BYTES` of records are waiting already; 0 syncs at once.
   */
  commitDelayMs?: number;
}

const {
  path,
  staleAfterSec,
  shard,
  writeLock,
  maxDevicesPerNode,
  sealStepBytes,
  commitDelayMs = DEFAULT_COMMIT_DELAY_MS,
} = workerData as IngestWorkerData;
nameThisThread(`ingest-${shard}`);
// Commits write the WAL without waiting for the disk; groupSync below makes them durable before
// anyone is answered, on a libuv thread, so this thread decodes the next batch meanwhile.
const db = openSqliteConnection(path, 'ingest');
const slot = writeLock ? new WriteLock(writeLock, shard) : undefined;
// This thread's open-block log: every accepted report is appended to it (docs/ingest-disk-writes.md).
const logFile = OpenLogFile.open(openLogPath(path, shard), {
  shard,
  from: sealedBoundary(db, shard),
});
const readers = new OpenLogReaders(path);
/** A pacer of this thread's background steps, on its clock and event-loop wait. */
const pacerOf = (pace: PaceOptions) => new StepPacer(() => performance.now(), eventLoopWait, pace);

const host = createIngestHost(
  db,
  () => systemClock.now(),
  staleAfterSec,
  slot,
  maxDevicesPerNode,
  { file: logFile, readers },
  {
    // Rollups and retention run paced, like the seal: a gap for the batches after each step.
    pacer: () => pacerOf(BACKGROUND_PACE),
    done: (task, pacer) =>
      port.postMessage({
        stepped: { shard, task, steps: pacer.steps, longestStepMs: pacer.longestStepMs },
      } satisfies FromWorker),
  },
);
const committer = host.committer!;
readers.share(committer.index);
/** The seal interval the rollup job last asked for; a stop seals with it. */
let sealMs = DEFAULT_SEAL_MS;

type Answer = { id: number; result: CoreResult };

/** This thread's disk writes by source (open-log-io.ts), sent to the HTTP thread now and then. */
const io = emptyOpenLogIo();
let ioSentAt = 0;
function sendIo(force = false): void {
  const t = performance.now();
  if (!force && t - ioSentAt < 1000) return;
  ioSentAt = t;
  io.sampleBytes = committer.appended.samples;
  io.projectionBytes = committer.appended.projections;
  io.paddingBytes = logFile.padding;
  io.threadWritten = threadWrittenBytes();
  port.postMessage({ io: { ...io } } satisfies FromWorker);
}

/** The WAL's fd for the group sync (the WAL is created on first write and may be replaced). */
const walFd = (() => {
  const walPath = `${path}-wal`;
  let fd: number | undefined;
  return (): number => {
    if (fd !== undefined && fstatSync(fd).ino === statSync(walPath).ino) return fd;
    if (fd !== undefined) closeSync(fd);
    fd = openSync(walPath, 'r');
    return fd;
  };
})();

/** The log's size when the last sync started: what was appended since waits for the next. */
let syncedSize = logFile.size;
const groupSync = new GroupSync<Answer>(
  (done) => {
    logFile.sync(done);
    // After the sync's padding (open-log.ts), which is not waiting for the next sync.
    syncedSize = logFile.size;
  },
  (done) => fdatasync(walFd(), done),
  (answers, transfer, failure, trace) => {
    if (failure) {
      const message = `sync failed: ${failure.message}`;
      port.postMessage({
        results: answers.map(({ id }) => ({ id, result: notStored(message) })),
      } satisfies FromWorker);
    } else {
      port.postMessage({ results: answers, trace } satisfies FromWorker, transfer);
    }
    sendIo();
  },
  ingestTraceOn ? traceNow : undefined,
  {
    delayMs: commitDelayMs,
    shareBytes: COMMIT_SHARE_BYTES,
    // A rotation replaced the file when it is smaller: its size then says nothing (sync at once).
    pendingBytes: () => logFile.size - syncedSize,
    onStart: (answers) => {
      io.syncs++;
      io.syncedReports += answers;
    },
    clock: () => performance.now(),
  },
);

/** Runs `fn` in the write slot once `schedule` calls back, settling with its result. */
function inSlot<T>(schedule: (run: () => void) => void, fn: () => T): Promise<T> {
  return new Promise((resolve, reject) =>
    schedule(() => {
      slot?.acquire();
      try {
        resolve(fn());
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      } finally {
        slot?.release();
      }
    }),
  );
}

/** A seal step of this thread's log, in the write slot, with no sync of the log in flight. */
function sealLog(step: () => unknown): Promise<unknown> {
  return inSlot((run) => groupSync.whenQuiet(run), step);
}

/**
 * A seal of this thread's closed windows in short transactions (open-log-seal.ts), each on its
 * own turn of the event loop, so the batches that arrive meanwhile commit between them instead
 * of waiting out the whole seal. Most projections are carried into the next log file rather
 * than stored in `node_current` (planSeal's `carry`, CURRENT_REFRESH_SEALS).
 */
async function sealInSteps(now: number): Promise<SealReport | undefined> {
  const started = performance.now();
  const pacer = pacerOf(BACKGROUND_PACE);
  // planSeal lists the log's nodes from this thread's index of it, which the batches do not
  // keep up to date: up to a seal interval of records (~100 MB at 1,500 reports/s) indexed in
  // one unpaced call. Brought up to date here in paced steps (on every rollup's call, so a
  // minute at a time), planSeal's own refresh finds only what came since. The seal counts as
  // started (no sample before its boundary is appended any more) before these steps, as it
  // did when planned at once.
  const boundary = sealBoundary(db, logFile, shard, now, sealMs);
  if (boundary !== undefined) logFile.sealingTo(boundary);
  const index = committer.index;
  while (!(await pacer.step(() => index.refreshStep(INDEX_STEP_BYTES * pacer.scale))));
  const run = planSeal(db, logFile, index, shard, now, sealMs, sealStepBytes, true);
  if (!run) return undefined;
  const report = await runSeal(run, pacer, started);
  port.postMessage({ sealed: report } satisfies FromWorker);
  return report;
}

/**
 * Runs a seal's steps: each node range read and encoded outside the write slot (so the other
 * thread commits, or seals, meanwhile) and committed in it; the copy of the log's open part
 * into the next file outside it too (no SQLite write); the last step (watermark and rotation)
 * in it, at a moment with no sync in flight. A running server's seal is paced
 * (`BACKGROUND_PACE`): a gap after each step for the batches, steps cut down while they run
 * long; a stop's runs at full speed.
 */
async function runSeal(
  run: SealRun,
  pacer: StepPacer,
  started = performance.now(),
): Promise<SealReport> {
  const counted = <T>(fn: () => T): (() => T) => {
    return () => {
      const w0 = threadWrittenBytes();
      const copy = run.copying;
      try {
        return fn();
      } finally {
        if (copy) io.rotationWritten += threadWrittenBytes() - w0;
        else io.sealWritten += threadWrittenBytes() - w0;
      }
    };
  };
  const step = <T>(fn: () => T, writesSqlite = false): Promise<T> =>
    pacer.step(() => {
      run.scaleSteps(pacer.scale);
      if (!writesSqlite) return counted(fn)();
      slot?.acquire();
      try {
        return counted(fn)();
      } finally {
        slot?.release();
      }
    });
  while (await step(() => run.prepareRange())) {
    await step(() => run.commitRange(), true);
  }
  while (await step(() => run.step()));
  let finishMs = 0;
  // The last step syncs the WAL (its watermark commit, which also makes the steps' commits
  // durable) and the next log file (the copies) on this thread, in the write slot: sync both
  // now on a libuv thread, so that step finds little left to write. Only a head start: a
  // failure here is left to that step's own syncs to report.
  await Promise.all([presync((done) => fdatasync(walFd(), done)), presync(run.syncCopy)]);
  await pacer.pause();
  const result = (await sealLog(() => {
    const t0 = performance.now();
    const w0 = threadWrittenBytes();
    try {
      return run.finish();
    } finally {
      finishMs = performance.now() - t0;
      io.rotationWritten += threadWrittenBytes() - w0;
    }
  })) as ReturnType<typeof run.finish>;
  io.seals++;
  io.blockBytes += run.written.blockBytes;
  io.storedProjections += result.projections;
  io.carriedProjections += run.written.carried;
  io.rotationBytes += logFile.size;
  sendIo(true);
  return {
    shard,
    ...result,
    // The last call of each loop found nothing left: it was no step. The index steps before
    // the plan count (their longest too: they held the thread as much).
    steps: pacer.steps - 2,
    longestStepMs: Math.max(pacer.longestStepMs, finishMs),
    finishMs,
    totalMs: performance.now() - started,
  };
}

/** Runs an early sync whose failure does not matter (a later sync covers the same bytes). */
function presync(sync: (done: (err: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve) => {
    try {
      sync(() => resolve());
    } catch {
      resolve();
    }
  });
}

/** The seal in progress, if any: seals run one after another, and a stop waits for it. */
let sealing: Promise<unknown> = Promise.resolve();

function sealOwnLog(now: number, ms: number | undefined): Promise<unknown> {
  if (ms !== undefined) sealMs = ms;
  const run = sealing.then(() => sealInSteps(now));
  sealing = run.catch(() => undefined);
  return run;
}

function reply(id: number, work: Promise<unknown>): void {
  work.then(
    (value) => port.postMessage({ id, ok: true, value } satisfies FromWorker),
    (err: unknown) =>
      port.postMessage({
        id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      } satisfies FromWorker),
  );
}

port.on('message', (msg: ToWorker) => {
  if ('reports' in msg) {
    // One message in, one transaction; the answers leave once the WAL is on disk, while this
    // thread already works on the next batch.
    const recv = ingestTraceOn ? traceNow() : 0;
    const waitedBefore = slot?.waitedMs ?? 0;
    const results = host.core.processBatch(msg.reports);
    groupSync.after(
      msg.reports.map((r, i) => ({ id: r.id, result: results[i]! })),
      committer.sqliteWritten,
      packViews(results),
      ingestTraceOn
        ? {
            n: msg.reports.length,
            recv,
            done: traceNow(),
            slotWaitMs: (slot?.waitedMs ?? 0) - waitedBefore,
          }
        : undefined,
    );
  } else if ('facts' in msg) {
    for (const [nodeId, facts] of msg.facts) host.core.setFacts(nodeId, facts);
  } else if ('seal' in msg) {
    reply(msg.id, sealOwnLog(msg.seal.now, msg.seal.sealMs));
  } else if ('task' in msg) {
    const task = msg.task;
    // The rollups read every log; this thread's closed windows are sealed first.
    const before = task.type === 'rollup' ? sealOwnLog(task.now, task.sealMs) : Promise.resolve();
    reply(
      msg.id,
      before.then(() => host.runner.handle(task)),
    );
  } else {
    void groupSync.idle().then(async () => {
      await sealing;
      // A stop seals everything this thread logged, so a stopped database holds every point;
      // in steps, so the other thread's stop encodes its blocks meanwhile (on the other core).
      for (const run of sealEverythingRuns(db, logFile, committer.index, shard, sealMs)) {
        port.postMessage({ sealed: await runSeal(run, pacerOf(UNPACED)) } satisfies FromWorker);
      }
      committer.index.close();
      readers.close();
      logFile.close();
      db.close();
      port.postMessage({ id: msg.id, ok: true, value: null } satisfies FromWorker);
      port.close();
    });
  }
});

port.postMessage({ ready: true } satisfies FromWorker);
