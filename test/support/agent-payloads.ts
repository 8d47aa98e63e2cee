/**
 * Full, realistic node agent payloads: what a Linux agent with NVMe + SATA disks in an md RAID,
 * several interfaces, hwmon sensors, SMART and PSI sends (field sets of the agent's runtime and
 * static types, optional fields omitted the way the agent omits them). `seq` varies the values
 * so consecutive reports differ like real ones.
 */

export interface ReportOptions {
  seq?: number;
  /** Node clock time (ISO string); defaults to a fixed instant plus seq × 3 s. */
  timestamp?: string;
  hostname?: string;
  version?: string;
}

const GiB = 1024 ** 3;

export function agentReport(opts: ReportOptions = {}) {
  const seq = opts.seq ?? 0;
  const wave = (base: number, amp: number, period = 17) =>
    Math.round((base + amp * Math.sin(seq / period)) * 1000) / 1000;
  const timestamp =
    opts.timestamp ?? new Date(Date.UTC(2026, 10, 21, 11, 0, 0) + seq * 3000).toISOString();
  return {
    version: opts.version ?? '0.2.5',
    hostname: opts.hostname ?? 'web-01.example.net',
    timestamp,
    metrics: {
      cpu: {
        usage_ratio: Math.min(1, Math.max(0, wave(0.31, 0.2))),
        load1: wave(1.25, 0.5),
        load5: wave(1.1, 0.3),
        load15: wave(0.95, 0.1),
        times: { user: 0.21, system: 0.07, idle: 0.69, iowait: 0.021, steal: 0.004 },
      },
      memory: {
        used: 6 * GiB + seq * 4096,
        available: 9 * GiB,
        buffers: 312_467_456,
        cached: 4_123_456_789,
        used_ratio: 0.3891,
        swap_used: 52_428_800,
        swap_free: 2 * GiB - 52_428_800,
        swap_used_ratio: 0.0244,
      },
      disk: {
        physical: [
          physical('nvme0n1', '/dev/nvme0n1', 'nvme:eui.0025388b91b1c2d3', seq),
          physical('sda', '/dev/sda', 'wwn:0x5000c500a1b2c3d4', seq),
          physical('sdb', '/dev/sdb', 'wwn:0x5000c500a1b2c3d5', seq),
        ],
        logical: [
          {
            kind: 'disk',
            name: 'nvme0n1p2',
            device_path: '/dev/nvme0n1p2',
            ref: 'mount:/',
            used: 81 * GiB + seq * 8192,
            free: 380 * GiB,
            used_ratio: 0.1757,
            health: 'ok',
          },
          {
            kind: 'raid_md',
            name: 'md0',
            device_path: '/dev/md0',
            ref: 'raid:md0',
            total: 3726 * GiB,
            used: 2011 * GiB,
            free: 1715 * GiB,
            used_ratio: 0.5397,
            health: 'healthy',
            level: 'raid1',
            mountpoint: '/srv/data',
            mountpoints: {
              '/srv/data': {
                fs_type: 'ext4',
                inodes_total: 244_187_136,
                inodes_used: 1_234_567,
                inodes_free: 242_952_569,
                inodes_used_ratio: 0.0051,
              },
            },
            devices: ['sda1', 'sdb1'],
          },
          {
            kind: 'lvm_lv',
            name: 'vg0-backup',
            device_path: '/dev/mapper/vg0-backup',
            ref: 'lvm:vg0/backup',
            used: 120 * GiB,
            free: 380 * GiB,
            used_ratio: 0.24,
          },
        ],
        filesystems: [
          filesystem('/', '/dev/nvme0n1p2', 81 * GiB, 380 * GiB),
          filesystem('/boot/efi', '/dev/nvme0n1p1', 6 * 1024 ** 2, 505 * 1024 ** 2),
          filesystem('/srv/data', '/dev/md0', 2011 * GiB, 1715 * GiB),
          filesystem('/srv/backup', '/dev/mapper/vg0-backup', 120 * GiB, 380 * GiB),
        ],
        base_io: [
          baseIo('disk', 'nvme0n1', '/dev/nvme0n1', 'nvme:eui.0025388b91b1c2d3', 'primary', seq),
          baseIo('raid_md', 'md0', '/dev/md0', 'raid:md0', 'primary', seq),
          {
            kind: 'lvm_lv',
            name: 'dm-0',
            device_path: '/dev/dm-0',
            ref: 'lvm:vg0/backup',
            read_rate_bytes_per_sec: 0,
            write_rate_bytes_per_sec: 4096,
            read_iops: 0,
            write_iops: 1,
            iops: 1,
          },
        ],
        smart: {
          status: 'ok',
          updated_at: '2026-11-21T10:58:00Z',
          ttl_seconds: 300,
          devices: [
            {
              ref: 'nvme:eui.0025388b91b1c2d3',
              name: 'nvme0n1',
              device_path: '/dev/nvme0n1',
              device_type: 'nvme',
              protocol: 'NVMe',
              model: 'Samsung SSD 980 PRO 500GB',
              serial: 'S5GYNX0R123456A',
              source: 'smartctl',
              status: 'ok',
              exit_status: 0,
              health: 'PASSED',
              temp_c: 41 + (seq % 3),
              power_on_hours: 18_231,
              lifetime_used_percent: 3,
              critical_warning: 0,
            },
            {
              ref: 'wwn:0x5000c500a1b2c3d4',
              name: 'sda',
              device_path: '/dev/sda',
              device_type: 'sat',
              protocol: 'ATA',
              model: 'ST4000NM0035-1V4107',
              serial: 'ZC1A2B3C',
              wwn: '0x5000c500a1b2c3d4',
              source: 'smartctl',
              status: 'ok',
              exit_status: 0,
              health: 'PASSED',
              temp_c: 33,
              power_on_hours: 40_112,
            },
            {
              ref: 'wwn:0x5000c500a1b2c3d5',
              name: 'sdb',
              device_path: '/dev/sdb',
              device_type: 'sat',
              protocol: 'ATA',
              model: 'ST4000NM0035-1V4107',
              serial: 'ZC1A2B3D',
              wwn: '0x5000c500a1b2c3d5',
              source: 'smartctl',
              status: 'ok',
              exit_status: 4,
              health: 'PASSED',
              temp_c: 34,
              power_on_hours: 40_098,
              failing_attrs: [
                { id: 190, name: 'Airflow_Temperature_Cel', when_failed: 'In_the_past' },
              ],
            },
            {
              name: 'md0',
              device_path: '/dev/md0',
              source: 'smartctl',
              status: 'unsupported',
              exit_status: 1,
            },
          ],
        },
      },
      network: [
        iface('eth0', 918_273_645_123, 123_456_789_012, 125_000, 48_000, seq),
        iface('eth1', 12_345_678, 9_876_543, 120, 64, seq),
        iface('docker0', 456_789, 1_234_567, 0, 0, seq),
      ],
      system: { alive: true, uptime_seconds: 1_050_245 + seq * 3, uptime: '12 days, 3:44:05' },
      processes: { process_count: 312 + (seq % 5) },
      connections: { tcp_count: 87, udp_count: 14 },
      pressure: {
        cpu: { status: 'ok', some: psi(1.5, seq), full: psi(0, seq) },
        memory: { status: 'ok', some: psi(0.12, seq), full: psi(0.05, seq) },
        io: { status: 'ok', some: psi(2.75, seq), full: psi(1.1, seq) },
      },
      raid: {
        supported: true,
        available: true,
        arrays: [
          {
            name: 'md0',
            status: 'active',
            active: 2,
            working: 2,
            failed: 0,
            health: 'healthy',
            members: [
              { name: 'sda1', state: 'up' },
              { name: 'sdb1', state: 'up' },
            ],
            sync_status: 'idle',
          },
        ],
      },
      thermal: {
        status: 'ok',
        updated_at: timestamp,
        sensors: [
          sensor('cpu', 'Package id 0', 'coretemp-isa-0000/temp1', 54 + (seq % 4), 80, 100),
          sensor('cpu', 'Core 0', 'coretemp-isa-0000/temp2', 51, 80, 100),
          sensor('cpu', 'Core 1', 'coretemp-isa-0000/temp3', 53, 80, 100),
          sensor('acpi', 'acpitz', 'acpitz-acpi-0/temp1', 27.8),
          sensor('unknown', 'Composite', 'nvme-pci-0100/temp1', 41.85, 81.85, 84.85),
          {
            kind: 'board',
            name: 'SYSTIN',
            sensor_key: 'nct6775-isa-0290/temp1',
            source: 'hwmon',
            status: 'unavailable',
          },
        ],
      },
    },
  };
}

function physical(name: string, path: string, ref: string, seq: number) {
  return {
    name,
    device_path: path,
    ref,
    read_bytes: 81_234_567_890 + seq * 40_960,
    write_bytes: 123_456_789_012 + seq * 1_228_800,
    read_rate_bytes_per_sec: 13_653.33,
    write_rate_bytes_per_sec: 409_600,
    iops: 52.67,
    read_iops: 3.33,
    write_iops: 49.33,
    util_ratio: 0.0213,
    queue_length: 0.07,
    wait_ms: 0.41,
    service_ms: 0.18,
  };
}

function baseIo(kind: string, name: string, path: string, ref: string, role: string, seq: number) {
  return {
    kind,
    name,
    device_path: path,
    ref,
    role,
    read_bytes: 81_234_567_890 + seq * 40_960,
    write_bytes: 123_456_789_012 + seq * 1_228_800,
    read_rate_bytes_per_sec: 13_653.33 + (seq % 7) * 100,
    write_rate_bytes_per_sec: 409_600,
    read_iops: 3.33,
    write_iops: 49.33,
    iops: 52.67,
    util_ratio: 0.0213,
    queue_length: 0.07,
    wait_ms: 0.41,
    service_ms: 0.18,
  };
}

function filesystem(path: string, device: string, used: number, free: number) {
  return {
    path,
    device,
    mountpoint: path,
    used,
    free,
    used_ratio: Math.round((used / (used + free)) * 10_000) / 10_000,
    inodes_used: 812_345,
    inodes_free: 30_000_000,
    inodes_used_ratio: 0.0264,
  };
}

function iface(name: string, recv: number, sent: number, rbps: number, sbps: number, seq: number) {
  return {
    name,
    bytes_recv: recv + seq * rbps * 3,
    bytes_sent: sent + seq * sbps * 3,
    recv_rate_bytes_per_sec: rbps + (seq % 11) * 10,
    sent_rate_bytes_per_sec: sbps,
    packets_recv: 712_345_678 + seq * 90,
    packets_sent: 498_765_432 + seq * 60,
    recv_rate_packets_per_sec: 30,
    sent_rate_packets_per_sec: 20,
    err_in: 0,
    err_out: 0,
    drop_in: 12,
    drop_out: 0,
  };
}

function psi(base: number, seq: number) {
  return {
    avg10: Math.round((base + (seq % 5) * 0.1) * 100) / 100,
    avg60: base,
    avg300: Math.round(base * 0.9 * 100) / 100,
    total: 123_456_789 + seq * 1000,
  };
}

function sensor(
  kind: string,
  name: string,
  key: string,
  temp: number,
  high?: number,
  critical?: number,
) {
  return {
    kind,
    name,
    sensor_key: key,
    source: 'hwmon',
    status: 'ok',
    temp_c: temp,
    ...(high !== undefined ? { high_c: high } : {}),
    ...(critical !== undefined ? { critical_c: critical } : {}),
  };
}

export type AgentReport = ReturnType<typeof agentReport>;

/** A Windows agent: no RAID, no PSI, no SMART tool, thermal unsupported. */
export function windowsAgentReport(seq = 0) {
  const r = agentReport({ seq, hostname: 'WIN-SRV-01' });
  const m = r.metrics;
  return {
    ...r,
    metrics: {
      ...m,
      disk: {
        physical: [physical('PhysicalDrive0', '\\\\.\\PhysicalDrive0', 'disk:0', seq)],
        logical: [
          {
            kind: 'disk',
            name: 'C:',
            ref: 'C:\\',
            used: 120 * GiB,
            free: 355 * GiB,
            used_ratio: 0.2526,
          },
        ],
        filesystems: [filesystem('C:\\', 'C:', 120 * GiB, 355 * GiB)],
        base_io: [
          baseIo('disk', 'PhysicalDrive0', '\\\\.\\PhysicalDrive0', 'disk:0', 'primary', seq),
        ],
        smart: { status: 'no_tool', devices: [] },
      },
      network: [iface('Ethernet', 1_234_567, 7_654_321, 2000, 1000, seq)],
      pressure: {
        cpu: { status: 'unsupported' },
        memory: { status: 'unsupported' },
        io: { status: 'unsupported' },
      },
      raid: { supported: false, available: false, arrays: [] },
      thermal: { status: 'unsupported', sensors: [] },
    },
  };
}
