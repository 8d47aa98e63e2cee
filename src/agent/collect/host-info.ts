import { join } from 'node:path';
import type { StaticCpuInfo, StaticSystem } from '../payload.js';
import type { HostPaths } from './host-paths.js';
import { readAttr, readInt, readText } from './read.js';

/** Arm implementer codes (MIDR) as printed in /proc/cpuinfo, for hosts without vendor_id. */
const ARM_IMPLEMENTERS: Record<string, string> = {
  '0x41': 'ARM',
  '0x42': 'Broadcom',
  '0x43': 'Cavium',
  '0x46': 'Fujitsu',
  '0x48': 'HiSilicon',
  '0x4e': 'NVIDIA',
  '0x50': 'APM',
  '0x51': 'Qualcomm',
  '0x61': 'Apple',
  '0x69': 'Intel',
  '0x6d': 'Microsoft',
  '0xc0': 'Ampere',
};

function smallInt(n: number): number | undefined {
  return n > 0 && n <= 32_767 ? n : undefined;
}

/**
 * CPU identity from /proc/cpuinfo (one block per logical CPU). Sockets and physical cores come
 * from "physical id"/"core id" and are left out where the architecture does not print them;
 * frequency prefers the cpufreq maximum over the momentary "cpu MHz".
 */
export function parseCpuinfo(text: string, maxFreqKhz?: number): StaticCpuInfo {
  const blocks = text
    .split(/\n\s*\n/)
    .map((b) => {
      const kv = new Map<string, string>();
      for (const line of b.split('\n')) {
        const i = line.indexOf(':');
        if (i > 0) kv.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
      }
      return kv;
    })
    .filter((kv) => kv.has('processor'));
  const first = blocks[0];
  const info: StaticCpuInfo = {};
  if (!first) return info;
  const model = first.get('model name') || first.get('cpu model') || first.get('processor name');
  if (model) info.model_name = model;
  const vendor =
    first.get('vendor_id') ||
    first.get('vendor') ||
    ARM_IMPLEMENTERS[first.get('cpu implementer')?.toLowerCase() ?? ''];
  if (vendor) info.vendor_id = vendor;
  const logical = smallInt(blocks.length);
  if (logical) info.cores_logical = logical;
  const sockets = new Set(blocks.map((b) => b.get('physical id')).filter((v) => v !== undefined));
  if (sockets.size > 0) info.sockets = smallInt(sockets.size);
  const cores = new Set(
    blocks
      .filter((b) => b.has('core id'))
      .map((b) => `${b.get('physical id') ?? ''}/${b.get('core id')}`),
  );
  if (cores.size > 0) info.cores_physical = smallInt(cores.size);
  const mhz = maxFreqKhz && maxFreqKhz > 0 ? maxFreqKhz / 1000 : Number(first.get('cpu mhz'));
  if (Number.isFinite(mhz) && mhz > 0) info.frequency_mhz = mhz;
  for (const k of Object.keys(info) as (keyof StaticCpuInfo)[]) {
    if (info[k] === undefined) delete info[k];
  }
  return info;
}

export function readCpuInfo(paths: HostPaths): StaticCpuInfo | undefined {
  const text = readText(join(paths.proc, 'cpuinfo'));
  if (text === undefined) return undefined;
  const maxKhz = readInt(
    join(paths.sys, 'devices', 'system', 'cpu', 'cpu0', 'cpufreq', 'cpuinfo_max_freq'),
  );
  return parseCpuinfo(text, maxKhz);
}

/** KEY=value pairs of os-release(5), quotes removed. */
export function parseOsRelease(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (!m) continue;
    out.set(m[1]!, m[2]!.replace(/^(["'])(.*)\1$/, '$2'));
  }
  return out;
}

const clip = (s: string, n: number): string => s.slice(0, n);

/**
 * Distribution id and version. os-release first (ID, VERSION_ID; rolling releases have no
 * VERSION_ID and report BUILD_ID or "rolling"); hosts older than os-release (CentOS/RHEL 6) only
 * have /etc/redhat-release ("CentOS release 6.10 (Final)").
 */
export function readDistribution(paths: HostPaths): { id?: string; version?: string } {
  const osReleaseText =
    readText(join(paths.etc, 'os-release')) ??
    readText(join(paths.etc, '..', 'usr', 'lib', 'os-release'));
  if (osReleaseText !== undefined) {
    const os = parseOsRelease(osReleaseText);
    const id = os.get('ID');
    const version = os.get('VERSION_ID') ?? os.get('BUILD_ID') ?? (id ? 'rolling' : undefined);
    return { ...(id ? { id } : {}), ...(version ? { version } : {}) };
  }
  const redhat = readAttr(join(paths.etc, 'redhat-release'));
  const m = redhat ? /^(.*?)\s+(?:Linux\s+)?(?:\w+\s+)?release\s+([\d.]+)/i.exec(redhat) : null;
  if (!m) return {};
  const name = m[1]!.toLowerCase();
  const id = name.startsWith('red hat') ? 'rhel' : name.split(/\s+/)[0]!;
  return { id, version: m[2]! };
}

/**
 * Host identity for Static. Hostname and kernel come from procfs so a recorded tree describes its
 * own host. Text the host does not provide reads "unknown", because Dash requires every one of
 * these fields to be non-blank.
 */
export function readSystemInfo(paths: HostPaths, arch: string): StaticSystem {
  const distro = readDistribution(paths);
  const or = (v: string | undefined): string => (v && v.trim() !== '' ? v.trim() : 'unknown');
  return {
    hostname: clip(or(readAttr(join(paths.proc, 'sys', 'kernel', 'hostname'))), 255),
    os: 'linux',
    platform: clip(or(distro.id), 32),
    platform_version: clip(or(distro.version), 255),
    kernel_version: clip(or(readAttr(join(paths.proc, 'sys', 'kernel', 'osrelease'))), 255),
    arch: clip(or(arch), 32),
  };
}
