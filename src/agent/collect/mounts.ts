import { join } from 'node:path';
import type { HostPaths } from './host-paths.js';
import { fields, readText } from './read.js';

export interface MountEntry {
  /** major:minor of the mounted device ("0:NN" for btrfs/zfs and other anonymous devices). */
  majorMinor?: string;
  /** Path inside the filesystem that is mounted ("/" unless it is a bind or subvolume mount). */
  root: string;
  mountpoint: string;
  fsType: string;
  source: string;
}

/** Octal escapes the kernel uses for space, tab, newline and backslash in mount paths. */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** Parses /proc/self/mountinfo (2.6.26+): optional fields end at the lone "-" separator. */
export function parseMountinfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const f = fields(line);
    const sep = f.indexOf('-', 6);
    if (f.length < 7 || sep < 0 || f.length < sep + 3) continue;
    out.push({
      majorMinor: f[2]!,
      root: unescapeMountPath(f[3]!),
      mountpoint: unescapeMountPath(f[4]!),
      fsType: f[sep + 1]!,
      source: unescapeMountPath(f[sep + 2]!),
    });
  }
  return out;
}

/** Parses /proc/mounts, the fallback for kernels without mountinfo. */
export function parseProcMounts(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const f = fields(line);
    if (f.length < 3) continue;
    out.push({
      root: '/',
      source: unescapeMountPath(f[0]!),
      mountpoint: unescapeMountPath(f[1]!),
      fsType: f[2]!,
    });
  }
  return out;
}

/** Filesystems that store data on a local block device (network and memory filesystems excluded). */
const DISK_FILESYSTEMS = new Set([
  'ext2',
  'ext3',
  'ext4',
  'xfs',
  'btrfs',
  'zfs',
  'f2fs',
  'jfs',
  'reiserfs',
  'vfat',
  'msdos',
  'exfat',
  'ntfs',
  'ntfs3',
  'fuseblk',
  'hfs',
  'hfsplus',
  'nilfs2',
  'bcachefs',
  'ufs',
]);

/**
 * Real mounts: disk filesystems mounted from their root. Bind mounts of a subdirectory (container
 * runtimes bind /etc/hosts and friends) are skipped, except btrfs subvolumes, which are separate
 * filesystems in their own right. When one mountpoint is mounted over, the last mount wins.
 */
export function realMounts(entries: readonly MountEntry[]): MountEntry[] {
  const byMountpoint = new Map<string, MountEntry>();
  for (const e of entries) {
    if (!DISK_FILESYSTEMS.has(e.fsType)) {
      byMountpoint.delete(e.mountpoint);
      continue;
    }
    if (e.root !== '/' && e.fsType !== 'btrfs') continue;
    byMountpoint.delete(e.mountpoint);
    byMountpoint.set(e.mountpoint, e);
  }
  return [...byMountpoint.values()];
}

export function readMounts(paths: HostPaths): MountEntry[] | undefined {
  const info = readText(join(paths.proc, 'self', 'mountinfo'));
  if (info !== undefined) return parseMountinfo(info);
  const mounts = readText(join(paths.proc, 'mounts'));
  return mounts === undefined ? undefined : parseProcMounts(mounts);
}
