import { describe, expect, it } from 'vitest';
import { nodeView } from '../test/fixtures/nodes';
import { liveValue, reportTimeSec } from './live';

const view = nodeView(1, 'alpha', '2026-11-24T12:00:03.000Z');

describe('liveValue', () => {
  it('reads host metrics from the latest report', () => {
    expect(liveValue(view, 'cpu.usage_ratio')).toBe(view.cpu.usage_ratio);
    expect(liveValue(view, 'cpu.load15')).toBe(view.cpu.load.l15);
    expect(liveValue(view, 'mem.used')).toBe(view.memory.used_bytes);
    expect(liveValue(view, 'net.sent_bps')).toBe(view.network.total.sent_bps);
    expect(liveValue(view, 'conn.udp')).toBe(view.connections.udp);
    expect(liveValue(view, 'proc.count')).toBe(view.processes.count);
  });

  it('reads device metrics by disk name or mountpoint', () => {
    const [disk, io] = Object.entries(view.disk.io.by_device ?? {})[0]!;
    expect(liveValue(view, 'disk.write_bps', disk)).toBe(io.write_bps);
    const mount = view.disk.mounts[0]!;
    expect(liveValue(view, 'disk.used_ratio', mount.mountpoint)).toBe(mount.used_ratio);
    expect(liveValue(view, 'disk.used_ratio', '/nope')).toBeUndefined();
  });

  it('reads PSI averages and leaves metrics the front view lacks undefined', () => {
    const cpu = view.pressure?.cpu?.some;
    expect(liveValue(view, 'pressure.cpu.some_avg60')).toBe(cpu?.avg60);
    expect(liveValue(view, 'pressure.cpu.full_avg60')).toBeUndefined();
    expect(liveValue(view, 'cpu.iowait_ratio')).toBeUndefined();
    expect(liveValue(view, 'disk.temp_c')).toBeUndefined();
  });

  it('gives the report time in epoch seconds', () => {
    expect(reportTimeSec(view)).toBe(Math.floor(Date.parse(view.observation.received_at!) / 1000));
    expect(
      reportTimeSec({ ...view, observation: { ...view.observation, received_at: undefined } }),
    ).toBeNull();
  });
});
