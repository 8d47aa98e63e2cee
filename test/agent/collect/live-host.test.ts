import { execFileSync } from 'node:child_process';
import { statfsSync } from 'node:fs';
import { cpus, hostname, loadavg, networkInterfaces, totalmem } from 'node:os';
import { describe, expect, it } from 'vitest';
import { systemAgentClock } from '../../../src/agent/clock.js';
import { Collector } from '../../../src/agent/collect/collector.js';
import { LIVE_HOST } from '../../../src/agent/collect/host-paths.js';
import { nodeReportViolations, staticViolations } from '../support/payload-rules.js';

/** Runs a host tool; undefined when it is not installed. */
function tool(cmd: string, args: string[]): string | undefined {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
  } catch {
    return undefined;
  }
}

async function sampleHost() {
  const collector = new Collector({ paths: LIVE_HOST, clock: systemAgentClock });
  collector.prime();
  await new Promise((r) => setTimeout(r, 300));
  const metrics = await collector.sample();
  const stat = await collector.staticInfo();
  return { metrics, stat };
}

describe('collectors on this machine', () => {
  it('produce payloads Dash accepts', async () => {
    const { metrics, stat } = await sampleHost();
    const now = new Date().toISOString();
    expect(
      nodeReportViolations({ version: '0.3.0', hostname: hostname(), timestamp: now, metrics }),
    ).toEqual([]);
    expect(
      staticViolations({
        version: '0.3.0',
        timestamp: now,
        report_interval_seconds: 3,
        ...stat.body,
      }),
    ).toEqual([]);
  });

  it('agree with the kernel figures Node itself reads', async () => {
    const { metrics, stat } = await sampleHost();
    expect(stat.body.memory.total).toBe(totalmem());
    expect(stat.body.cpu.info.cores_logical).toBe(cpus().length);
    expect(stat.body.system.hostname).toBe(hostname());
    const [l1] = loadavg();
    expect(Math.abs(metrics.cpu.load1 - l1!)).toBeLessThan(0.5);
    const ifaces = Object.keys(networkInterfaces());
    for (const n of metrics.network) expect(ifaces).toContain(n.name);
  });

  it('agree with df for the root filesystem', async () => {
    const { metrics } = await sampleHost();
    const root = metrics.disk.filesystems.find((f) => f.path === '/');
    expect(root).toBeDefined();
    const s = statfsSync('/');
    expect(root!.total).toBe(s.blocks * s.bsize);
    const df = tool('df', ['-B1', '--output=size,used,avail', '/']);
    if (df !== undefined) {
      const [size, used, avail] = df.trim().split('\n')[1]!.trim().split(/\s+/).map(Number);
      expect(root!.total).toBe(size);
      // Files change between the two reads; a few MiB of drift is still the same figure.
      expect(Math.abs(root!.used - used!)).toBeLessThan(64 * 1024 * 1024);
      expect(Math.abs(root!.free - avail!)).toBeLessThan(64 * 1024 * 1024);
    }
  });

  it('agree with ss for socket counts', async () => {
    const { metrics } = await sampleHost();
    const rows = (flag: string) => tool('ss', ['-Hna', flag])?.trim().split('\n').filter(Boolean);
    const tcp = rows('-t');
    const udp = rows('-u');
    if (tcp === undefined || udp === undefined) return;
    // Sockets open and close between the two reads (this suite's own HTTP tests among them).
    expect(Math.abs(metrics.connections.tcp_count - tcp.length)).toBeLessThanOrEqual(8);
    expect(Math.abs(metrics.connections.udp_count - udp.length)).toBeLessThanOrEqual(4);
  });

  it('agree with free for memory', async () => {
    const { metrics, stat } = await sampleHost();
    const free = tool('free', ['-b']);
    if (free === undefined) return;
    const mem = free
      .split('\n')
      .find((l) => l.startsWith('Mem:'))!
      .trim()
      .split(/\s+/);
    const [total, used, , , buffCache, available] = mem.slice(1).map(Number);
    expect(stat.body.memory.total).toBe(total);
    const slack = 64 * 1024 * 1024;
    expect(Math.abs(metrics.memory.used - used!)).toBeLessThan(slack);
    expect(Math.abs(metrics.memory.available - available!)).toBeLessThan(slack);
    expect(Math.abs(metrics.memory.buffers + metrics.memory.cached - buffCache!)).toBeLessThan(
      slack,
    );
  });
});
