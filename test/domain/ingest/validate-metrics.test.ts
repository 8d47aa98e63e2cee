import { describe, expect, it } from 'vitest';
import { validateMetricsReport } from '../../../src/domain/ingest/validate-metrics.js';
import type { NodeReport } from '../../../src/protocol/node-report.js';
import { agentReport, windowsAgentReport } from '../../support/agent-payloads.js';

type Mutable = Record<string, unknown>;

/** A realistic report with one change applied by `edit`. */
function edited(edit: (r: ReturnType<typeof agentReport> & Mutable) => void): NodeReport {
  const r: ReturnType<typeof agentReport> & Mutable = structuredClone(agentReport());
  edit(r);
  return r;
}

function dataMount(r: ReturnType<typeof agentReport>) {
  const md0 = r.metrics.disk.logical[1] as {
    mountpoints: Record<string, { fs_type: string; inodes_free: number }>;
  };
  return md0.mountpoints['/srv/data']!;
}

function code(report: NodeReport): string | undefined {
  try {
    validateMetricsReport(report);
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('validateMetricsReport accepts what real agents send', () => {
  it('accepts a full Linux report (disks, RAID, SMART, sensors, PSI) and extracts its facts', () => {
    const v = validateMetricsReport(agentReport());
    expect(v.version).toBe('0.2.5');
    expect(v.hostname).toBe('web-01.example.net');
    expect(v.reportedAt).toBe(Date.UTC(2026, 10, 21, 11, 0, 0));
  });

  it('accepts many consecutive reports with varying values', () => {
    for (let seq = 0; seq < 200; seq++) {
      expect(code(agentReport({ seq }) as NodeReport)).toBeUndefined();
    }
  });

  it('accepts a Windows report without RAID, PSI resources or SMART tool', () => {
    expect(code(windowsAgentReport() as NodeReport)).toBeUndefined();
  });

  it('accepts an older agent without smart, thermal and pressure', () => {
    expect(
      code(
        edited((r) => {
          const m = r.metrics as Mutable;
          delete (m.disk as Mutable).smart;
          delete m.thermal;
          delete m.pressure;
        }),
      ),
    ).toBeUndefined();
  });

  it('treats omitted numbers as zero, like the agent decoder (omitempty fields)', () => {
    expect(
      code(
        edited((r) => {
          const io = r.metrics.disk.base_io[2] as Mutable;
          delete io.util_ratio;
          delete io.read_bytes;
          delete (r.metrics.memory as Mutable).swap_used;
        }),
      ),
    ).toBeUndefined();
  });

  it('accepts the largest int64 counters, nanosecond timestamps and numeric offsets', () => {
    expect(
      code(
        edited((r) => {
          r.metrics.network[0]!.bytes_recv = 2 ** 63;
          r.timestamp = '2026-11-21T12:00:00.123456789+02:00';
        }),
      ),
    ).toBeUndefined();
  });

  it('accepts build metadata and prerelease versions', () => {
    expect(code(edited((r) => (r.version = '1.2.3-rc.1+build.5')))).toBeUndefined();
    expect(code(edited((r) => (r.version = ' 0.2.5 ')))).toBeUndefined();
  });
});

describe('validateMetricsReport rejects with 422 invalid_metrics', () => {
  const cases: Array<[string, (r: ReturnType<typeof agentReport> & Mutable) => void]> = [
    ['a missing version', (r) => delete (r as Mutable).version],
    ['a v-prefixed version', (r) => (r.version = 'v1.2.3')],
    ['a two-part version', (r) => (r.version = '1.2')],
    ['a version with leading zeros', (r) => (r.version = '01.2.3')],
    ['a version over 64 characters', (r) => (r.version = `1.2.3-${'a'.repeat(60)}`)],
    ['a blank hostname', (r) => (r.hostname = '   ')],
    ['a hostname over 255 characters', (r) => (r.hostname = 'h'.repeat(256))],
    ['a missing timestamp', (r) => delete (r as Mutable).timestamp],
    ['the zero timestamp', (r) => (r.timestamp = '0001-01-01T00:00:00Z')],
    ['missing metrics', (r) => delete (r as Mutable).metrics],
    ['null network', (r) => ((r.metrics as Mutable).network = null)],
    ['missing disk.physical', (r) => delete (r.metrics.disk as Mutable).physical],
    ['null disk.logical', (r) => ((r.metrics.disk as Mutable).logical = null)],
    ['missing disk.filesystems', (r) => delete (r.metrics.disk as Mutable).filesystems],
    ['missing disk.base_io', (r) => delete (r.metrics.disk as Mutable).base_io],
    ['null raid.arrays', (r) => ((r.metrics.raid as Mutable).arrays = null)],
    ['a blank uptime text', (r) => (r.metrics.system.uptime = '')],
    ['cpu usage above 1', (r) => (r.metrics.cpu.usage_ratio = 1.01)],
    ['a negative load', (r) => (r.metrics.cpu.load5 = -0.1)],
    ['a negative cpu time', (r) => (r.metrics.cpu.times.iowait = -1)],
    ['negative memory', (r) => (r.metrics.memory.used = -1)],
    ['a memory ratio above 1', (r) => (r.metrics.memory.swap_used_ratio = 2)],
    ['negative uptime seconds', (r) => (r.metrics.system.uptime_seconds = -5)],
    ['a negative process count', (r) => (r.metrics.processes.process_count = -1)],
    ['a negative tcp count', (r) => (r.metrics.connections.tcp_count = -1)],
    ['a blank physical disk name', (r) => (r.metrics.disk.physical[0]!.name = ' ')],
    ['duplicate physical disk names', (r) => (r.metrics.disk.physical[1]!.name = ' nvme0n1 ')],
    [
      'a disk name over 255 characters',
      (r) => (r.metrics.disk.physical[0]!.name = 'd'.repeat(256)),
    ],
    ['a disk ref over 320 characters', (r) => (r.metrics.disk.physical[0]!.ref = 'r'.repeat(321))],
    ['negative disk bytes', (r) => (r.metrics.disk.physical[0]!.read_bytes = -1)],
    ['a negative disk rate', (r) => (r.metrics.disk.physical[0]!.write_rate_bytes_per_sec = -1)],
    ['a disk util ratio above 1', (r) => (r.metrics.disk.physical[0]!.util_ratio = 1.5)],
    ['a blank logical kind', (r) => (r.metrics.disk.logical[0]!.kind = '')],
    [
      'a logical kind over 16 characters',
      (r) => (r.metrics.disk.logical[0]!.kind = 'k'.repeat(17)),
    ],
    ['duplicate logical names', (r) => (r.metrics.disk.logical[2]!.name = 'md0')],
    ['negative logical free', (r) => (r.metrics.disk.logical[0]!.free = -1)],
    ['a logical used ratio above 1', (r) => (r.metrics.disk.logical[1]!.used_ratio = 1.2)],
    [
      'a logical health over 32 characters',
      (r) => (r.metrics.disk.logical[1]!.health = 'h'.repeat(33)),
    ],
    ['a mountpoint fs type over 32 characters', (r) => (dataMount(r).fs_type = 'f'.repeat(33))],
    ['negative mountpoint inodes', (r) => (dataMount(r).inodes_free = -1)],
    ['a blank filesystem path', (r) => (r.metrics.disk.filesystems[0]!.path = '')],
    ['negative filesystem inodes', (r) => (r.metrics.disk.filesystems[0]!.inodes_used = -1)],
    ['an inode ratio above 1', (r) => (r.metrics.disk.filesystems[0]!.inodes_used_ratio = 1.1)],
    ['a blank base_io kind', (r) => (r.metrics.disk.base_io[0]!.kind = ' ')],
    ['duplicate base_io names', (r) => (r.metrics.disk.base_io[1]!.name = 'nvme0n1')],
    [
      'a base_io role over 16 characters',
      (r) => ((r.metrics.disk.base_io[0] as { role?: string }).role = 'r'.repeat(17)),
    ],
    ['a negative base_io iops', (r) => (r.metrics.disk.base_io[0]!.iops = -1)],
    ['a blank interface name', (r) => (r.metrics.network[0]!.name = '')],
    ['an interface name over 64 characters', (r) => (r.metrics.network[0]!.name = 'i'.repeat(65))],
    ['duplicate interface names', (r) => (r.metrics.network[1]!.name = 'eth0 ')],
    ['a negative interface counter', (r) => (r.metrics.network[0]!.drop_in = -1)],
    ['a negative interface rate', (r) => (r.metrics.network[0]!.sent_rate_bytes_per_sec = -3)],
    ['a blank RAID name', (r) => (r.metrics.raid.arrays[0]!.name = '')],
    ['a blank RAID health', (r) => (r.metrics.raid.arrays[0]!.health = '')],
    [
      'a RAID health over 16 characters',
      (r) => (r.metrics.raid.arrays[0]!.health = 'h'.repeat(17)),
    ],
    ['null RAID members', (r) => ((r.metrics.raid.arrays[0] as Mutable).members = null)],
    ['a negative RAID count', (r) => (r.metrics.raid.arrays[0]!.failed = -1)],
    ['a blank RAID member state', (r) => (r.metrics.raid.arrays[0]!.members[0]!.state = '')],
    ['a blank SMART status', (r) => (r.metrics.disk.smart.status = '')],
    ['null SMART devices', (r) => ((r.metrics.disk.smart as Mutable).devices = null)],
    ['a blank SMART device source', (r) => (r.metrics.disk.smart.devices[0]!.source = '')],
    ['a blank thermal status', (r) => (r.metrics.thermal.status = ' ')],
    ['null thermal sensors', (r) => ((r.metrics.thermal as Mutable).sensors = null)],
    ['a blank sensor key', (r) => (r.metrics.thermal.sensors[0]!.sensor_key = '')],
    ['a PSI average above 100', (r) => (r.metrics.pressure.io.some.avg10 = 100.5)],
    ['a negative PSI average', (r) => (r.metrics.pressure.cpu.some.avg300 = -0.1)],
    ['a negative PSI total', (r) => (r.metrics.pressure.memory.full.total = -1)],
  ];

  it.each(cases)('%s', (_name, edit) => {
    expect(code(edited(edit))).toBe('invalid_metrics');
  });

  it('rejects NaN-like infinities that slipped past JSON (defence in depth)', () => {
    expect(code(edited((r) => (r.metrics.cpu.load1 = Infinity)))).toBe('invalid_metrics');
  });
});

describe('validateMetricsReport rejects undecodable timestamps with 400 invalid_request', () => {
  it.each(['yesterday', '2026-13-01T00:00:00Z', '2026-11-21 12:00:00Z', ''])('%s', (ts) => {
    expect(code(edited((r) => (r.timestamp = ts)))).toBe('invalid_request');
  });

  it('rejects an unreadable SMART updated_at with 400', () => {
    expect(code(edited((r) => (r.metrics.disk.smart.updated_at = 'soon')))).toBe('invalid_request');
  });
});
