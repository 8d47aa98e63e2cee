import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Collector } from '../../../src/agent/collect/collector.js';
import { anyStatfs, copyFixture, FakeAgentClock } from '../support/agent-fakes.js';
import { nodeReportViolations } from '../support/payload-rules.js';

const HEADER =
  'Inter-|   Receive                                                |  Transmit\n' +
  ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n';

function netDev(rows: Record<string, [number, number, number, number]>): string {
  return (
    HEADER +
    Object.entries(rows)
      .map(
        ([name, [rx, rxp, tx, txp]]) =>
          `${name.padStart(6)}: ${rx} ${rxp} 0 0 0 0 0 0 ${tx} ${txp} 0 0 0 0 0 0`,
      )
      .join('\n') +
    '\n'
  );
}

function diskstats(reads: number, sectors: number, ioMs: number): string {
  return `   8       0 sda ${reads} 0 ${sectors} 10 0 0 0 0 0 ${ioMs} ${ioMs}\n`;
}

function cpuStat(user: number, idle: number): string {
  return `cpu  ${user} 0 0 ${idle} 0 0 0 0 0 0\n`;
}

/** A tree whose counters the test moves between samples, sampled every 3 s. */
function movingHost() {
  const { root, paths } = copyFixture('debian10-4.19');
  const clock = new FakeAgentClock();
  const collector = new Collector({ paths, clock, statfs: anyStatfs });
  const write = (rel: string, text: string) => writeFileSync(join(root, 'proc', rel), text);
  const sample = async () => {
    clock.advance(3000);
    const metrics = await collector.sample();
    const report = {
      version: '0.3.0',
      hostname: 'h',
      timestamp: new Date(clock.now()).toISOString(),
      metrics,
    };
    expect(nodeReportViolations(report)).toEqual([]);
    return metrics;
  };
  return { collector, write, sample };
}

describe('rates between samples', () => {
  it('divide counter deltas by the elapsed monotonic seconds', async () => {
    const h = movingHost();
    h.write('net/dev', netDev({ eno1: [1000, 10, 500, 5] }));
    h.write('diskstats', diskstats(100, 1000, 0));
    h.write('stat', cpuStat(100, 900));
    h.collector.prime();
    h.write('net/dev', netDev({ eno1: [4000, 40, 2000, 20] }));
    h.write('diskstats', diskstats(130, 1600, 1500));
    h.write('stat', cpuStat(130, 960));
    const m = await h.sample();
    expect(m.network[0]).toMatchObject({
      name: 'eno1',
      bytes_recv: 4000,
      recv_rate_bytes_per_sec: 1000,
      sent_rate_bytes_per_sec: 500,
      recv_rate_packets_per_sec: 10,
      sent_rate_packets_per_sec: 5,
    });
    const sda = m.disk.physical.find((d) => d.name === 'sda')!;
    expect(sda.read_iops).toBeCloseTo(10);
    expect(sda.read_rate_bytes_per_sec).toBeCloseTo((600 * 512) / 3);
    expect(sda.util_ratio).toBeCloseTo(0.5);
    expect(m.cpu.usage_ratio).toBeCloseTo(30 / 90);
  });

  it('treat a counter that went down (reset or wrap) as a new baseline: rate 0, then normal', async () => {
    const h = movingHost();
    h.write('net/dev', netDev({ eno1: [2 ** 32 - 100, 10, 9_000_000, 5] }));
    h.write('diskstats', diskstats(5000, 80000, 9000));
    h.collector.prime();
    // Interface re-created / 32-bit wrap and a disk re-attached: every counter is lower.
    h.write('net/dev', netDev({ eno1: [200, 2, 100, 1] }));
    h.write('diskstats', diskstats(10, 100, 30));
    const reset = await h.sample();
    expect(reset.network[0]).toMatchObject({
      bytes_recv: 200,
      recv_rate_bytes_per_sec: 0,
      sent_rate_bytes_per_sec: 0,
      recv_rate_packets_per_sec: 0,
    });
    const sda = reset.disk.physical.find((d) => d.name === 'sda')!;
    expect([sda.read_iops, sda.read_rate_bytes_per_sec, sda.util_ratio]).toEqual([0, 0, 0]);

    h.write('net/dev', netDev({ eno1: [3200, 5, 400, 4] }));
    h.write('diskstats', diskstats(40, 700, 1530));
    const after = await h.sample();
    expect(after.network[0]!.recv_rate_bytes_per_sec).toBe(1000);
    expect(after.disk.physical.find((d) => d.name === 'sda')!.read_iops).toBeCloseTo(10);
  });

  it('give an interface that appears between samples a zero rate until it has a baseline', async () => {
    const h = movingHost();
    h.write('net/dev', netDev({ eno1: [0, 0, 0, 0] }));
    h.collector.prime();
    h.write('net/dev', netDev({ eno1: [300, 3, 0, 0], eno9: [9000, 9, 0, 0] }));
    const first = await h.sample();
    expect(first.network.map((n) => [n.name, n.recv_rate_bytes_per_sec])).toEqual([
      ['eno1', 100],
      ['eno9', 0],
    ]);
    h.write('net/dev', netDev({ eno1: [300, 3, 0, 0], eno9: [12000, 12, 0, 0] }));
    const second = await h.sample();
    expect(second.network.find((n) => n.name === 'eno9')!.recv_rate_bytes_per_sec).toBe(1000);
  });
});
