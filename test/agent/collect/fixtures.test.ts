import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Collector, MissingSourceError } from '../../../src/agent/collect/collector.js';
import type { StatFs } from '../../../src/agent/collect/disk.js';
import { countConnections } from '../../../src/agent/collect/system.js';
import type { Metrics } from '../../../src/agent/payload.js';
import {
  anyStatfs,
  copyFixture,
  fakeStatfs,
  FakeAgentClock,
  fixturePaths,
} from '../support/agent-fakes.js';
import { nodeReportViolations, staticViolations } from '../support/payload-rules.js';

const KERNELS = ['centos6-2.6.32', 'debian10-4.19', 'ubuntu24-6.8', 'host-6.18', 'minimal'];

async function collect(kernel: string, statfs: StatFs = anyStatfs, interfaces?: string[]) {
  const clock = new FakeAgentClock();
  const collector = new Collector({
    paths: fixturePaths(kernel),
    clock,
    statfs,
    arch: 'x86_64',
    ...(interfaces ? { interfaces } : {}),
  });
  collector.prime();
  clock.advance(3000);
  const metrics = await collector.sample();
  const stat = await collector.staticInfo();
  const timestamp = new Date(clock.now()).toISOString();
  return {
    metrics,
    stat,
    report: { version: '0.3.0', hostname: 'fixture', timestamp, metrics },
    staticBody: { version: '0.3.0', timestamp, report_interval_seconds: 3, ...stat.body },
  };
}

const names = (items: { name: string }[]): string[] => items.map((i) => i.name);

describe.each(KERNELS)('collectors on the %s tree', (kernel) => {
  it('produce a NodeReport and a Static payload Dash accepts', async () => {
    const { report, staticBody } = await collect(kernel);
    expect(nodeReportViolations(report)).toEqual([]);
    expect(staticViolations(staticBody)).toEqual([]);
  });

  it('report no rate without elapsed counters (same tree sampled twice)', async () => {
    const { metrics } = await collect(kernel);
    for (const n of metrics.network) expect(n.recv_rate_bytes_per_sec).toBe(0);
    for (const d of metrics.disk.physical) expect(d.iops).toBe(0);
  });
});

describe('CentOS 6 (2.6.32: no mountinfo, no MemAvailable, no IPv6 tables, old hwmon layout)', () => {
  it('falls back to /proc/mounts and resolves /dev/mapper names to their LVM volumes', async () => {
    const { metrics } = await collect('centos6-2.6.32');
    expect(
      metrics.disk.logical.map((l) => [l.kind, l.name, l.mountpoint, l.devices ?? []]),
    ).toEqual([
      ['lvm_lv', 'VolGroup-lv_root', '/', ['sda2']],
      ['disk', 'sda1', '/boot', ['sda']],
      ['lvm_lv', 'VolGroup-lv_home', '/home', ['sda2']],
    ]);
    // nfs, proc, tmpfs, rootfs and binfmt_misc are not disks.
    expect(metrics.disk.filesystems.map((f) => f.path)).toEqual(['/', '/boot', '/home']);
    // The CD-ROM (sr0) is not a disk.
    expect(names(metrics.disk.physical)).toEqual(['sda']);
  });

  it('estimates available memory and counts IPv4 sockets only', async () => {
    const { metrics } = await collect('centos6-2.6.32');
    const kb = 1024;
    expect(metrics.memory.available).toBe((1523456 + 180224 + 1200128 + 90000) * kb);
    expect(metrics.connections).toEqual({ tcp_count: 5, udp_count: 2 });
    expect(names(metrics.network)).toEqual(['eth0', 'eth1']);
    expect(metrics.network[0]!.bytes_recv).toBe(1234567890);
    expect(metrics.pressure).toBeUndefined();
  });

  it('reads hwmon attributes from the device/ subdirectory', async () => {
    const { metrics } = await collect('centos6-2.6.32');
    expect(metrics.thermal?.sensors).toEqual([
      {
        kind: 'cpu',
        name: 'coretemp Core 0',
        sensor_key: 'hwmon/coretemp/temp2',
        source: 'hwmon',
        status: 'ok',
        temp_c: 45,
        high_c: 80,
        critical_c: 100,
      },
      expect.objectContaining({ name: 'coretemp Core 1', temp_c: 47 }),
    ]);
  });

  it('identifies the distribution from redhat-release', async () => {
    const { stat } = await collect('centos6-2.6.32');
    expect(stat.body.system).toEqual({
      hostname: 'legacy-db01',
      os: 'linux',
      platform: 'centos',
      platform_version: '6.10',
      kernel_version: '2.6.32-754.35.1.el6.x86_64',
      arch: 'x86_64',
    });
    expect(stat.body.raid).toEqual({ supported: true, available: true, arrays: [] });
  });
});

describe('Debian 10 (4.19: 18-column diskstats, md RAID, LVM on md, bind mounts)', () => {
  const statfs = fakeStatfs({
    '/': { bsize: 4096, blocks: 1000, bfree: 400, bavail: 350, files: 100, ffree: 40 },
    '/boot': {},
    '/data': {},
  });

  it('builds logical disks from LVM and md volumes with their RAID health', async () => {
    const { metrics } = await collect('debian10-4.19', statfs);
    const [root, boot, data] = metrics.disk.logical;
    expect(root).toEqual({
      kind: 'lvm_lv',
      name: 'vg0-root',
      device_path: '/dev/mapper/vg0-root',
      used: 600 * 4096,
      free: 350 * 4096,
      total: 1000 * 4096,
      used_ratio: 600 / 950,
      mountpoint: '/',
      mountpoints: {
        '/': {
          fs_type: 'ext4',
          inodes_total: 100,
          inodes_used: 60,
          inodes_free: 40,
          inodes_used_ratio: 0.6,
        },
      },
      devices: ['md1'],
    });
    expect(boot).toMatchObject({ kind: 'raid_md', name: 'md0', level: 'raid1', health: 'healthy' });
    expect(data).toMatchObject({
      kind: 'raid_md',
      name: 'md1',
      level: 'raid5',
      health: 'degraded',
    });
    // /srv (a bind of a subdirectory) and /etc/hostname-bind are not separate filesystems.
    expect(metrics.disk.filesystems.map((f) => f.path)).toEqual(['/', '/boot', '/data']);
  });

  it('lists physical disks as primary IO and md/dm volumes beside them', async () => {
    const { metrics } = await collect('debian10-4.19', statfs);
    expect(names(metrics.disk.physical)).toEqual(['sda', 'sdb', 'sdc', 'sdd']);
    expect(metrics.disk.base_io.map((b) => [b.kind, b.name, b.role ?? ''])).toEqual([
      ['lvm_lv', 'vg0-root', ''],
      ['lvm_lv', 'vg0-swap', ''],
      ['raid_md', 'md0', ''],
      ['raid_md', 'md1', ''],
      ['disk', 'sda', 'primary'],
      ['disk', 'sdb', 'primary'],
      ['disk', 'sdc', 'primary'],
      ['disk', 'sdd', 'primary'],
    ]);
    expect(metrics.disk.physical[0]!.read_bytes).toBe(46201234 * 512);
  });

  it('reports the arrays of mdstat, and their layout in Static', async () => {
    const { metrics, stat } = await collect('debian10-4.19', statfs);
    expect(metrics.raid.available).toBe(true);
    expect(metrics.raid.arrays.map((a) => [a.name, a.health, a.failed, a.sync_status])).toEqual([
      ['md1', 'degraded', 1, undefined],
      ['md0', 'healthy', 0, 'check'],
    ]);
    expect(stat.body.raid.arrays).toEqual([
      {
        name: 'md1',
        level: 'raid5',
        devices: 4,
        members: [{ name: 'sdd1' }, { name: 'sdc1' }, { name: 'sdb2' }, { name: 'sda2' }],
      },
      { name: 'md0', level: 'raid1', devices: 2, members: [{ name: 'sdb1' }, { name: 'sda1' }] },
    ]);
  });

  it('reads hwmon and thermal zones once each, skipping unreadable and negative sensors', async () => {
    const { metrics } = await collect('debian10-4.19', statfs);
    expect(metrics.thermal?.sensors.map((s) => [s.kind, s.sensor_key, s.temp_c])).toEqual([
      ['acpi', 'hwmon/acpitz/temp1', 27.8],
      ['cpu', 'hwmon/coretemp/temp1', 52],
      ['cpu', 'hwmon/coretemp/temp2', 50],
      ['cpu', 'hwmon/coretemp/temp3', 51],
      ['cpu', 'hwmon/coretemp/temp4', 49],
      ['cpu', 'hwmon/coretemp/temp5', 53],
      ['board', 'hwmon/nct6775/temp1', 38],
      ['cpu', 'thermal/thermal_zone1', 52],
    ]);
  });

  it('leaves out docker and veth interfaces and counts both socket families', async () => {
    const { metrics, stat } = await collect('debian10-4.19', statfs);
    expect(names(metrics.network)).toEqual(['eno1', 'eno2']);
    expect(metrics.connections).toEqual({ tcp_count: 46, udp_count: 5 });
    expect(metrics.processes.process_count).toBe(18);
    expect(metrics.pressure).toBeUndefined();
    expect(stat.body.cpu.info).toEqual({
      model_name: 'Intel(R) Xeon(R) CPU E3-1230 v3 @ 3.30GHz',
      vendor_id: 'GenuineIntel',
      sockets: 1,
      cores_physical: 4,
      cores_logical: 8,
      frequency_mhz: 3700,
    });
  });

  it('selects only the interfaces named with --net', async () => {
    const { metrics } = await collect('debian10-4.19', statfs, ['eno2', 'docker0', 'nope0']);
    expect(names(metrics.network)).toEqual(['eno2', 'docker0']);
  });
});

describe('Ubuntu 24.04 (6.8: 20-column diskstats, btrfs, ZFS, PSI, NVMe)', () => {
  const statfs = fakeStatfs({
    '/': { files: 0, ffree: 0 },
    '/home': { files: 0, ffree: 0 },
    '/boot/efi': {},
    '/tank': { blocks: 5000, bfree: 1000, bavail: 1000 },
    '/tank/media': { blocks: 9000, bfree: 1000, bavail: 1000 },
    '/mnt/backup': {},
    '/mnt/My Files': {},
  });

  it('groups btrfs subvolumes, ZFS datasets and double mounts into one logical disk each', async () => {
    const { metrics } = await collect('ubuntu24-6.8', statfs);
    expect(
      metrics.disk.logical.map((l) => [
        l.kind,
        l.name,
        l.mountpoint,
        Object.keys(l.mountpoints ?? {}),
      ]),
    ).toEqual([
      ['disk', 'nvme0n1p2', '/', ['/', '/home']],
      ['disk', 'nvme0n1p1', '/boot/efi', ['/boot/efi']],
      ['zfs_pool', 'tank', '/tank', ['/tank', '/tank/media']],
      ['disk', 'sda1', '/mnt/backup', ['/mnt/backup', '/mnt/My Files']],
    ]);
    const tank = metrics.disk.logical[2]!;
    expect(tank.total).toBe(5000 * 4096);
    // btrfs has no inode table: the inode figures are left out, not sent as zeros.
    expect(metrics.disk.logical[0]!.mountpoints!['/']).toEqual({ fs_type: 'btrfs' });
    expect(metrics.disk.filesystems).toHaveLength(7);
  });

  it('skips snap loop devices and reads the 20-column diskstats', async () => {
    const { metrics } = await collect('ubuntu24-6.8', statfs);
    expect(names(metrics.disk.physical)).toEqual(['nvme0n1', 'sda']);
    expect(metrics.disk.physical[0]!.write_bytes).toBe(1876543210 * 512);
  });

  it('reports PSI, swap and interfaces, dropping a counter beyond int64', async () => {
    const { metrics } = await collect('ubuntu24-6.8', statfs);
    expect(metrics.pressure?.cpu?.some).toEqual({
      avg10: 2.04,
      avg60: 1.5,
      avg300: 1.12,
      total: 123456789,
    });
    expect(metrics.pressure?.io?.full?.avg10).toBe(0.4);
    expect(metrics.memory.swap_used).toBe((8388604 - 6291452) * 1024);
    expect(names(metrics.network)).toEqual(['enp3s0', 'wlp2s0', 'tailscale0', 'wg0']);
    expect(metrics.raid).toEqual({ supported: true, available: false, arrays: [] });
  });

  it('names duplicate hwmon drivers apart and ignores placeholder limits', async () => {
    const { metrics } = await collect('ubuntu24-6.8', statfs);
    const sensors = metrics.thermal!.sensors;
    expect(sensors.map((s) => s.sensor_key)).toEqual([
      'hwmon/nvme/temp1',
      'hwmon/nvme/temp2',
      'hwmon/k10temp/temp1',
      'hwmon/k10temp/temp3',
      'hwmon/amdgpu/temp1',
      'hwmon/acpitz/temp1',
      'hwmon/nvme#2/temp1',
    ]);
    expect(sensors[1]).not.toHaveProperty('high_c');
    expect(sensors.find((s) => s.name === 'amdgpu edge')).toMatchObject({
      kind: 'gpu',
      critical_c: 100,
    });
  });
});

describe('missing sources', () => {
  it('omit thermal, pressure and disks, and mark Static incomplete', async () => {
    const { metrics, stat } = await collect('minimal');
    expect(metrics.thermal).toBeUndefined();
    expect(metrics.pressure).toBeUndefined();
    expect(metrics.disk).toEqual({ physical: [], logical: [], filesystems: [], base_io: [] });
    expect(metrics.network).toEqual([]);
    expect(metrics.raid.available).toBe(false);
    expect(stat.complete).toBe(false);
    expect(stat.body.cpu.info).toEqual({});
  });

  it('leave a filesystem out when statfs cannot read it', async () => {
    const { metrics, stat } = await collect('debian10-4.19', fakeStatfs({ '/': {} }));
    expect(metrics.disk.logical.map((l) => l.name)).toEqual(['vg0-root']);
    expect(stat.complete).toBe(false);
  });

  it('refuse to build a report without /proc/meminfo rather than invent memory figures', async () => {
    const { root, paths } = copyFixture('minimal');
    rmSync(join(root, 'proc', 'meminfo'));
    const collector = new Collector({ paths, clock: new FakeAgentClock(), statfs: anyStatfs });
    collector.prime();
    await expect(collector.sample()).rejects.toBeInstanceOf(MissingSourceError);
  });

  it('count sockets from sockstat, and from the per-socket tables when sockstat is missing', () => {
    for (const kernel of ['debian10-4.19', 'ubuntu24-6.8', 'host-6.18']) {
      const { root, paths } = copyFixture(kernel);
      const fromSockstat = countConnections(paths);
      rmSync(join(root, 'proc', 'net', 'sockstat'));
      rmSync(join(root, 'proc', 'net', 'sockstat6'));
      expect(countConnections(paths)).toEqual(fromSockstat);
    }
    expect(countConnections(fixturePaths('minimal'))).toBeUndefined();
  });

  it('give every report of a never-primed collector zero rates, not garbage', async () => {
    const collector = new Collector({
      paths: fixturePaths('debian10-4.19'),
      clock: new FakeAgentClock(),
      statfs: anyStatfs,
    });
    const m: Metrics = await collector.sample();
    expect(m.cpu.usage_ratio).toBe(0);
    expect(m.network.every((n) => n.recv_rate_bytes_per_sec === 0)).toBe(true);
  });
});
