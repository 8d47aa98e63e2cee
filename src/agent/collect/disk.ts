import type {
  BaseIo,
  DiskMetrics,
  Filesystem,
  LogicalDisk,
  MountpointInfo,
  PhysicalDisk,
  StaticReport,
} from '../payload.js';
import type { BlockDevice } from './block-devices.js';
import { diskRates, type DiskCounters } from './diskstats.js';
import { usedRatio } from './rate.js';
import type { Volume } from './volumes.js';

/** The statfs(2) figures the agent uses (block counts in units of bsize). */
export interface FsStats {
  bsize: number;
  blocks: number;
  bfree: number;
  bavail: number;
  files: number;
  ffree: number;
}

export type StatFs = (mountpoint: string) => Promise<FsStats | undefined>;

interface Usage {
  total: number;
  used: number;
  free: number;
  usedRatio: number;
  inodesTotal: number;
  inodesFree: number;
  inodesUsed: number;
  inodesUsedRatio: number;
}

/**
 * Usage the way df reports it: used = all blocks minus free ones, free = what an unprivileged
 * user may still write (root-reserved blocks excluded), ratio = used / (used + free).
 */
export function usageOf(s: FsStats): Usage {
  const total = s.blocks * s.bsize;
  const used = Math.max(0, s.blocks - s.bfree) * s.bsize;
  const free = s.bavail * s.bsize;
  const inodesUsed = Math.max(0, s.files - s.ffree);
  return {
    total,
    used,
    free,
    usedRatio: usedRatio(used, free),
    inodesTotal: s.files,
    inodesFree: s.ffree,
    inodesUsed,
    inodesUsedRatio: usedRatio(inodesUsed, s.ffree),
  };
}

/** Inode figures are left out for filesystems that have no fixed inode table (btrfs reports 0). */
function mountpointInfo(fsType: string, u: Usage | undefined): MountpointInfo {
  const info: MountpointInfo = { fs_type: fsType.slice(0, 32) };
  if (u && u.inodesTotal > 0) {
    info.inodes_total = u.inodesTotal;
    info.inodes_used = u.inodesUsed;
    info.inodes_free = u.inodesFree;
    info.inodes_used_ratio = u.inodesUsedRatio;
  }
  return info;
}

/** statfs of every mountpoint of the volumes; a mountpoint that cannot be read is left out. */
export async function statVolumes(
  volumes: readonly Volume[],
  statfs: StatFs,
): Promise<Map<string, Usage>> {
  const out = new Map<string, Usage>();
  for (const v of volumes) {
    for (const m of v.mounts) {
      const s = await statfs(m.mountpoint);
      if (s && s.bsize > 0) out.set(m.mountpoint, usageOf(s));
    }
  }
  return out;
}

function logicalOf(
  v: Volume,
  usage: Map<string, Usage>,
  raidHealth: ReadonlyMap<string, string>,
): LogicalDisk | undefined {
  const u = usage.get(v.primary.mountpoint);
  if (!u) return undefined;
  const health = v.blockName ? raidHealth.get(v.blockName) : undefined;
  return {
    kind: v.kind,
    name: v.name,
    ...(v.devicePath ? { device_path: v.devicePath } : {}),
    used: u.used,
    free: u.free,
    total: u.total,
    used_ratio: u.usedRatio,
    ...(health ? { health } : {}),
    ...(v.level ? { level: v.level.slice(0, 32) } : {}),
    mountpoint: v.primary.mountpoint,
    mountpoints: Object.fromEntries(
      v.mounts.map((m) => [m.mountpoint, mountpointInfo(m.fsType, usage.get(m.mountpoint))]),
    ),
    ...(v.devices ? { devices: v.devices } : {}),
  };
}

function filesystemsOf(volumes: readonly Volume[], usage: Map<string, Usage>): Filesystem[] {
  const out: Filesystem[] = [];
  for (const v of volumes) {
    for (const m of v.mounts) {
      const u = usage.get(m.mountpoint);
      if (!u) continue;
      out.push({
        path: m.mountpoint,
        device: m.source,
        mountpoint: m.mountpoint,
        used: u.used,
        free: u.free,
        total: u.total,
        used_ratio: u.usedRatio,
        inodes_used: u.inodesUsed,
        inodes_free: u.inodesFree,
        inodes_total: u.inodesTotal,
        inodes_used_ratio: u.inodesUsedRatio,
        fs_type: m.fsType.slice(0, 32),
      });
    }
  }
  return out;
}

/**
 * Physical disks carry the full IO figures; base_io lists them as `primary` (their sum is the
 * host's disk IO without double counting) next to md arrays and device-mapper volumes, which are
 * shown but not summed.
 */
export function diskMetrics(input: {
  blocks: readonly BlockDevice[];
  volumes: readonly Volume[];
  usage: Map<string, Usage>;
  prev: ReadonlyMap<string, DiskCounters> | undefined;
  cur: ReadonlyMap<string, DiskCounters> | undefined;
  seconds: number;
  raidHealth: ReadonlyMap<string, string>;
}): DiskMetrics {
  const physical: PhysicalDisk[] = [];
  const baseIo: BaseIo[] = [];
  for (const b of input.blocks) {
    const counters = input.cur?.get(b.name);
    if (!counters) continue;
    const r = diskRates(input.prev?.get(b.name), counters, input.seconds);
    if (b.cls === 'physical') {
      physical.push({
        name: b.name,
        device_path: b.devicePath,
        read_bytes: r.readBytes,
        write_bytes: r.writeBytes,
        read_rate_bytes_per_sec: r.readRate,
        write_rate_bytes_per_sec: r.writeRate,
        iops: r.iops,
        read_iops: r.readIops,
        write_iops: r.writeIops,
        util_ratio: r.utilRatio,
        queue_length: r.queueLength,
        wait_ms: r.waitMs,
        service_ms: r.serviceMs,
      });
    }
    baseIo.push({
      kind: b.kind,
      name: b.label,
      device_path: b.devicePath,
      ...(b.cls === 'physical' ? { role: 'primary' } : {}),
      read_rate_bytes_per_sec: r.readRate,
      write_rate_bytes_per_sec: r.writeRate,
      read_iops: r.readIops,
      write_iops: r.writeIops,
      iops: r.iops,
      read_bytes: r.readBytes,
      write_bytes: r.writeBytes,
      util_ratio: r.utilRatio,
      queue_length: r.queueLength,
      wait_ms: r.waitMs,
      service_ms: r.serviceMs,
    });
  }
  return {
    physical,
    logical: input.volumes
      .map((v) => logicalOf(v, input.usage, input.raidHealth))
      .filter((l): l is LogicalDisk => l !== undefined),
    filesystems: filesystemsOf(input.volumes, input.usage),
    base_io: baseIo,
  };
}

/** The disk layout part of the Static report (capacities, no usage that changes every sample). */
export function staticDisk(
  blocks: readonly BlockDevice[],
  volumes: readonly Volume[],
  usage: Map<string, Usage>,
): StaticReport['disk'] {
  return {
    physical: blocks
      .filter((b) => b.cls === 'physical')
      .map((b) => ({ name: b.name, device_path: b.devicePath })),
    logical: volumes.flatMap((v) => {
      const u = usage.get(v.primary.mountpoint);
      if (!u) return [];
      return [
        {
          kind: v.kind,
          name: v.name,
          ...(v.devicePath ? { device_path: v.devicePath } : {}),
          total: u.total,
          ...(v.level ? { level: v.level.slice(0, 32) } : {}),
          mountpoint: v.primary.mountpoint,
          mountpoints: Object.fromEntries(
            v.mounts.map((m) => [m.mountpoint, { fs_type: m.fsType.slice(0, 32) }]),
          ),
          ...(v.devices ? { devices: v.devices } : {}),
        },
      ];
    }),
    filesystems: volumes.flatMap((v) =>
      v.mounts.flatMap((m) => {
        const u = usage.get(m.mountpoint);
        if (!u) return [];
        return [
          {
            path: m.mountpoint,
            device: m.source,
            mountpoint: m.mountpoint,
            total: u.total,
            fs_type: m.fsType.slice(0, 32),
            inodes_total: u.inodesTotal,
          },
        ];
      }),
    ),
    base_io: blocks.map((b) => ({
      kind: b.kind,
      name: b.label,
      device_path: b.devicePath,
      ...(b.cls === 'physical' ? { role: 'primary' } : {}),
    })),
  };
}
