import { join } from 'node:path';
import type { HostPaths } from './host-paths.js';
import { countLines, fields, listDir, readText } from './read.js';

export function readUptimeSeconds(paths: HostPaths): number | undefined {
  const text = readText(join(paths.proc, 'uptime'));
  if (text === undefined) return undefined;
  const seconds = Number(fields(text)[0]);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.floor(seconds) : undefined;
}

const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Human uptime in the style of `uptime -p` ("3 days, 4 hours, 5 minutes"). */
export function formatUptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts: string[] = [];
  if (days > 0) parts.push(plural(days, 'day'));
  if (hours > 0) parts.push(plural(hours, 'hour'));
  if (minutes > 0 || parts.length === 0) parts.push(plural(minutes, 'minute'));
  return parts.join(', ');
}

/** Processes (not threads): the numeric directories of /proc, as `ps -e` lists them. */
export function countProcesses(paths: HostPaths): number | undefined {
  const entries = listDir(paths.proc);
  if (entries.length === 0) return undefined;
  let n = 0;
  for (const e of entries) if (/^\d+$/.test(e)) n++;
  return n;
}

/** Sockets in one /proc/net table (every line but the header), or undefined without the table. */
function tableSize(path: string): number | undefined {
  const lines = countLines(path);
  return lines === undefined ? undefined : Math.max(0, lines - 1);
}

/** "PROTO: key value key value…" lines of /proc/net/sockstat{,6}. */
export function parseSockstat(text: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of text.split('\n')) {
    const m = /^(\w+):\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    const f = fields(m[2]!);
    const values = new Map<string, number>();
    for (let i = 0; i + 1 < f.length; i += 2) values.set(f[i]!, Number(f[i + 1]));
    out.set(m[1]!, values);
  }
  return out;
}

/**
 * TCP and UDP sockets of every state over IPv4 and IPv6: the rows `ss -tan` / `ss -uan` list.
 *
 * The counts come from /proc/net/sockstat{,6}: TCP in use per family plus TIME-WAIT (counted
 * once for both families), UDP in use per family. The per-socket tables (/proc/net/tcp) give the
 * same numbers but make the kernel walk its whole connection hash, several milliseconds per read
 * on a large-memory host even when idle, so they are only the fallback when sockstat is missing.
 */
export function countConnections(paths: HostPaths): { tcp: number; udp: number } | undefined {
  const v4 = readText(join(paths.proc, 'net', 'sockstat'));
  if (v4 !== undefined) {
    const s4 = parseSockstat(v4);
    const s6 = parseSockstat(readText(join(paths.proc, 'net', 'sockstat6')) ?? '');
    const get = (m: Map<string, Map<string, number>>, proto: string, key: string): number => {
      const v = m.get(proto)?.get(key);
      return v !== undefined && Number.isFinite(v) && v > 0 ? v : 0;
    };
    return {
      tcp: get(s4, 'TCP', 'inuse') + get(s4, 'TCP', 'tw') + get(s6, 'TCP6', 'inuse'),
      udp: get(s4, 'UDP', 'inuse') + get(s6, 'UDP6', 'inuse'),
    };
  }
  const sum = (a: string, b: string): number | undefined => {
    const x = tableSize(join(paths.proc, 'net', a));
    const y = tableSize(join(paths.proc, 'net', b));
    return x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  };
  const tcp = sum('tcp', 'tcp6');
  const udp = sum('udp', 'udp6');
  if (tcp === undefined && udp === undefined) return undefined;
  return { tcp: tcp ?? 0, udp: udp ?? 0 };
}
