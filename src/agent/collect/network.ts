import { join } from 'node:path';
import type { NetworkInterface } from '../payload.js';
import type { HostPaths } from './host-paths.js';
import { fields, readText } from './read.js';
import { counterRate } from './rate.js';

export interface NetCounters {
  name: string;
  bytesRecv: number;
  packetsRecv: number;
  errIn: number;
  dropIn: number;
  bytesSent: number;
  packetsSent: number;
  errOut: number;
  dropOut: number;
}

/**
 * Parses /proc/net/dev. Old kernels print no space after the colon ("eth0:123"), so the name is
 * split at the last colon of the line head rather than by whitespace.
 */
export function parseNetDev(text: string): NetCounters[] {
  const out: NetCounters[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.includes('|')) continue;
    const name = line.slice(0, colon).trim();
    const v = fields(line.slice(colon + 1)).map((f) => Number(f));
    // Dash stores counters as signed 64-bit; a value beyond that is driver garbage, not traffic.
    if (
      name === '' ||
      v.length < 16 ||
      v.some((n) => !Number.isFinite(n) || n < 0 || n >= 2 ** 63)
    ) {
      continue;
    }
    out.push({
      name,
      bytesRecv: v[0]!,
      packetsRecv: v[1]!,
      errIn: v[2]!,
      dropIn: v[3]!,
      bytesSent: v[8]!,
      packetsSent: v[9]!,
      errOut: v[10]!,
      dropOut: v[11]!,
    });
  }
  return out;
}

/**
 * Interfaces left out unless named with --net: loopback, and virtual devices whose traffic is
 * already counted on a physical interface (container veth pairs, bridges, traffic-shaping ifb).
 */
const VIRTUAL_PREFIXES = [
  'veth',
  'docker',
  'br-',
  'virbr',
  'vnet',
  'cali',
  'cni',
  'flannel',
  'kube-ipvs',
  'ifb',
  'dummy',
];

export function isReportedInterface(name: string, only: readonly string[] | undefined): boolean {
  if (only && only.length > 0) return only.includes(name);
  if (name === 'lo') return false;
  return !VIRTUAL_PREFIXES.some((p) => name.startsWith(p));
}

export function readNetCounters(
  paths: HostPaths,
  only: readonly string[] | undefined,
): NetCounters[] | undefined {
  const text = readText(join(paths.proc, 'net', 'dev'));
  if (text === undefined) return undefined;
  return parseNetDev(text).filter((c) => isReportedInterface(c.name, only));
}

/**
 * Builds the network array. An interface seen for the first time (or after a counter reset) has
 * no baseline yet and reports rate 0 for this sample.
 */
export function networkMetrics(
  prev: readonly NetCounters[] | undefined,
  cur: readonly NetCounters[],
  seconds: number,
): NetworkInterface[] {
  const before = new Map((prev ?? []).map((c) => [c.name, c]));
  return cur
    .filter((c) => c.name.length <= 64)
    .map((c) => {
      const p = before.get(c.name);
      const rate = (a: number | undefined, b: number): number =>
        a === undefined ? 0 : counterRate(a, b, seconds);
      return {
        name: c.name,
        bytes_recv: c.bytesRecv,
        bytes_sent: c.bytesSent,
        packets_recv: c.packetsRecv,
        packets_sent: c.packetsSent,
        err_in: c.errIn,
        err_out: c.errOut,
        drop_in: c.dropIn,
        drop_out: c.dropOut,
        recv_rate_bytes_per_sec: rate(p?.bytesRecv, c.bytesRecv),
        sent_rate_bytes_per_sec: rate(p?.bytesSent, c.bytesSent),
        recv_rate_packets_per_sec: rate(p?.packetsRecv, c.packetsRecv),
        sent_rate_packets_per_sec: rate(p?.packetsSent, c.packetsSent),
      };
    });
}
