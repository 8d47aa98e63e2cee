import { describe, expect, it } from 'vitest';
import { AlertEvaluator, STARTUP_GRACE_MS } from '../../../src/domain/alerts/evaluator.js';
import type { AlertRule } from '../../../src/domain/alerts/rule.js';
import { FakeClock } from '../../support/fake-clock.js';
import { cpu, nodeView } from './view.js';
import { alertReadings } from '../../../src/domain/alerts/readings.js';

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);
const STALE_MS = 30_000;

function rule(patch: Partial<AlertRule> = {}): AlertRule {
  return {
    id: 7,
    name: 'cpu high',
    enabled: true,
    metric: 'cpu.usage_ratio',
    operator: '>',
    threshold: 0.9,
    durationSec: 0,
    cooldownMin: 0,
    thresholdMode: 'static',
    thresholdOffset: 0,
    clearThreshold: null,
    repeatIntervalMin: 0,
    repeatMax: null,
    generation: 1,
    generationAt: T0,
    createdAt: T0,
    updatedAt: T0,
    ...patch,
  };
}

/** An evaluator past its startup minute with `r` mounted on node 1 (hysteresis and "why it fired"). */
function setup(r: AlertRule = rule()) {
  const clock = new FakeClock(T0);
  const ev = new AlertEvaluator({ startedAt: T0 - STARTUP_GRACE_MS, staleAfterMs: STALE_MS });
  ev.configure([r], [{ ruleId: r.id, nodeId: 1, mounted: true }], T0);
  const report = (view = cpu(0.1), advanceMs = 3000) => {
    clock.advance(advanceMs);
    return ev.observe(1, clock.now(), alertReadings(view), clock.now());
  };
  return { ev, clock, report };
}

const kinds = (actions: Array<{ kind: string }>) => actions.map((a) => a.kind);

describe('alert evaluation: hysteresis (separate clear threshold)', () => {
  it('closes only once the value crosses the clear threshold', () => {
    const { report } = setup(rule({ threshold: 0.9, clearThreshold: 0.7 }));
    expect(kinds(report(cpu(0.8)))).toEqual([]); // under the trigger: nothing opens
    expect(kinds(report(cpu(0.95)))).toEqual(['open']);
    expect(kinds(report(cpu(0.85)))).toEqual([]); // under the trigger, over the clear: holds
    expect(kinds(report(cpu(0.71)))).toEqual([]);
    const close = report(cpu(0.7)); // `>`: 0.7 no longer passes 0.7
    expect(close).toEqual([expect.objectContaining({ kind: 'close', value: 0.7 })]);
    expect(kinds(report(cpu(0.85)))).toEqual([]); // reopening needs the trigger threshold again
    expect(kinds(report(cpu(0.91)))).toEqual(['open']);
  });

  it('without a clear threshold closes at the trigger threshold', () => {
    const { report } = setup(rule({ threshold: 0.9 }));
    expect(kinds(report(cpu(0.95)))).toEqual(['open']);
    expect(kinds(report(cpu(0.85)))).toEqual(['close']);
  });

  it('works for "<" rules, the clear threshold above the trigger', () => {
    const { report } = setup(rule({ operator: '<', threshold: 0.2, clearThreshold: 0.4 }));
    expect(kinds(report(cpu(0.1)))).toEqual(['open']);
    expect(kinds(report(cpu(0.3)))).toEqual([]);
    expect(kinds(report(cpu(0.45)))).toEqual(['close']);
  });

  it('shifts the clear threshold by the core count for core_plus rules', () => {
    const r = rule({
      metric: 'cpu.load1',
      threshold: 1,
      clearThreshold: 0,
      thresholdMode: 'core_plus',
    });
    const load = (l1: number) => nodeView((v) => (v.cpu.load.l1 = l1)); // 4 cores
    const { report } = setup(r);
    const open = report(load(5.5));
    expect(open[0]).toMatchObject({
      kind: 'open',
      threshold: 5,
      detail: { threshold: 5, clearThreshold: 4 },
    });
    expect(kinds(report(load(4.5)))).toEqual([]);
    expect(kinds(report(load(3.9)))).toEqual(['close']);
  });
});

describe('alert evaluation: why it fired', () => {
  it('carries the window and the values that crossed the threshold', () => {
    const { report, clock } = setup(rule({ durationSec: 60 }));
    const start = clock.now() + 3000;
    const values = [0.91, 0.95, 0.99, 0.92];
    let open: ReturnType<typeof report> = [];
    for (let i = 0; open.length === 0 && i < 25; i++) open = report(cpu(values[i % 4]!), 3000);
    const at = clock.now();
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      kind: 'open',
      detail: {
        from: start,
        to: at,
        durationSec: 60,
        operator: '>',
        threshold: 0.9,
        samples: 21,
        min: 0.91,
        max: 0.99,
      },
    });
    const detail = (open[0] as { detail: { values: number[] } }).detail;
    expect(detail.values).toHaveLength(10); // the latest ten, oldest first
    expect(detail.values.at(-1)).toBe(0.91); // the 21st report: values[20 % 4]
    expect(detail).not.toHaveProperty('clearThreshold');
  });

  it('starts a new window after the condition clears during pending', () => {
    const { report, clock } = setup(rule({ durationSec: 60 }));
    report(cpu(0.99));
    report(cpu(0.5));
    const since = clock.now() + 3000;
    let open: ReturnType<typeof report> = [];
    for (let i = 0; open.length === 0 && i < 25; i++) open = report(cpu(0.95));
    expect(open[0]).toMatchObject({ detail: { from: since, samples: 21, min: 0.95, max: 0.95 } });
  });
});
