const GiB = 1024 ** 3;

/** The static report the same Linux agent sends at start. */
export function agentStatic(opts: { hostname?: string; version?: string } = {}) {
  return {
    version: opts.version ?? '0.2.5',
    timestamp: '2026-11-21T10:59:58.123456789Z',
    report_interval_seconds: 3,
    cpu: {
      info: {
        model_name: 'Intel(R) Xeon(R) E-2276G CPU @ 3.80GHz',
        vendor_id: 'GenuineIntel',
        sockets: 1,
        cores_physical: 6,
        cores_logical: 12,
        frequency_mhz: 3800,
      },
    },
    memory: { total: 32 * GiB, swap_total: 2 * GiB },
    disk: {
      physical: [
        { name: 'nvme0n1', device_path: '/dev/nvme0n1', ref: 'nvme:eui.0025388b91b1c2d3' },
        { name: 'sda', device_path: '/dev/sda', ref: 'wwn:0x5000c500a1b2c3d4' },
        { name: 'sdb', device_path: '/dev/sdb', ref: 'wwn:0x5000c500a1b2c3d5' },
      ],
      logical: [
        {
          kind: 'disk',
          name: 'nvme0n1p2',
          device_path: '/dev/nvme0n1p2',
          ref: 'mount:/',
          total: 461 * GiB,
          mountpoint: '/',
          fs_type: 'xfs',
        },
        {
          kind: 'raid_md',
          name: 'md0',
          device_path: '/dev/md0',
          ref: 'raid:md0',
          total: 3726 * GiB,
          mountpoint: '/srv/data',
          fs_type: 'ext4',
          devices: ['sda1', 'sdb1'],
        },
      ],
      filesystems: [
        {
          path: '/',
          device: '/dev/nvme0n1p2',
          mountpoint: '/',
          total: 461 * GiB,
          fs_type: 'xfs',
          inodes_total: 241_000_000,
        },
        {
          path: '/srv/data',
          device: '/dev/md0',
          mountpoint: '/srv/data',
          total: 3726 * GiB,
          fs_type: 'ext4',
          inodes_total: 244_187_136,
        },
      ],
      base_io: [
        {
          kind: 'disk',
          name: 'nvme0n1',
          device_path: '/dev/nvme0n1',
          ref: 'nvme:eui.0025388b91b1c2d3',
          role: 'primary',
        },
        { kind: 'raid_md', name: 'md0', device_path: '/dev/md0', ref: 'raid:md0', role: 'primary' },
      ],
    },
    system: {
      hostname: opts.hostname ?? 'web-01.example.net',
      os: 'linux',
      platform: 'debian',
      platform_version: '12.8',
      kernel_version: '6.1.0-27-amd64',
      arch: 'x86_64',
    },
    raid: {
      supported: true,
      available: true,
      arrays: [
        { name: 'md0', level: 'raid1', devices: 2, members: [{ name: 'sda1' }, { name: 'sdb1' }] },
      ],
    },
  };
}
