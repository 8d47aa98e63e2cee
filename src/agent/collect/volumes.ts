import { basename } from 'node:path';
import type { HostPaths } from './host-paths.js';
import { blockNameOf, describeBlock, dmKernelName, parentDiskOf } from './block-devices.js';
import { realMounts, type MountEntry } from './mounts.js';

/** One logical disk: a device (or ZFS pool) with every real mount of it. */
export interface Volume {
  name: string;
  kind: string;
  devicePath?: string;
  level?: string;
  /** Kernel name of the block device, when there is one (md0 links the volume to its array). */
  blockName?: string;
  devices?: string[];
  mounts: MountEntry[];
  /** The mount whose usage represents the volume: the shortest mountpoint, so "/" wins. */
  primary: MountEntry;
}

interface VolumeIdentity {
  key: string;
  name: string;
  kind: string;
  devicePath?: string;
  level?: string;
  blockName?: string;
  devices?: string[];
}

function identify(paths: HostPaths, m: MountEntry): VolumeIdentity {
  if (m.fsType === 'zfs') {
    const pool = m.source.split('/')[0] || m.source;
    return { key: `zfs:${pool}`, name: pool, kind: 'zfs_pool' };
  }
  // Anonymous device numbers (0:N, btrfs) do not lead to a block device; the source does.
  const byNumber =
    m.majorMinor && !m.majorMinor.startsWith('0:') ? blockNameOf(paths, m.majorMinor) : undefined;
  // Without device numbers (/proc/mounts on old kernels) /dev/mapper/<name> is matched by dm name.
  const byMapperName = m.source.startsWith('/dev/mapper/')
    ? dmKernelName(paths, basename(m.source))
    : undefined;
  const kernelName =
    byNumber ?? byMapperName ?? (m.source.startsWith('/dev/') ? basename(m.source) : undefined);
  if (!kernelName) return { key: `src:${m.source}`, name: m.source, kind: 'disk' };
  const block = describeBlock(paths, kernelName);
  if (block) {
    return {
      key: `dev:${kernelName}`,
      name: block.label,
      kind: block.kind,
      devicePath: block.devicePath,
      blockName: kernelName,
      ...(block.level ? { level: block.level } : {}),
      ...(block.slaves.length > 0 ? { devices: block.slaves } : {}),
    };
  }
  const parent = parentDiskOf(paths, kernelName);
  return {
    key: `dev:${kernelName}`,
    name: kernelName,
    kind: 'disk',
    devicePath: m.source.startsWith('/dev/') && !byNumber ? m.source : `/dev/${kernelName}`,
    blockName: kernelName,
    ...(parent ? { devices: [parent] } : {}),
  };
}

/** Groups the real mounts by the device (or pool) behind them. */
export function volumesOf(paths: HostPaths, mounts: readonly MountEntry[]): Volume[] {
  const byKey = new Map<string, Volume>();
  for (const m of realMounts(mounts)) {
    const id = identify(paths, m);
    const existing = byKey.get(id.key);
    if (existing) {
      existing.mounts.push(m);
      if (m.mountpoint.length < existing.primary.mountpoint.length) existing.primary = m;
      continue;
    }
    const { key: _key, ...rest } = id;
    byKey.set(id.key, { ...rest, mounts: [m], primary: m });
  }
  // A pool's own dataset describes the pool better than whichever child is mounted shortest.
  for (const v of byKey.values()) {
    if (v.kind !== 'zfs_pool') continue;
    const root = v.mounts.find((m) => m.source === v.name);
    if (root) v.primary = root;
  }
  return [...byKey.values()];
}
