import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { HostPaths } from './host-paths.js';
import { listDir, readAttr, readInt, readLink } from './read.js';

export type BlockClass = 'physical' | 'md' | 'dm';

/** A whole block device under /sys/block worth reporting. */
export interface BlockDevice {
  /** Kernel name (sda, nvme0n1, md0, dm-0): the key into /proc/diskstats. */
  name: string;
  cls: BlockClass;
  /** Name shown to users: the device-mapper name for dm devices, else the kernel name. */
  label: string;
  devicePath: string;
  /** Wire `kind`: disk, raid_md, lvm_lv. */
  kind: string;
  /** RAID level of an md device (raid1…). */
  level?: string;
  /** Kernel names of the devices underneath (md members, dm slaves). */
  slaves: string[];
  sizeBytes: number;
}

/** Pseudo devices with no storage of their own (images, RAM disks, swap-in-RAM, optical, floppy). */
const SKIPPED = /^(loop|ram|zram|sr|fd|nbd)\d/;

export function describeBlock(paths: HostPaths, name: string): BlockDevice | undefined {
  if (SKIPPED.test(name)) return undefined;
  const dir = join(paths.sys, 'block', name);
  const sectors = readInt(join(dir, 'size'));
  if (sectors === undefined || sectors <= 0) return undefined;
  const slaves = listDir(join(dir, 'slaves'));
  const base = { name, slaves, sizeBytes: sectors * 512 };
  if (name.startsWith('md') && existsSync(join(dir, 'md'))) {
    const level = readAttr(join(dir, 'md', 'level'));
    return {
      ...base,
      cls: 'md',
      label: name,
      devicePath: `/dev/${name}`,
      kind: 'raid_md',
      ...(level ? { level } : {}),
    };
  }
  if (name.startsWith('dm-')) {
    const dmName = readAttr(join(dir, 'dm', 'name'));
    const uuid = readAttr(join(dir, 'dm', 'uuid')) ?? '';
    return {
      ...base,
      cls: 'dm',
      label: dmName ?? name,
      devicePath: dmName ? `/dev/mapper/${dmName}` : `/dev/${name}`,
      kind: uuid.startsWith('LVM-') ? 'lvm_lv' : 'disk',
    };
  }
  // Real hardware (and virtio/xen disks) link to a parent device; virtual devices do not.
  if (!existsSync(join(dir, 'device'))) return undefined;
  return { ...base, cls: 'physical', label: name, devicePath: `/dev/${name}`, kind: 'disk' };
}

export function listBlockDevices(paths: HostPaths): BlockDevice[] {
  return listDir(join(paths.sys, 'block'))
    .sort()
    .map((name) => describeBlock(paths, name))
    .filter((d): d is BlockDevice => d !== undefined);
}

/** Kernel name of the block device numbered major:minor (via /sys/dev/block). */
export function blockNameOf(paths: HostPaths, majorMinor: string): string | undefined {
  const target = readLink(join(paths.sys, 'dev', 'block', majorMinor));
  return target ? basename(target) : undefined;
}

/** The whole disk a partition belongs to (sda1 → sda), or undefined for a whole disk. */
export function parentDiskOf(paths: HostPaths, name: string): string | undefined {
  const target = readLink(join(paths.sys, 'class', 'block', name));
  if (!target || !existsSync(join(paths.sys, 'class', 'block', name, 'partition'))) {
    return undefined;
  }
  const parts = target.split('/');
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}

/** The dm-N kernel name of a device-mapper device known by its /dev/mapper name. */
export function dmKernelName(paths: HostPaths, mapperName: string): string | undefined {
  return listDir(join(paths.sys, 'block'))
    .filter((n) => n.startsWith('dm-'))
    .find((n) => readAttr(join(paths.sys, 'block', n, 'dm', 'name')) === mapperName);
}
