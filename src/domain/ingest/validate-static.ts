import type { StaticLogical, StaticReport } from '../../protocol/static-report.js';
import { LIMITS, RuleChecker } from './rules.js';

const r = new RuleChecker('invalid_static_payload');

export interface ValidatedStatic {
  version: string;
  reportedAt: number;
  intervalSec: number;
  system: {
    hostname: string;
    os: string;
    platform: string;
    platformVersion: string;
    kernelVersion: string;
    arch: string;
  };
}

/**
 * Value rules of reference §2.1 for a static report that already passed the wire schema: any
 * negative count or capacity, missing required field, over-long text or bad version is a 422
 * invalid_static_payload.
 */
export function validateStaticReport(s: StaticReport): ValidatedStatic {
  const version = r.version(s.version);
  const reportedAt = r.timestamp(s.timestamp, 'timestamp');
  const intervalSec = s.report_interval_seconds ?? 0;
  if (intervalSec <= 0) r.fail('report_interval_seconds must be positive');

  const sys = s.system ?? {};
  const system = {
    hostname: r.required(sys.hostname, LIMITS.hostname, 'system.hostname'),
    os: r.required(sys.os, LIMITS.staticShort, 'system.os'),
    platform: r.required(sys.platform, LIMITS.staticShort, 'system.platform'),
    platformVersion: r.required(sys.platform_version, LIMITS.staticLong, 'system.platform_version'),
    kernelVersion: r.required(sys.kernel_version, LIMITS.staticLong, 'system.kernel_version'),
    arch: r.required(sys.arch, LIMITS.staticShort, 'system.arch'),
  };

  const info = s.cpu?.info ?? {};
  for (const k of ['sockets', 'cores_physical', 'cores_logical', 'frequency_mhz'] as const) {
    r.nonNegative(info[k], `cpu.info.${k}`);
  }
  r.nonNegative(s.memory?.total, 'memory.total');
  r.nonNegative(s.memory?.swap_total ?? undefined, 'memory.swap_total');

  const disk = s.disk ?? {};
  (disk.physical ?? []).forEach((d, i) => {
    r.required(d.name, LIMITS.diskName, `disk.physical[${i}].name`);
    r.maxLength(d.ref, LIMITS.diskRef, `disk.physical[${i}].ref`);
  });
  (disk.logical ?? []).forEach((d, i) => checkLogical(d, i));
  (disk.filesystems ?? []).forEach((f, i) => {
    const at = `disk.filesystems[${i}]`;
    r.required(f.path, undefined, `${at}.path`);
    r.maxLength(f.fs_type, LIMITS.fsType, `${at}.fs_type`);
    r.nonNegative(f.total, `${at}.total`);
    r.nonNegative(f.inodes_total, `${at}.inodes_total`);
  });
  (disk.base_io ?? []).forEach((d, i) => {
    const at = `disk.base_io[${i}]`;
    r.required(d.kind, LIMITS.diskKind, `${at}.kind`);
    r.required(d.name, LIMITS.diskName, `${at}.name`);
    r.maxLength(d.ref, LIMITS.diskRef, `${at}.ref`);
    r.maxLength(d.role, LIMITS.diskRole, `${at}.role`);
  });
  (s.raid?.arrays ?? []).forEach((a, i) => {
    r.required(a.name, undefined, `raid.arrays[${i}].name`);
    r.nonNegative(a.devices, `raid.arrays[${i}].devices`);
  });
  return { version, reportedAt, intervalSec, system };
}

function checkLogical(d: StaticLogical, i: number): void {
  const at = `disk.logical[${i}]`;
  r.required(d.kind, LIMITS.diskKind, `${at}.kind`);
  r.required(d.name, LIMITS.diskName, `${at}.name`);
  r.maxLength(d.ref, LIMITS.diskRef, `${at}.ref`);
  r.maxLength(d.health, LIMITS.logicalState, `${at}.health`);
  r.maxLength(d.level, LIMITS.logicalState, `${at}.level`);
  r.maxLength(d.fs_type, LIMITS.fsType, `${at}.fs_type`);
  for (const k of ['total', 'used', 'free'] as const) r.nonNegative(d[k], `${at}.${k}`);
  r.ratio(d.used_ratio, `${at}.used_ratio`);
  for (const [mount, stats] of Object.entries(d.mountpoints ?? {})) {
    const mat = `${at}.mountpoints["${mount}"]`;
    r.maxLength(stats.fs_type, LIMITS.fsType, `${mat}.fs_type`);
    for (const k of ['inodes_total', 'inodes_used', 'inodes_free'] as const) {
      r.nonNegative(stats[k], `${mat}.${k}`);
    }
    r.ratio(stats.inodes_used_ratio, `${mat}.inodes_used_ratio`);
  }
}
