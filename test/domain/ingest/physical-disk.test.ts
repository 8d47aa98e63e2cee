import { describe, expect, it } from 'vitest';
import {
  isPhysicalSmartDevice,
  temperatureDevices,
} from '../../../src/domain/ingest/physical-disk.js';
import { cpuTemperature } from '../../../src/domain/ingest/history-sample.js';
import type { ReportMetrics, ReportSmartDevice } from '../../../src/protocol/node-report.js';

const dev = (over: Partial<ReportSmartDevice>): ReportSmartDevice => ({
  name: 'sda',
  source: 'smartctl',
  status: 'ok',
  ...over,
});

describe('physical disk detection for disk temperature history', () => {
  it.each([
    ['an NVMe drive', dev({ name: 'nvme0n1', protocol: 'NVMe', device_type: 'nvme' })],
    ['a SATA drive', dev({ protocol: 'ATA', device_type: 'sat' })],
    ['a SCSI drive with a serial', dev({ device_type: 'scsi', serial: 'ZC1A2B3C' })],
    ['a SCSI drive with a WWN', dev({ protocol: 'SCSI', wwn: '0x5000c500a1b2c3d4' })],
  ])('counts %s as physical', (_name, d) => expect(isPhysicalSmartDevice(d)).toBe(true));

  it.each([
    ['an md RAID device', dev({ name: 'md0', protocol: 'ATA' })],
    ['a device-mapper device', dev({ name: 'dm-1', protocol: 'ATA' })],
    ['a virtio disk', dev({ name: 'vda', device_type: 'sat' })],
    ['a Xen disk', dev({ name: 'xvda', protocol: 'ATA' })],
    ['a mapper path', dev({ name: 'root', device_path: '/dev/mapper/vg-root', protocol: 'ATA' })],
    ['a RAID ref', dev({ name: 'array', ref: 'raid:md1', protocol: 'ATA' })],
    ['a QEMU model', dev({ protocol: 'ATA', model: 'QEMU HARDDISK' })],
    ['a hardware RAID volume', dev({ protocol: 'SCSI', serial: 'x', model: 'PERC H730 RAID' })],
    ['a VMware disk', dev({ device_type: 'scsi', serial: 's', model: 'VMware Virtual disk' })],
    ['a SCSI device without serial or WWN', dev({ device_type: 'scsi' })],
    ['a device without transport information', dev({})],
  ])('does not count %s', (_name, d) => expect(isPhysicalSmartDevice(d)).toBe(false));

  it('keeps physical devices with a temperature above zero, each name once', () => {
    const list = temperatureDevices([
      dev({ name: 'sda', protocol: 'ATA', temp_c: 31 }),
      dev({ name: ' sda ', protocol: 'ATA', temp_c: 35 }),
      dev({ name: 'sdb', protocol: 'ATA', temp_c: 0 }),
      dev({ name: 'sdc', protocol: 'ATA' }),
      dev({ name: 'md0', protocol: 'ATA', temp_c: 40 }),
    ]);
    expect(list.map((d) => [d.name, d.tempC])).toEqual([['sda', 31]]);
  });

  it('takes the hottest valid CPU sensor as the CPU temperature', () => {
    const m = (sensors: object[]) => ({ thermal: { status: 'ok', sensors } }) as ReportMetrics;
    const s = (kind: string, temp_c?: number) => ({
      kind,
      name: 'n',
      sensor_key: 'k',
      source: 'hwmon',
      status: 'ok',
      ...(temp_c !== undefined ? { temp_c } : {}),
    });
    expect(cpuTemperature(m([s('cpu', 50), s('CPU', 61.5), s('gpu', 80), s('cpu', -1)]))).toBe(
      61.5,
    );
    expect(cpuTemperature(m([s('gpu', 70), s('cpu')]))).toBeNull();
    expect(cpuTemperature({})).toBeNull();
  });
});
