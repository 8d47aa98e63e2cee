import { describe, expect, it } from 'vitest';
import { cpuUsage, parseLoadavg, parseProcStat } from '../../../src/agent/collect/cpu.js';
import { diskRates, parseDiskstats } from '../../../src/agent/collect/diskstats.js';
import { parseCpuinfo, parseOsRelease } from '../../../src/agent/collect/host-info.js';
import { parseMdstat } from '../../../src/agent/collect/mdstat.js';
import { memoryFromMeminfo, parseMeminfo } from '../../../src/agent/collect/memory.js';
import { parseMountinfo, parseProcMounts, realMounts } from '../../../src/agent/collect/mounts.js';
import { isReportedInterface, parseNetDev } from '../../../src/agent/collect/network.js';
import { parsePressure } from '../../../src/agent/collect/pressure.js';
import { counterDelta, counterRate } from '../../../src/agent/collect/rate.js';
import { formatUptime } from '../../../src/agent/collect/system.js';
import { sensorKind } from '../../../src/agent/collect/thermal.js';

describe('/proc/stat', () => {
  it('reads the aggregate line of every kernel generation', () => {
    expect(parseProcStat('cpu  10 1 5 100\n')).toEqual({
      user: 10,
      nice: 1,
      system: 5,
      idle: 100,
      iowait: 0,
      irq: 0,
      softirq: 0,
      steal: 0,
    });
    expect(parseProcStat('cpu  1 2 3 4 5 6 7 8 9\ncpu0 1 2 3 4 5 6 7 8 9\n')?.steal).toBe(8);
    expect(parseProcStat('cpu  1 2 3 4 5 6 7 8 9 10\n')?.softirq).toBe(7);
    expect(parseProcStat('intr 1 2\n')).toBeUndefined();
  });

  it('splits elapsed jiffies into ratios; iowait is idle, steal is busy', () => {
    const a = parseProcStat('cpu  100 0 50 800 50 0 0 0 0 0\n')!;
    const b = parseProcStat('cpu  160 0 70 880 70 0 0 20 0 0\n')!;
    // Elapsed: user 60 + system 20 + idle 80 + iowait 20 + steal 20 = 200.
    const u = cpuUsage(a, b);
    expect(u.usage_ratio).toBeCloseTo(0.5);
    expect(u.times).toEqual({ user: 0.3, system: 0.1, idle: 0.4, iowait: 0.1, steal: 0.1 });
  });

  it('does not let a column that steps backwards produce negative shares', () => {
    const a = parseProcStat('cpu  100 0 50 800 500 0 0 0\n')!;
    const b = parseProcStat('cpu  150 0 50 850 400 0 0 0\n')!;
    const u = cpuUsage(a, b);
    expect(u.times.iowait).toBe(0);
    expect(u.usage_ratio).toBeCloseTo(0.5);
  });

  it('reports no usage when no time elapsed', () => {
    const a = parseProcStat('cpu  1 0 1 1 0 0 0 0\n')!;
    expect(cpuUsage(a, a).usage_ratio).toBe(0);
  });
});

describe('/proc/loadavg', () => {
  it('reads the three averages', () => {
    expect(parseLoadavg('0.52 1.20 3.00 2/300 999\n')).toEqual({
      load1: 0.52,
      load5: 1.2,
      load15: 3,
    });
    expect(parseLoadavg('garbage')).toBeUndefined();
  });
});

describe('/proc/meminfo', () => {
  it('computes used like free(1): total - available', () => {
    const m = memoryFromMeminfo(
      parseMeminfo(
        'MemTotal: 1000 kB\nMemFree: 100 kB\nMemAvailable: 600 kB\nBuffers: 50 kB\nCached: 300 kB\nSReclaimable: 20 kB\nSwapTotal: 400 kB\nSwapFree: 100 kB\nHugePages_Total: 0\n',
      ),
    )!;
    expect(m.total).toBe(1000 * 1024);
    expect(m.metrics).toEqual({
      used: 400 * 1024,
      available: 600 * 1024,
      buffers: 50 * 1024,
      cached: 320 * 1024,
      swap_used: 300 * 1024,
      swap_free: 100 * 1024,
      used_ratio: 0.4,
      swap_used_ratio: 0.75,
    });
  });

  it('estimates available on kernels before MemAvailable (3.14)', () => {
    const m = memoryFromMeminfo(
      parseMeminfo('MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 300 kB\n'),
    )!;
    expect(m.metrics.available).toBe(450 * 1024);
    expect(m.metrics.swap_used_ratio).toBe(0);
  });

  it('gives up without MemTotal', () => {
    expect(memoryFromMeminfo(parseMeminfo('MemFree: 1 kB\n'))).toBeUndefined();
  });
});

describe('/proc/net/dev', () => {
  it('reads both the modern layout and the 2.6 one without a space after the colon', () => {
    const text =
      'Inter-|   Receive |  Transmit\n face |bytes packets|bytes\n' +
      '  eth0:1000 10 1 2 0 0 0 0 2000 20 3 4 0 0 0 0\n' +
      '    lo: 5 1 0 0 0 0 0 0 5 1 0 0 0 0 0 0\n';
    const rows = parseNetDev(text);
    expect(rows.map((r) => r.name)).toEqual(['eth0', 'lo']);
    expect(rows[0]).toEqual({
      name: 'eth0',
      bytesRecv: 1000,
      packetsRecv: 10,
      errIn: 1,
      dropIn: 2,
      bytesSent: 2000,
      packetsSent: 20,
      errOut: 3,
      dropOut: 4,
    });
  });

  it('drops counters Dash could not store (beyond signed 64-bit)', () => {
    const rows = parseNetDev('  bad: 18446744073709000000 1 0 0 0 0 0 0 1 1 0 0 0 0 0 0\n');
    expect(rows).toEqual([]);
  });

  it('leaves out loopback and container plumbing unless named', () => {
    for (const n of ['lo', 'veth12ab', 'docker0', 'br-1a2b', 'virbr0', 'ifb0', 'cali123']) {
      expect(isReportedInterface(n, undefined)).toBe(false);
    }
    for (const n of ['eth0', 'eno1', 'enp3s0', 'wlan0', 'bond0', 'wg0']) {
      expect(isReportedInterface(n, undefined)).toBe(true);
    }
    expect(isReportedInterface('lo', ['lo'])).toBe(true);
    expect(isReportedInterface('eth0', ['eth1'])).toBe(false);
  });
});

describe('counter rates', () => {
  it('divides the delta by the elapsed seconds', () => {
    expect(counterRate(1000, 4000, 3)).toBe(1000);
  });

  it('reports 0, never a negative rate, when a counter resets or wraps', () => {
    expect(counterRate(2 ** 32 - 10, 20, 3)).toBe(0);
    expect(counterRate(5000, 0, 3)).toBe(0);
    expect(counterDelta(10, 5)).toBe(0);
    expect(counterRate(1, 2, 0)).toBe(0);
  });
});

describe('/proc/diskstats', () => {
  const line14 = '   8       0 sda 100 0 800 50 200 0 1600 150 0 250 200';
  const line18 = `${line14} 0 0 0 0`;
  const line20 = `${line18} 10 5`;

  it('reads the 14-, 18- and 20-column formats alike', () => {
    for (const l of [line14, line18, line20]) {
      expect(parseDiskstats(l).get('sda')).toEqual({
        reads: 100,
        sectorsRead: 800,
        readMs: 50,
        writes: 200,
        sectorsWritten: 1600,
        writeMs: 150,
        ioMs: 250,
        weightedMs: 200,
      });
    }
  });

  it('skips the short partition lines of 2.6 kernels', () => {
    expect(parseDiskstats('   8    1 sda1 10 20 30 40\n').size).toBe(0);
  });

  it('computes iostat figures between samples', () => {
    const a = parseDiskstats('   8 0 sda 100 0 800 50 200 0 1600 150 0 250 200').get('sda');
    const b = parseDiskstats('   8 0 sda 130 0 1400 80 270 0 2400 220 1 1750 1700').get('sda')!;
    const r = diskRates(a, b, 3);
    expect(r.readBytes).toBe(1400 * 512);
    expect(r.readRate).toBeCloseTo((600 * 512) / 3);
    expect(r.writeRate).toBeCloseTo((800 * 512) / 3);
    expect(r.readIops).toBeCloseTo(10);
    expect(r.writeIops).toBeCloseTo(70 / 3);
    expect(r.iops).toBeCloseTo(10 + 70 / 3);
    expect(r.utilRatio).toBeCloseTo(0.5);
    expect(r.queueLength).toBeCloseTo(0.5);
    expect(r.waitMs).toBeCloseTo(100 / 100);
    expect(r.serviceMs).toBeCloseTo(1500 / 100);
  });

  it('reports zero rates after a device reset instead of negative ones', () => {
    const a = parseDiskstats('   8 0 sda 1000 0 8000 50 2000 0 16000 150 0 2500 2000').get('sda');
    const b = parseDiskstats('   8 0 sda 10 0 80 5 20 0 160 15 0 25 20').get('sda')!;
    const r = diskRates(a, b, 3);
    expect([r.readRate, r.writeRate, r.iops, r.utilRatio, r.queueLength]).toEqual([0, 0, 0, 0, 0]);
    expect(r.readBytes).toBe(80 * 512);
  });
});

describe('mounts', () => {
  it('parses mountinfo, unescaping octal sequences', () => {
    const [m] = parseMountinfo(
      '71 31 8:1 / /mnt/My\\040Files rw,relatime shared:71 master:2 - ext4 /dev/sda1 rw\n',
    );
    expect(m).toEqual({
      majorMinor: '8:1',
      root: '/',
      mountpoint: '/mnt/My Files',
      fsType: 'ext4',
      source: '/dev/sda1',
    });
  });

  it('keeps disk filesystems, drops pseudo, network and bind mounts, honours over-mounts', () => {
    const mounts = parseProcMounts(
      [
        '/dev/sda1 / ext4 rw 0 0',
        'proc /proc proc rw 0 0',
        'server:/x /mnt/nfs nfs rw 0 0',
        '/dev/sdb1 /data xfs rw 0 0',
        'tmpfs /data tmpfs rw 0 0',
        '/dev/sdc1 /srv ext4 rw 0 0',
      ].join('\n'),
    );
    expect(realMounts(mounts).map((m) => m.mountpoint)).toEqual(['/', '/srv']);
    const bind = parseMountinfo(
      '81 26 253:0 /var/lib/docker/x/hosts /etc/hosts rw - ext4 /dev/dm-0 rw\n' +
        '31 1 0:27 /@ / rw - btrfs /dev/nvme0n1p2 rw\n',
    );
    expect(realMounts(bind).map((m) => m.mountpoint)).toEqual(['/']);
  });
});

describe('/proc/mdstat', () => {
  const text = `Personalities : [raid1] [raid6] [raid5] [raid4] [raid0]
md127 : active (auto-read-only) raid1 sdf1[1] sde1[0]
      1000 blocks super 1.2 [2/2] [UU]
      resync=PENDING

md1 : active raid5 sdd1[3](F) sdc1[2] sdb2[1] sda2[0]
      1953260544 blocks super 1.2 level 5, 512k chunk, algorithm 2 [4/3] [UUU_]
      [=>...................]  recovery =  8.5% (83023744/976630272) finish=90.2min speed=165002K/sec

md2 : inactive sdg1[1](S) sdh1[0](S)
      1953260544 blocks super 1.2

md3 : active raid0 sdi1[1] sdj1[0]
      2000 blocks super 1.2 512k chunks

unused devices: <none>
`;

  it('reads state, level, members, counts, health and sync progress', () => {
    const arrays = parseMdstat(text);
    expect(arrays.map((a) => a.array.name)).toEqual(['md127', 'md1', 'md2', 'md3']);
    const [ro, r5, inactive, r0] = arrays;
    expect(ro!.array).toMatchObject({
      status: 'active (auto-read-only)',
      health: 'healthy',
      active: 2,
      working: 2,
      failed: 0,
      sync_status: 'resync pending',
    });
    expect(ro!.array.sync_progress).toBeUndefined();
    expect(r5!.level).toBe('raid5');
    expect(r5!.raidDisks).toBe(4);
    expect(r5!.array).toMatchObject({
      status: 'active',
      health: 'degraded',
      active: 3,
      working: 3,
      failed: 1,
      sync_status: 'recovery',
      sync_progress: '8.5%',
    });
    expect(r5!.array.members).toEqual([
      { name: 'sdd1', state: 'down' },
      { name: 'sdc1', state: 'up' },
      { name: 'sdb2', state: 'up' },
      { name: 'sda2', state: 'up' },
    ]);
    expect(inactive!.array).toMatchObject({ status: 'inactive', health: 'inactive' });
    expect(inactive!.array.members.every((m) => m.state === 'spare')).toBe(true);
    expect(r0!.array).toMatchObject({ health: 'healthy', active: 2, working: 2 });
    expect(r0!.level).toBe('raid0');
  });
});

describe('PSI', () => {
  it('reads some and full lines; drops a resource without either', () => {
    expect(
      parsePressure(
        'some avg10=1.50 avg60=0.20 avg300=0.00 total=1234\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n',
      ),
    ).toEqual({
      status: 'ok',
      some: { avg10: 1.5, avg60: 0.2, avg300: 0, total: 1234 },
      full: { avg10: 0, avg60: 0, avg300: 0, total: 0 },
    });
    expect(parsePressure('')).toBeUndefined();
  });
});

describe('host information', () => {
  it('counts sockets and cores from physical/core ids, frequency from cpufreq first', () => {
    const block = (n: number, phys: number, core: number) =>
      `processor\t: ${n}\nvendor_id\t: GenuineIntel\nmodel name\t: Xeon\ncpu MHz\t\t: 1200.5\nphysical id\t: ${phys}\ncore id\t\t: ${core}\n`;
    const text = [block(0, 0, 0), block(1, 0, 1), block(2, 1, 0), block(3, 1, 1)].join('\n');
    expect(parseCpuinfo(text, 3_500_000)).toEqual({
      model_name: 'Xeon',
      vendor_id: 'GenuineIntel',
      sockets: 2,
      cores_physical: 4,
      cores_logical: 4,
      frequency_mhz: 3500,
    });
    expect(parseCpuinfo(text).frequency_mhz).toBe(1200.5);
  });

  it('omits what an ARM cpuinfo does not print instead of sending zeros', () => {
    const arm =
      'processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n\nprocessor\t: 1\nCPU implementer\t: 0x41\n';
    expect(parseCpuinfo(arm)).toEqual({ vendor_id: 'ARM', cores_logical: 2 });
  });

  it('reads os-release with and without quotes', () => {
    const m = parseOsRelease('ID=arch\nNAME="Arch Linux"\nBUILD_ID=rolling\n');
    expect(m.get('NAME')).toBe('Arch Linux');
    expect(m.get('ID')).toBe('arch');
  });
});

describe('small formats', () => {
  it('writes uptime like uptime -p', () => {
    expect(formatUptime(45)).toBe('0 minutes');
    expect(formatUptime(3600 + 60)).toBe('1 hour, 1 minute');
    expect(formatUptime(3 * 86400 + 4 * 3600 + 5 * 60)).toBe('3 days, 4 hours, 5 minutes');
  });

  it('classifies sensors by driver or zone type', () => {
    expect(sensorKind('coretemp')).toBe('cpu');
    expect(sensorKind('k10temp')).toBe('cpu');
    expect(sensorKind('x86_pkg_temp')).toBe('cpu');
    expect(sensorKind('cpu-thermal')).toBe('cpu');
    expect(sensorKind('amdgpu')).toBe('gpu');
    expect(sensorKind('pch_cannonlake')).toBe('chipset');
    expect(sensorKind('nct6775')).toBe('board');
    expect(sensorKind('acpitz')).toBe('acpi');
    expect(sensorKind('nvme')).toBe('unknown');
  });
});
