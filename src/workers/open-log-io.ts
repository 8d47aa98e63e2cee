import { readFileSync } from 'node:fs';

/**
 * Where an ingest thread's disk writes go (docs/ingest-disk-writes.md), counted by the thread
 * and summed over threads for GET /metrics, so an operator (and bench:ingest) can split the
 * bytes written per report by source. Logical counts are bytes the code asked to write; `…Written`
 * counts are the thread's `write_bytes` from /proc (whole pages dirtied, as the kernel charges
 * them) measured around that work; `threadWritten` is everything the thread was charged.
 */
export interface OpenLogIo {
  /** Framed sample records appended to the log (one per accepted report). */
  sampleBytes: number;
  /** Framed projection records appended (one per node every 30–45 s). */
  projectionBytes: number;
  /** Zero bytes the syncs padded the log with, up to a page boundary (open-log.ts). */
  paddingBytes: number;
  /** fdatasyncs of the log, and the reports they acknowledged. */
  syncs: number;
  syncedReports: number;
  /** Seals run, and page writes of their node-range steps (blocks, `node_current`, WAL, checkpoints). */
  seals: number;
  sealWritten: number;
  /** Block data the seals stored, projections stored in `node_current`, and carried instead. */
  blockBytes: number;
  storedProjections: number;
  carriedProjections: number;
  /** Bytes of the log files the rotations wrote, and the page writes of the rotation steps. */
  rotationBytes: number;
  rotationWritten: number;
  /** Every page write charged to the thread. */
  threadWritten: number;
}

export function emptyOpenLogIo(): OpenLogIo {
  return {
    sampleBytes: 0,
    projectionBytes: 0,
    paddingBytes: 0,
    syncs: 0,
    syncedReports: 0,
    seals: 0,
    sealWritten: 0,
    blockBytes: 0,
    storedProjections: 0,
    carriedProjections: 0,
    rotationBytes: 0,
    rotationWritten: 0,
    threadWritten: 0,
  };
}

let procIo = process.platform === 'linux';

/** `write_bytes` charged to the calling thread so far; 0 where /proc does not tell (not Linux). */
export function threadWrittenBytes(): number {
  if (!procIo) return 0;
  try {
    const io = readFileSync('/proc/thread-self/io', 'latin1');
    const at = io.indexOf('\nwrite_bytes: ');
    return at < 0 ? 0 : Number.parseInt(io.slice(at + 14), 10);
  } catch {
    procIo = false;
    return 0;
  }
}

/** The newest counts each ingest thread of this process sent, by shard (HTTP thread side). */
const byShard = new Map<number, OpenLogIo>();

export function noteOpenLogIo(shard: number, io: OpenLogIo): void {
  byShard.set(shard, io);
}

/**
 * Sum over the ingest threads (or one shard's); undefined when none has sent counts
 * (PostgreSQL, inline).
 */
export function openLogIoTotals(shard?: number): OpenLogIo | undefined {
  const from = shard === undefined ? [...byShard.values()] : [byShard.get(shard)];
  if (from.length === 0 || from[0] === undefined) return undefined;
  const total = emptyOpenLogIo();
  for (const io of from as OpenLogIo[]) {
    for (const k of Object.keys(total) as Array<keyof OpenLogIo>) total[k] += io[k];
  }
  return total;
}
