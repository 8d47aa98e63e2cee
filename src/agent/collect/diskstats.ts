import { join } from 'node:path';
import type { HostPaths } from './host-paths.js';
import { fields, readText } from './read.js';
import { clampRatio, counterDelta, counterRate } from './rate.js';

/** Cumulative counters of one /proc/diskstats line (sectors are always 512 bytes there). */
export interface DiskCounters {
  reads: number;
  sectorsRead: number;
  readMs: number;
  writes: number;
  sectorsWritten: number;
  writeMs: number;
  ioMs: number;
  weightedMs: number;
}

/**
 * Parses /proc/diskstats: 14 columns up to 4.17, 18 with discard counters (4.18), 20 with flush
 * counters (5.5). Only the first eleven statistics are used. Partition lines of 2.6-era kernels
 * carry just four statistics; whole disks never do, and only whole disks are read here.
 */
export function parseDiskstats(text: string): Map<string, DiskCounters> {
  const out = new Map<string, DiskCounters>();
  for (const line of text.split('\n')) {
    const f = fields(line);
    if (f.length < 14) continue;
    const v = f.slice(3, 14).map((x) => Number(x));
    if (v.some((n) => !Number.isFinite(n) || n < 0)) continue;
    out.set(f[2]!, {
      reads: v[0]!,
      sectorsRead: v[2]!,
      readMs: v[3]!,
      writes: v[4]!,
      sectorsWritten: v[6]!,
      writeMs: v[7]!,
      ioMs: v[9]!,
      weightedMs: v[10]!,
    });
  }
  return out;
}

export function readDiskstats(paths: HostPaths): Map<string, DiskCounters> | undefined {
  const text = readText(join(paths.proc, 'diskstats'));
  return text === undefined ? undefined : parseDiskstats(text);
}

export interface DiskRates {
  readBytes: number;
  writeBytes: number;
  readRate: number;
  writeRate: number;
  readIops: number;
  writeIops: number;
  iops: number;
  utilRatio: number;
  queueLength: number;
  waitMs: number;
  serviceMs: number;
}

/**
 * iostat-style figures between two samples: utilisation is busy time over elapsed time, queue
 * length the time-weighted in-flight count (aqu-sz), wait the mean time per completed request
 * (await) and service the busy time per request (svctm). With no baseline, or after a counter
 * reset, every rate is 0 for this sample (see counterRate).
 */
export function diskRates(
  prev: DiskCounters | undefined,
  cur: DiskCounters,
  seconds: number,
): DiskRates {
  const readBytes = cur.sectorsRead * 512;
  const writeBytes = cur.sectorsWritten * 512;
  const reset =
    prev === undefined ||
    !(seconds > 0) ||
    cur.reads < prev.reads ||
    cur.writes < prev.writes ||
    cur.ioMs < prev.ioMs;
  if (reset) {
    return {
      readBytes,
      writeBytes,
      readRate: 0,
      writeRate: 0,
      readIops: 0,
      writeIops: 0,
      iops: 0,
      utilRatio: 0,
      queueLength: 0,
      waitMs: 0,
      serviceMs: 0,
    };
  }
  const ios = counterDelta(prev.reads, cur.reads) + counterDelta(prev.writes, cur.writes);
  const busyMs = counterDelta(prev.ioMs, cur.ioMs);
  const waitedMs = counterDelta(prev.readMs, cur.readMs) + counterDelta(prev.writeMs, cur.writeMs);
  const readIops = counterRate(prev.reads, cur.reads, seconds);
  const writeIops = counterRate(prev.writes, cur.writes, seconds);
  return {
    readBytes,
    writeBytes,
    readRate: counterRate(prev.sectorsRead * 512, readBytes, seconds),
    writeRate: counterRate(prev.sectorsWritten * 512, writeBytes, seconds),
    readIops,
    writeIops,
    iops: readIops + writeIops,
    utilRatio: clampRatio(busyMs / (seconds * 1000)),
    queueLength: counterDelta(prev.weightedMs, cur.weightedMs) / (seconds * 1000),
    waitMs: ios > 0 ? waitedMs / ios : 0,
    serviceMs: ios > 0 ? busyMs / ios : 0,
  };
}
