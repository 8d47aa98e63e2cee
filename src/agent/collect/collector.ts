import { statfs as statfsAsync } from 'node:fs/promises';
import { machine } from 'node:os';
import type { AgentClock } from '../clock.js';
import type { Metrics, StaticReport } from '../payload.js';
import { listBlockDevices } from './block-devices.js';
import { cpuUsage, readCpuCounters, readLoad, type CpuCounters } from './cpu.js';
import { diskMetrics, staticDisk, statVolumes, type StatFs } from './disk.js';
import { readDiskstats, type DiskCounters } from './diskstats.js';
import { readCpuInfo, readSystemInfo } from './host-info.js';
import type { HostPaths } from './host-paths.js';
import { raidMetrics, readMdstat, staticRaid } from './mdstat.js';
import { readMemory } from './memory.js';
import { readMounts } from './mounts.js';
import { networkMetrics, readNetCounters, type NetCounters } from './network.js';
import { readPressure } from './pressure.js';
import { countConnections, countProcesses, formatUptime, readUptimeSeconds } from './system.js';
import { readThermal } from './thermal.js';
import { volumesOf } from './volumes.js';

export const liveStatfs: StatFs = async (mountpoint) => {
  try {
    const s = await statfsAsync(mountpoint);
    return {
      bsize: s.bsize,
      blocks: s.blocks,
      bfree: s.bfree,
      bavail: s.bavail,
      files: s.files,
      ffree: s.ffree,
    };
  } catch {
    return undefined;
  }
};

export interface CollectorOptions {
  paths: HostPaths;
  clock: AgentClock;
  statfs?: StatFs;
  /** Interfaces to report (--net); all non-virtual ones when empty. */
  interfaces?: readonly string[];
  /** uname machine (x86_64, aarch64); the running host's by default. */
  arch?: string;
}

interface Counters {
  at: number;
  cpu?: CpuCounters;
  net?: NetCounters[];
  disk?: Map<string, DiskCounters>;
}

/** Static information and whether every part of it could be read. */
export interface StaticSnapshot {
  body: Omit<StaticReport, 'version' | 'timestamp' | 'report_interval_seconds'>;
  complete: boolean;
}

/** Thrown when a source every report needs (/proc/stat, loadavg, meminfo, uptime) is unreadable. */
export class MissingSourceError extends Error {}

/** Keeps the first entry of every name: Dash rejects a report with a duplicate name. */
function uniqueBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const k = key(t).trim();
    if (k === '' || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Samples the host. Rates need two samples: without a prime() first, the first sample reports
 * every rate as 0, so the push loop primes one interval before its first report.
 */
export class Collector {
  private last: Counters | undefined;
  private readonly statfs: StatFs;

  constructor(private readonly opts: CollectorOptions) {
    this.statfs = opts.statfs ?? liveStatfs;
  }

  private readCounters(): Counters {
    const { paths } = this.opts;
    return {
      at: this.opts.clock.monotonic(),
      cpu: readCpuCounters(paths),
      net: readNetCounters(paths, this.opts.interfaces),
      disk: readDiskstats(paths),
    };
  }

  /** Takes the baseline the first sample's rates are measured against. */
  prime(): void {
    this.last = this.readCounters();
  }

  get primed(): boolean {
    return this.last !== undefined;
  }

  async sample(): Promise<Metrics> {
    const { paths } = this.opts;
    const prev = this.last;
    const cur = this.readCounters();
    this.last = cur;
    const seconds = prev ? (cur.at - prev.at) / 1000 : 0;

    const load = readLoad(paths);
    const memory = readMemory(paths);
    const uptime = readUptimeSeconds(paths);
    if (!cur.cpu || !load || !memory || uptime === undefined) {
      throw new MissingSourceError(
        'cannot read /proc/stat, /proc/loadavg, /proc/meminfo or /proc/uptime',
      );
    }
    const usage = prev?.cpu
      ? cpuUsage(prev.cpu, cur.cpu)
      : { usage_ratio: 0, times: { user: 0, system: 0, idle: 0, iowait: 0, steal: 0 } };

    const md = readMdstat(paths);
    const raidHealth = new Map((md ?? []).map((a) => [a.array.name, a.array.health]));
    const blocks = listBlockDevices(paths);
    const volumes = volumesOf(paths, readMounts(paths) ?? []);
    const disk = diskMetrics({
      blocks,
      volumes,
      usage: await statVolumes(volumes, this.statfs),
      prev: prev?.disk,
      cur: cur.disk,
      seconds,
      raidHealth,
    });
    const connections = countConnections(paths);
    const metrics: Metrics = {
      cpu: { usage_ratio: usage.usage_ratio, ...load, times: usage.times },
      memory: memory.metrics,
      disk: {
        physical: uniqueBy(disk.physical, (d) => d.name),
        logical: uniqueBy(disk.logical, (d) => d.name),
        filesystems: disk.filesystems,
        base_io: uniqueBy(disk.base_io, (d) => d.name),
      },
      network: uniqueBy(networkMetrics(prev?.net, cur.net ?? [], seconds), (n) => n.name),
      system: { alive: true, uptime_seconds: uptime, uptime: formatUptime(uptime) },
      processes: { process_count: countProcesses(paths) ?? 0 },
      connections: { tcp_count: connections?.tcp ?? 0, udp_count: connections?.udp ?? 0 },
      raid: raidMetrics(md),
    };
    const thermal = readThermal(paths);
    if (thermal) metrics.thermal = thermal;
    const pressure = readPressure(paths);
    if (pressure) metrics.pressure = pressure;
    return metrics;
  }

  /**
   * Static information. It is incomplete when the CPU model or count, the memory size or the
   * filesystem layout could not be read; the push loop then retries it.
   */
  async staticInfo(): Promise<StaticSnapshot> {
    const { paths } = this.opts;
    const cpu = readCpuInfo(paths) ?? {};
    const memory = readMemory(paths);
    const md = readMdstat(paths);
    const blocks = listBlockDevices(paths);
    const mounts = readMounts(paths);
    const volumes = volumesOf(paths, mounts ?? []);
    const usage = await statVolumes(volumes, this.statfs);
    const disk = staticDisk(blocks, volumes, usage);
    const complete =
      cpu.model_name !== undefined &&
      cpu.cores_logical !== undefined &&
      memory !== undefined &&
      mounts !== undefined &&
      volumes.every((v) => usage.has(v.primary.mountpoint));
    return {
      complete,
      body: {
        cpu: { info: cpu },
        memory: memory ? { total: memory.total, swap_total: memory.swapTotal } : {},
        system: readSystemInfo(paths, this.opts.arch ?? machine()),
        disk: {
          physical: uniqueBy(disk.physical, (d) => d.name),
          logical: uniqueBy(disk.logical, (d) => d.name),
          filesystems: disk.filesystems,
          base_io: uniqueBy(disk.base_io, (d) => d.name),
        },
        raid: staticRaid(md),
      },
    };
  }
}
