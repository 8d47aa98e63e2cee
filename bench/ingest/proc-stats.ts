/** What the ingest benchmark reads from /proc about the processes it measures (Linux). */
import { readFileSync, readdirSync } from 'node:fs';

const fmt = (n: number, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU seconds used so far by each thread of a process, keyed by "tid name". */
export function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  const tick = 100; // USER_HZ on Linux
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.set(
        `${tid} ${tid === String(pid) ? 'main' : name}`,
        (Number(fields[11]) + Number(fields[12])) / tick,
      );
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** CPU seconds of every thread of several processes; names get the instance's letter (A:main). */
export function threadsCpu(pids: readonly number[]): Map<string, number> {
  if (pids.length === 1) return threadCpu(pids[0]!);
  const out = new Map<string, number>();
  pids.forEach((pid, i) => {
    const letter = String.fromCharCode(65 + i);
    for (const [k, v] of threadCpu(pid)) {
      const [tid, name] = k.split(' ');
      out.set(`${tid} ${letter}:${name}`, v);
    }
  });
  return out;
}

/** Bytes the process has caused to be written to storage so far. */
export function writtenBytes(pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/write_bytes:\s+(\d+)/.exec(io)?.[1] ?? 0);
}

/** Bytes each thread of a process has caused to be written to storage so far, keyed by "tid name". */
export function threadWritten(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const io = readFileSync(`/proc/${pid}/task/${tid}/io`, 'utf8');
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.set(
        `${tid} ${tid === String(pid) ? 'main' : name}`,
        Number(/write_bytes:\s+(\d+)/.exec(io)?.[1] ?? 0),
      );
    } catch {
      // the thread ended
    }
  }
  return out;
}

/**
 * Growth between two readings keyed by "tid name", summed by thread name (Dash names its
 * threads: ingest-0, libuv-pool…; see src/platform/thread-names.ts), largest first; a name
 * several threads share gets their count ("libuv-pool×4").
 */
function byName(
  before: Map<string, number>,
  after: Map<string, number>,
  scale: number,
): Array<[string, number]> {
  const sums = new Map<string, { value: number; threads: number }>();
  for (const [k, v] of after) {
    const name = k.slice(k.indexOf(' ') + 1);
    const s = sums.get(name) ?? { value: 0, threads: 0 };
    s.value += (v - (before.get(k) ?? 0)) * scale;
    s.threads++;
    sums.set(name, s);
  }
  return [...sums]
    .map(([name, s]): [string, number] => [s.threads > 1 ? `${name}×${s.threads}` : name, s.value])
    .sort((a, b) => b[1] - a[1]);
}

/** Disk writes per answered report between two readings, in total and by thread. */
export function writtenPerReport(
  before: Map<string, number>,
  after: Map<string, number>,
  reports: number,
): string {
  const rows = byName(before, after, 1 / Math.max(1, reports)).filter(([, b]) => b >= 1);
  const total = rows.reduce((n, [, b]) => n + b, 0);
  return `${fmt(total / 1024, 2)} KiB (${rows.map(([k, b]) => `${k} ${fmt(b / 1024, 2)}`).join(', ')})`;
}

/** Per-thread CPU microseconds per answered report between two readings. */
export function cpuPerReport(
  before: Map<string, number>,
  after: Map<string, number>,
  reports: number,
) {
  const rows = byName(before, after, 1e6 / Math.max(1, reports)).filter(([, us]) => us >= 1);
  const total = rows.reduce((n, [, us]) => n + us, 0);
  const text = `${fmt(total)} µs/report (${rows.map(([k, us]) => `${k} ${fmt(us)}`).join(', ')})`;
  return { total, text };
}

/**
 * CPU seconds used so far by each PostgreSQL server process on this machine (backends, WAL
 * writer, checkpointer…), keyed by "pid role", e.g. "812 postgres: 15/main: walwriter". The
 * whole server's: other sessions count too. A backend that starts between two readings counts
 * from its start; one that ends is left out.
 */
export function postgresCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      // Group by role: "backend" for client sessions (their title names the client and state).
      const role = cmd.startsWith('/')
        ? 'postmaster'
        : (/^postgres: [^:]+: (\w[\w ]*?)(?: process)?$/.exec(cmd)?.[1] ?? 'backend');
      out.set(`${pid} pg:${role}`, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the process ended
    }
  }
  return out;
}

/**
 * Starts counting what a report costs outside Dash: the load generator's CPU and, when Dash
 * runs on PostgreSQL, the server's (postgresCpu). With Dash's own figure this is the whole
 * machine's budget per report (two cores: 2e6 / rate µs each).
 */
export function outsideDashCpu(generatorPid: number, postgres: boolean) {
  const gen0 = threadCpu(generatorPid);
  const pg0 = postgres ? postgresCpu() : undefined;
  return (reports: number): string => {
    const gen = cpuPerReport(gen0, threadCpu(generatorPid), reports).text;
    if (!pg0) return `generator ${gen}`;
    return `PostgreSQL (whole server) ${cpuPerReport(pg0, postgresCpu(), reports).text}; generator ${gen}`;
  };
}
