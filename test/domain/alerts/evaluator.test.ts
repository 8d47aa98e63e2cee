import { describe, expect, it } from 'vitest';
import { AlertEvaluator, STARTUP_GRACE_MS } from '../../../src/domain/alerts/evaluator.js';
import { BUILTIN_RULES } from '../../../src/domain/alerts/builtin-rules.js';
import type { AlertRule } from '../../../src/domain/alerts/rule.js';
import { FakeClock } from '../../support/fake-clock.js';
import { alertReadings, cpu, cpuReadings, nodeView } from './view.js';

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

/** An evaluator past its startup minute with `r` mounted on node 1. */
function setup(r: AlertRule = rule(), withBuiltins = false) {
  const clock = new FakeClock(T0);
  const ev = new AlertEvaluator({ startedAt: T0 - STARTUP_GRACE_MS, staleAfterMs: STALE_MS });
  ev.configure(
    [...(withBuiltins ? BUILTIN_RULES : []), r],
    [{ ruleId: r.id, nodeId: 1, mounted: true }],
    T0,
  );
  const report = (view = cpu(0.1), advanceMs = 3000) => {
    clock.advance(advanceMs);
    return ev.observe(1, clock.now(), alertReadings(view), clock.now());
  };
  return { ev, clock, report };
}

const kinds = (actions: Array<{ kind: string }>) => actions.map((a) => a.kind);

describe('alert evaluation: threshold, duration 0', () => {
  it('opens on the first report over the threshold and closes when it clears', () => {
    const { report } = setup();
    expect(report(cpu(0.5))).toEqual([]);
    const open = report(cpu(0.95));
    expect(kinds(open)).toEqual(['open']);
    expect(open[0]).toMatchObject({ nodeId: 1, value: 0.95, threshold: 0.9 });
    expect(report(cpu(0.97))).toEqual([]);
    const close = report(cpu(0.2));
    expect(close).toEqual([
      {
        kind: 'close',
        nodeId: 1,
        ruleId: 7,
        at: expect.any(Number) as number,
        reason: 'condition_cleared',
        value: 0.2,
      },
    ]);
    expect(report(cpu(0.2))).toEqual([]);
  });

  it('ignores unmounted rules and disabled rules', () => {
    const { ev, clock } = setup();
    ev.configure([rule()], [], T0);
    expect(ev.observe(1, clock.now() + 1, cpuReadings(1), clock.now() + 1)).toEqual([]);
    ev.configure([rule({ enabled: false })], [{ ruleId: 7, nodeId: 1, mounted: true }], T0);
    expect(ev.observe(1, clock.now() + 2, cpuReadings(1), clock.now() + 2)).toEqual([]);
  });

  it.each([
    ['>=', 0.9, 0.9, true],
    ['<', 0.9, 0.5, true],
    ['<=', 0.9, 0.95, false],
    ['==', 5, 5, true],
    ['!=', 5, 5, false],
  ] as const)('operator %s %d with value %d fires: %s', (operator, threshold, value, fires) => {
    const { report } = setup(rule({ operator, threshold }));
    expect(kinds(report(cpu(value)))).toEqual(fires ? ['open'] : []);
  });

  it('adds the core count to a core_plus threshold', () => {
    const r = rule({
      metric: 'cpu.load1',
      thresholdMode: 'core_plus',
      threshold: 1,
      thresholdOffset: 0.5,
    });
    const { report } = setup(r);
    const load = (l1: number) => nodeView((v) => (v.cpu.load.l1 = l1));
    expect(report(load(5.4))).toEqual([]);
    expect(report(load(5.6))[0]).toMatchObject({ kind: 'open', threshold: 5.5 });
  });

  it('keeps a firing event when a metric has no value', () => {
    const r = rule({ metric: 'disk.smart.max_temp_c', threshold: 60 });
    const { report } = setup(r);
    const hot = nodeView((v) => {
      v.disk.smart = {
        status: 'ok',
        devices: [{ name: 'a', source: 's', status: 'ok', temp_c: 70 }],
      };
    });
    expect(kinds(report(hot))).toEqual(['open']);
    expect(report(nodeView())).toEqual([]);
    expect(
      kinds(
        report(
          nodeView(
            (v) =>
              (v.disk.smart = {
                status: 'ok',
                devices: [{ name: 'a', source: 's', status: 'ok', temp_c: 30 }],
              }),
          ),
        ),
      ),
    ).toEqual(['close']);
  });
});

describe('alert evaluation: duration', () => {
  it('opens only once the condition has held for duration_sec', () => {
    const { report } = setup(rule({ durationSec: 60 }));
    expect(report(cpu(0.95), 1000)).toEqual([]); // pending from here
    expect(report(cpu(0.95), 30_000)).toEqual([]);
    const open = report(cpu(0.95), 30_000);
    expect(kinds(open)).toEqual(['open']);
    expect(open[0]).toMatchObject({ why: expect.stringContaining('60 s window') as string });
  });

  it('restarts the window when the condition breaks while pending', () => {
    const { report } = setup(rule({ durationSec: 60 }));
    report(cpu(0.95), 1000);
    report(cpu(0.95), 50_000);
    expect(report(cpu(0.1), 5000)).toEqual([]);
    expect(report(cpu(0.95), 5000)).toEqual([]);
    expect(report(cpu(0.95), 50_000)).toEqual([]);
    expect(kinds(report(cpu(0.95), 10_000))).toEqual(['open']);
  });

  it('never counts time before the rule generation started', () => {
    const { report, clock } = setup(rule({ durationSec: 300, generationAt: T0 + 120_000 }));
    expect(report(cpu(0.95), 1000)).toEqual([]);
    clock.set(T0 + 120_000 + 299_000);
    expect(report(cpu(0.95), 0)).toEqual([]);
    expect(kinds(report(cpu(0.95), 1000))).toEqual(['open']);
  });
});

describe('alert evaluation: cooldown', () => {
  it('starts no new pending phase until the cooldown has passed', () => {
    const { report } = setup(rule({ cooldownMin: 5 }));
    expect(kinds(report(cpu(0.95)))).toEqual(['open']);
    expect(kinds(report(cpu(0.1)))).toEqual(['close']);
    expect(report(cpu(0.95), 60_000)).toEqual([]);
    expect(report(cpu(0.95), 200_000)).toEqual([]);
    expect(kinds(report(cpu(0.95), 40_000))).toEqual(['open']);
  });
});

describe('alert evaluation: refresh, receive order, startup grace', () => {
  it('refreshes a firing event at most once a minute', () => {
    const { report } = setup();
    report(cpu(0.95));
    expect(report(cpu(0.96), 30_000)).toEqual([]);
    expect(report(cpu(0.97), 30_000)).toEqual([
      { kind: 'refresh', nodeId: 1, ruleId: 7, at: expect.any(Number) as number, value: 0.97 },
    ]);
  });

  it('ignores a report older than the newest one seen', () => {
    const { ev, report, clock } = setup();
    report(cpu(0.95));
    expect(ev.observe(1, clock.now() - 1000, cpuReadings(0.1), clock.now())).toEqual([]);
    expect(ev.firing()).toEqual([{ nodeId: 1, ruleId: 7 }]);
  });

  it('opens nothing in the first minute after start, then opens on the next report', () => {
    const clock = new FakeClock(T0);
    const ev = new AlertEvaluator({ startedAt: T0, staleAfterMs: STALE_MS });
    ev.configure([rule()], [{ ruleId: 7, nodeId: 1, mounted: true }], T0);
    clock.advance(59_000);
    expect(ev.observe(1, clock.now(), cpuReadings(0.95), clock.now())).toEqual([]);
    clock.advance(1000);
    expect(kinds(ev.observe(1, clock.now(), cpuReadings(0.95), clock.now()))).toEqual(['open']);
  });

  it('takes a configured grace instead of the minute (alerts_startup_grace)', () => {
    const clock = new FakeClock(T0);
    const ev = new AlertEvaluator({ startedAt: T0, staleAfterMs: STALE_MS, startupGraceMs: 5000 });
    ev.configure([rule()], [{ ruleId: 7, nodeId: 1, mounted: true }], T0);
    clock.advance(4000);
    expect(ev.observe(1, clock.now(), cpuReadings(0.95), clock.now())).toEqual([]);
    clock.advance(1000);
    expect(kinds(ev.observe(1, clock.now(), cpuReadings(0.95), clock.now()))).toEqual(['open']);
  });
});

describe('alert evaluation: node offline (built-in)', () => {
  it('opens node_offline once the node is silent past the threshold, closes on the next report', () => {
    const { ev, clock, report } = setup(rule(), true);
    report(cpu(0.1));
    clock.advance(STALE_MS);
    expect(ev.tick(clock.now())).toEqual([]);
    clock.advance(1);
    const open = ev.tick(clock.now());
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ kind: 'open', nodeId: 1, rule: { id: -1 }, value: 1 });
    expect(ev.tick(clock.now() + 5000)).toEqual([]);
    const close = report(cpu(0.1), 10_000);
    expect(close).toEqual([
      expect.objectContaining({ kind: 'close', ruleId: -1, reason: 'condition_cleared', value: 0 }),
    ]);
  });

  it('keeps other firing rules while offline but drops their pending phase', () => {
    const { ev, clock, report } = setup(rule({ id: 8, durationSec: 60 }), true);
    report(cpu(0.95)); // pending
    clock.advance(STALE_MS + 1);
    expect(kinds(ev.tick(clock.now()))).toEqual(['open']); // offline only
    // back online: pending starts again from this report, so nothing opens yet
    expect(report(cpu(0.95), 30_000).map((a) => a.kind)).toEqual(['close']);
    expect(report(cpu(0.95), 30_000)).toEqual([]);
    expect(kinds(report(cpu(0.95), 30_000))).toEqual(['open']);
  });

  it('has no offline value for a node without a snapshot', () => {
    const { ev, clock } = setup(rule(), true);
    expect(ev.tick(clock.now() + 10 * STALE_MS)).toEqual([]);
  });
});

describe('alert evaluation: built-in SMART and RAID rules', () => {
  it.each([
    [
      -2,
      (v: ReturnType<typeof nodeView>) =>
        (v.raid = {
          supported: true,
          available: true,
          arrays: [
            {
              name: 'md0',
              status: 'x',
              active: 1,
              working: 1,
              failed: 1,
              health: 'degraded',
              members: [],
            },
          ],
        }),
    ],
    [
      -3,
      (v: ReturnType<typeof nodeView>) =>
        (v.disk.smart = {
          status: 'ok',
          devices: [{ name: 'a', source: 's', status: 'ok', health: 'failed' }],
        }),
    ],
    [
      -4,
      (v: ReturnType<typeof nodeView>) =>
        (v.disk.smart = {
          status: 'ok',
          devices: [{ name: 'a', source: 's', status: 'ok', critical_warning: 1 }],
        }),
    ],
  ])('built-in %d fires on its failure and then cools down 30 minutes', (id, broken) => {
    const { report } = setup(rule(), true);
    expect(report(nodeView())).toEqual([]); // missing data never triggers
    const open = report(nodeView(broken));
    expect(open).toEqual([
      expect.objectContaining({ kind: 'open', rule: expect.objectContaining({ id }) as object }),
    ]);
    const healthy = nodeView((v) => {
      broken(v);
      if (v.raid) v.raid.arrays = [];
      if (v.disk.smart)
        v.disk.smart.devices = [
          { name: 'a', source: 's', status: 'ok', health: 'passed', critical_warning: 0 },
        ];
    });
    expect(kinds(report(healthy))).toEqual(['close']);
    expect(report(nodeView(broken), 29 * 60_000)).toEqual([]);
    expect(kinds(report(nodeView(broken), 60_000))).toEqual(['open']);
  });
});

describe('alert evaluation: rule changes and restart', () => {
  it('closes open events when the rule is disabled, changed, unmounted or deleted', () => {
    const cases = [
      [[rule({ enabled: false })], [{ ruleId: 7, nodeId: 1, mounted: true }], 'rule_disabled'],
      [[rule({ generation: 2 })], [{ ruleId: 7, nodeId: 1, mounted: true }], 'rule_changed'],
      [[rule()], [{ ruleId: 7, nodeId: 1, mounted: false }], 'rule_unmounted'],
      [[], [], 'rule_deleted'],
    ] as const;
    for (const [rules, mounts, reason] of cases) {
      const { ev, report, clock } = setup();
      report(cpu(0.95));
      expect(ev.configure(rules, mounts, clock.now())).toEqual([
        { kind: 'close', nodeId: 1, ruleId: 7, at: clock.now(), reason },
      ]);
      expect(ev.firing()).toEqual([]);
    }
  });

  it('closes a deleted node’s events', () => {
    const { ev, report, clock } = setup();
    report(cpu(0.95));
    expect(ev.forgetNode(1, clock.now())).toEqual([
      { kind: 'close', nodeId: 1, ruleId: 7, at: clock.now(), reason: 'node_deleted' },
    ]);
  });

  it('resumes restored open events: no duplicate open, closes when the condition clears', () => {
    const clock = new FakeClock(T0);
    const ev = new AlertEvaluator({ startedAt: T0, staleAfterMs: STALE_MS });
    ev.restore([{ nodeId: 1, ruleId: 7, generation: 1, lastTriggerAt: T0 - 10_000 }]);
    expect(ev.configure([rule()], [{ ruleId: 7, nodeId: 1, mounted: true }], T0)).toEqual([]);
    clock.advance(1000);
    expect(ev.observe(1, clock.now(), cpuReadings(0.95), clock.now())).toEqual([]);
    clock.advance(1000);
    expect(kinds(ev.observe(1, clock.now(), cpuReadings(0.1), clock.now()))).toEqual(['close']);
  });
});

describe('alert evaluation: an edited rule restarts its pending window', () => {
  it('does not count time held before the new generation', () => {
    const { ev, report, clock } = setup(rule({ durationSec: 60 }));
    report(cpu(0.95), 1000);
    report(cpu(0.95), 50_000);
    const edited = rule({ durationSec: 60, generation: 2, generationAt: clock.now() + 1 });
    expect(ev.configure([edited], [{ ruleId: 7, nodeId: 1, mounted: true }], clock.now())).toEqual(
      [],
    );
    expect(report(cpu(0.95), 20_000)).toEqual([]);
    expect(report(cpu(0.95), 30_000)).toEqual([]);
    expect(kinds(report(cpu(0.95), 30_000))).toEqual(['open']);
  });
});
