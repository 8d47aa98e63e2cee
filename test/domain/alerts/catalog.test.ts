import { describe, expect, it } from 'vitest';
import { ALERT_METRICS, metricValue } from '../../../src/domain/alerts/catalog.js';
import { nodeView } from './view.js';

describe('alert metric catalog', () => {
  it('reads the plain metrics from the front view', () => {
    const v = nodeView();
    expect(metricValue('cpu.usage_ratio', v)).toBe(0.1);
    expect(metricValue('cpu.load1', v)).toBe(0.5);
    expect(metricValue('cpu.load5', v)).toBe(0.4);
    expect(metricValue('cpu.load15', v)).toBe(0.3);
    expect(metricValue('mem.used', v)).toBe(200);
    expect(metricValue('mem.used_ratio', v)).toBe(0.2);
    expect(metricValue('net.recv_bps', v)).toBe(10);
    expect(metricValue('net.sent_bps', v)).toBe(20);
    expect(metricValue('conn.tcp', v)).toBe(5);
  });

  it('uses the / mount, else the largest, and has no value without mounts', () => {
    expect(metricValue('disk.usage.used_ratio', nodeView())).toBe(0.5);
    const noRoot = nodeView((v) => (v.disk.mounts = v.disk.mounts.slice(0, 1)));
    expect(metricValue('disk.usage.used_ratio', noRoot)).toBe(0.9);
    expect(
      metricValue(
        'disk.usage.used_ratio',
        nodeView((v) => (v.disk.mounts = [])),
      ),
    ).toBe(undefined);
  });

  it('has no SMART values without SMART data, and counts failures when present', () => {
    const v = nodeView();
    for (const m of [
      'disk.smart.failed',
      'disk.smart.nvme.critical_warning',
      'disk.smart.attribute_failing',
      'disk.smart.max_temp_c',
    ] as const)
      expect(metricValue(m, v)).toBeUndefined();
    const smart = nodeView((x) => {
      x.disk.smart = {
        status: 'ok',
        devices: [
          { name: 'sda', source: 's', status: 'ok', health: 'failed', temp_c: 40 },
          {
            name: 'nvme0',
            source: 's',
            status: 'ok',
            health: 'passed',
            critical_warning: 4,
            temp_c: 55,
            failing_attrs: [
              { name: 'a', when_failed: 'FAILING_NOW' },
              { name: 'b', when_failed: 'In_the_past' },
            ],
          },
        ],
      };
    });
    expect(metricValue('disk.smart.failed', smart)).toBe(1);
    expect(metricValue('disk.smart.nvme.critical_warning', smart)).toBe(1);
    expect(metricValue('disk.smart.attribute_failing', smart)).toBe(1);
    expect(metricValue('disk.smart.max_temp_c', smart)).toBe(55);
  });

  it('sums RAID failures, counting an unhealthy array without failed members as one', () => {
    expect(metricValue('raid.failed', nodeView())).toBeUndefined();
    const arr = (failed: number, health: string) => ({
      name: 'md0',
      status: 's',
      active: 2,
      working: 2,
      failed,
      health,
      members: [],
    });
    const v = nodeView((x) => {
      x.raid = {
        supported: true,
        available: true,
        arrays: [arr(2, 'degraded'), arr(0, 'resync'), arr(0, 'healthy')],
      };
    });
    expect(metricValue('raid.failed', v)).toBe(3);
    const unavailable = nodeView(
      (x) => (x.raid = { supported: true, available: false, arrays: [] }),
    );
    expect(metricValue('raid.failed', unavailable)).toBeUndefined();
  });

  it('takes the hottest thermal sensor', () => {
    expect(metricValue('thermal.max_temp_c', nodeView())).toBeUndefined();
    const sensor = (t: number) => ({
      kind: 'cpu',
      name: 'x',
      sensor_key: 'k',
      source: 's',
      status: 'ok',
      temp_c: t,
    });
    const v = nodeView((x) => (x.thermal = { status: 'ok', sensors: [sensor(50), sensor(71)] }));
    expect(metricValue('thermal.max_temp_c', v)).toBe(71);
  });

  it('lists node.offline, which the evaluator derives from receive times, not from the view', () => {
    expect(ALERT_METRICS).toContain('node.offline');
    expect(metricValue('node.offline', nodeView())).toBeUndefined();
  });
});
