/**
 * Realistic node agent bodies (reference §1.2–§1.3 NodeReport, §2.1 Static), varied by a tick
 * so successive reports move the dashboard.
 */

const GiB = 1024 ** 3;

export interface SeedNode {
  name: string;
  tags: string[];
  guestVisible: boolean;
  /** Groups besides "default" to put the node in. */
  groups: string[];
  /** Adds SMART, RAID, thermal and pressure blocks when true. */
  rich: boolean;
}

export const SEED_NODES: SeedNode[] = [
  { name: 'web-1', tags: ['prod', 'eu-west'], guestVisible: true, groups: ['edge'], rich: true },
  { name: 'db-1', tags: ['prod', 'db'], guestVisible: false, groups: [], rich: true },
  { name: 'edge-1', tags: ['edge'], guestVisible: true, groups: ['edge'], rich: false },
];

export const AGENT_VERSION = '0.2.3';

function wave(tick: number, phase: number, lo: number, hi: number): number {
  return lo + ((Math.sin(tick / 3 + phase) + 1) / 2) * (hi - lo);
}

/**
 * wave(1) + … + wave(tick), in closed form: what a counter fed at wave's rate every tick holds.
 * Counters built from it only ever grow, as an interface's byte counters do between reboots
 * (a counter that goes down is a reset and carries no bytes, docs/traffic.md).
 */
function waveSum(tick: number, phase: number, lo: number, hi: number): number {
  if (tick <= 0) return 0;
  const d = 1 / 3;
  const sines =
    (Math.sin((tick * d) / 2) * Math.sin(phase + ((tick + 1) * d) / 2)) / Math.sin(d / 2);
  return tick * lo + ((tick + sines) / 2) * (hi - lo);
}

export function staticPayload(node: SeedNode, index: number, now: Date) {
  return {
    version: AGENT_VERSION,
    timestamp: now.toISOString(),
    report_interval_seconds: 3,
    cpu: {
      info: {
        model_name: 'AMD EPYC 7B13 64-Core Processor',
        vendor_id: 'AuthenticAMD',
        sockets: 1,
        cores_physical: 4,
        cores_logical: 8,
        frequency_mhz: 2450,
      },
    },
    memory: { total: 8 * GiB, swap_total: 2 * GiB },
    system: {
      hostname: node.name,
      os: 'linux',
      platform: 'debian',
      platform_version: '12.7',
      kernel_version: '6.1.0-25-amd64',
      arch: 'x86_64',
    },
    disk: {
      physical: [{ name: 'sda', device_path: '/dev/sda', ref: 'sda' }],
      logical: [
        {
          kind: 'disk',
          name: 'sda1',
          device_path: '/dev/sda1',
          ref: 'sda1',
          total: (80 + index * 20) * GiB,
          mountpoint: '/',
          mountpoints: { '/': { fs_type: 'ext4' } },
        },
      ],
      filesystems: [
        {
          path: '/',
          device: '/dev/sda1',
          mountpoint: '/',
          total: (80 + index * 20) * GiB,
          fs_type: 'ext4',
          inodes_total: 5_000_000,
        },
      ],
      base_io: [
        { kind: 'disk', name: 'sda', device_path: '/dev/sda', ref: 'sda', role: 'primary' },
      ],
    },
    raid: { supported: node.rich, available: node.rich, arrays: [] },
  };
}

export function metricsReport(node: SeedNode, index: number, tick: number, now: Date) {
  const total = (80 + index * 20) * GiB;
  const used = Math.round(total * wave(tick, index, 0.35, 0.45));
  const memUsed = Math.round(8 * GiB * wave(tick, index + 1, 0.3, 0.7));
  const recvRate = wave(tick, index, 50_000, 900_000);
  const sentRate = wave(tick, index + 2, 20_000, 400_000);
  const uptimeSeconds = 86_400 * (3 + index) + tick * 3;
  const report: Record<string, unknown> = {
    version: AGENT_VERSION,
    hostname: node.name,
    timestamp: now.toISOString(),
    metrics: {
      cpu: {
        usage_ratio: wave(tick, index, 0.05, 0.85),
        load1: wave(tick, index, 0.1, 2.5),
        load5: wave(tick, index + 1, 0.1, 2),
        load15: wave(tick, index + 2, 0.1, 1.5),
        times: { user: 0.2, system: 0.05, idle: 0.74, iowait: 0.01, steal: 0 },
      },
      memory: {
        used: memUsed,
        available: 8 * GiB - memUsed,
        buffers: 120 * 1024 ** 2,
        cached: GiB,
        swap_used: 0,
        swap_free: 2 * GiB,
        used_ratio: memUsed / (8 * GiB),
        swap_used_ratio: 0,
      },
      disk: {
        physical: [
          {
            name: 'sda',
            device_path: '/dev/sda',
            ref: 'sda',
            read_bytes: 10 * GiB + tick * 4096,
            write_bytes: 20 * GiB + tick * 8192,
            read_rate_bytes_per_sec: wave(tick, index, 0, 2e6),
            write_rate_bytes_per_sec: wave(tick, index + 1, 0, 5e6),
            iops: 40,
            read_iops: 15,
            write_iops: 25,
            queue_length: 0.1,
            wait_ms: 0.8,
            service_ms: 0.4,
            util_ratio: 0.05,
          },
        ],
        logical: [
          {
            kind: 'disk',
            name: 'sda1',
            device_path: '/dev/sda1',
            ref: 'sda1',
            used,
            free: total - used,
            total,
            used_ratio: used / total,
            mountpoint: '/',
            mountpoints: { '/': { fs_type: 'ext4' } },
          },
        ],
        filesystems: [
          {
            path: '/',
            device: '/dev/sda1',
            mountpoint: '/',
            used,
            free: total - used,
            used_ratio: used / total,
            inodes_used: 200_000,
            inodes_free: 4_800_000,
            inodes_used_ratio: 0.04,
            total,
            fs_type: 'ext4',
          },
        ],
        base_io: [
          {
            kind: 'disk',
            name: 'sda',
            device_path: '/dev/sda',
            ref: 'sda',
            role: 'primary',
            read_rate_bytes_per_sec: wave(tick, index, 0, 2e6),
            write_rate_bytes_per_sec: wave(tick, index + 1, 0, 5e6),
            read_iops: 15,
            write_iops: 25,
            iops: 40,
            read_bytes: 10 * GiB + tick * 4096,
            write_bytes: 20 * GiB + tick * 8192,
            util_ratio: 0.05,
          },
        ],
      },
      network: [
        {
          name: 'eth0',
          bytes_recv: 50 * GiB + Math.round(waveSum(tick, index, 50_000, 900_000) * 3),
          bytes_sent: 20 * GiB + Math.round(waveSum(tick, index + 2, 20_000, 400_000) * 3),
          packets_recv: 9_000_000 + tick * 300,
          packets_sent: 7_000_000 + tick * 200,
          err_in: 0,
          err_out: 0,
          drop_in: 0,
          drop_out: 0,
          recv_rate_bytes_per_sec: recvRate,
          sent_rate_bytes_per_sec: sentRate,
          recv_rate_packets_per_sec: 300,
          sent_rate_packets_per_sec: 200,
        },
      ],
      system: {
        alive: true,
        uptime_seconds: uptimeSeconds,
        uptime: `${Math.floor(uptimeSeconds / 86_400)} days`,
      },
      processes: { process_count: 180 + (tick % 7) },
      connections: { tcp_count: 40 + (tick % 5), udp_count: 6 },
      raid: { supported: node.rich, available: node.rich, arrays: node.rich ? raidArrays() : [] },
    },
  };
  const metrics = report.metrics as Record<string, unknown>;
  if (node.rich) {
    (metrics.disk as Record<string, unknown>).smart = {
      status: 'ok',
      updated_at: now.toISOString(),
      ttl_seconds: 600,
      devices: [
        {
          name: 'sda',
          source: 'smartctl',
          status: 'ok',
          ref: 'sda',
          device_path: '/dev/sda',
          device_type: 'sat',
          protocol: 'ATA',
          model: 'Samsung SSD 870 EVO 1TB',
          serial: `S6PNNS0T${index}00001`,
          health: 'passed',
          temp_c: 33 + index,
          power_on_hours: 12_034 + index,
        },
      ],
    };
    metrics.thermal = {
      status: 'ok',
      updated_at: now.toISOString(),
      sensors: [
        {
          kind: 'cpu',
          name: 'Package id 0',
          sensor_key: 'coretemp:package0',
          source: 'hwmon',
          status: 'ok',
          temp_c: Math.round(wave(tick, index, 42, 61)),
          high_c: 80,
          critical_c: 100,
        },
      ],
    };
    const psi = (a: number) => ({ avg10: a, avg60: a / 2, avg300: a / 4, total: 1_000_000 });
    metrics.pressure = {
      cpu: { some: psi(wave(tick, index, 0, 4)) },
      memory: { some: psi(0.2), full: psi(0.1) },
      io: { some: psi(wave(tick, index, 0, 2)), full: psi(0.3) },
    };
  }
  return report;
}

function raidArrays() {
  return [
    {
      name: 'md0',
      status: 'clean',
      health: 'healthy',
      active: 2,
      working: 2,
      failed: 0,
      members: [
        { name: 'sdb1', state: 'up' },
        { name: 'sdc1', state: 'up' },
      ],
    },
  ];
}
