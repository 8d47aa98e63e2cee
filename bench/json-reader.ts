/**
 * Strict JSON reader vs JSON.parse on a realistic node report (same run, same input).
 * Run: make bench-json
 */
import { parseStrictJsonBuffer } from '../src/protocol/strict-json.js';

function report(disks: number, ifaces: number): unknown {
  return {
    version: '0.2.5',
    hostname: 'web-01.example.net',
    timestamp: new Date().toISOString(),
    metrics: {
      cpu: {
        usage_ratio: 0.23,
        load1: 0.5,
        load5: 0.4,
        load15: 0.3,
        times: { user: 0.1, system: 0.05, idle: 0.8, iowait: 0.01, steal: 0 },
      },
      memory: {
        used: 4_000_000_000,
        available: 12_000_000_000,
        buffers: 1,
        cached: 2_000_000_000,
        swap_used: 0,
        swap_free: 2_000_000_000,
        used_ratio: 0.25,
        swap_used_ratio: 0,
      },
      disk: {
        physical: Array.from({ length: disks }, (_, i) => ({
          name: `sd${i}`,
          read_bytes: 123456789,
          write_bytes: 987654321,
          read_rate_bytes_per_sec: 1024.5,
          write_rate_bytes_per_sec: 2048.25,
          iops: 12,
          read_iops: 4,
          write_iops: 8,
          queue_length: 0.1,
          wait_ms: 1.2,
          service_ms: 0.4,
          util_ratio: 0.02,
        })),
        logical: Array.from({ length: disks }, (_, i) => ({
          kind: 'disk',
          name: `sd${i}1`,
          mountpoint: `/mnt/d${i}`,
          used: 50_000_000_000,
          free: 150_000_000_000,
          total: 200_000_000_000,
          used_ratio: 0.25,
        })),
        filesystems: Array.from({ length: disks }, (_, i) => ({
          path: `/mnt/d${i}`,
          used: 50_000_000_000,
          free: 150_000_000_000,
          used_ratio: 0.25,
          inodes_used: 10000,
          inodes_free: 900000,
          inodes_used_ratio: 0.01,
        })),
        base_io: Array.from({ length: disks }, (_, i) => ({
          kind: 'disk',
          name: `sd${i}`,
          role: 'primary',
          read_rate_bytes_per_sec: 1024.5,
          write_rate_bytes_per_sec: 2048.25,
          read_iops: 4,
          write_iops: 8,
          iops: 12,
        })),
      },
      network: Array.from({ length: ifaces }, (_, i) => ({
        name: `eth${i}`,
        bytes_recv: 123456789012,
        bytes_sent: 98765432109,
        packets_recv: 1234567,
        packets_sent: 7654321,
        err_in: 0,
        err_out: 0,
        drop_in: 1,
        drop_out: 0,
        recv_rate_bytes_per_sec: 12345.6,
        sent_rate_bytes_per_sec: 6543.2,
        recv_rate_packets_per_sec: 100,
        sent_rate_packets_per_sec: 90,
      })),
      system: { alive: true, uptime_seconds: 1234567, uptime: '14 days, 6 hours' },
      processes: { process_count: 321 },
      connections: { tcp_count: 120, udp_count: 12 },
      raid: { supported: true, available: false, arrays: [] },
    },
  };
}

function bench(name: string, fn: () => unknown, iterations: number): number {
  for (let i = 0; i < iterations / 10; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  const ns = Number(process.hrtime.bigint() - start) / iterations;
  console.log(`${name.padEnd(34)} ${(ns / 1000).toFixed(2).padStart(8)} µs/op`);
  return ns;
}

for (const [disks, ifaces] of [
  [4, 3],
  [16, 8],
] as const) {
  const buf = Buffer.from(JSON.stringify(report(disks, ifaces)));
  console.log(`\nreport with ${disks} disks, ${ifaces} interfaces: ${buf.length} bytes`);
  const base = bench(
    'baseline JSON.parse(buf.toString())',
    () => JSON.parse(buf.toString('utf8')),
    20000,
  );
  const strict = bench('strict reader', () => parseStrictJsonBuffer(buf), 20000);
  console.log(`ratio strict / baseline: ${(strict / base).toFixed(2)}x`);
}
