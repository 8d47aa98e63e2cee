import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertRuleWrite, AlertTransitionWrite, AlertWhy } from '../../../src/store/ports.js';
import { ENGINES, readRows, type EngineStore } from '../engines.js';

const RULE: AlertRuleWrite = {
  name: 'CPU high',
  enabled: true,
  metric: 'cpu.usage_ratio',
  operator: '>',
  threshold: 0.8,
  durationSec: 0,
  cooldownMin: 5,
  thresholdMode: 'absolute',
  thresholdOffset: 0,
  clearThreshold: null,
  repeatIntervalMin: 0,
  repeatMax: null,
};

const WHY: AlertWhy = {
  from: 1000,
  to: 1000,
  durationSec: 0,
  operator: '>',
  threshold: 0.8,
  values: [0.95],
  samples: 1,
  min: 0.95,
  max: 0.95,
};

const open = (
  nodeId: number,
  ruleId: number,
  at: number,
  over: Partial<Extract<AlertTransitionWrite, { kind: 'open' }>> = {},
): AlertTransitionWrite => ({
  kind: 'open',
  nodeId,
  ruleId,
  ruleGeneration: 1,
  ruleName: 'CPU high',
  metric: 'cpu.usage_ratio',
  at,
  value: 0.95,
  threshold: 0.8,
  title: 'CPU high',
  message: `cpu at ${at}`,
  why: WHY,
  notify: true,
  silenced: false,
  flapping: false,
  ...over,
});

const close = (
  nodeId: number,
  ruleId: number,
  at: number,
  over: Partial<Extract<AlertTransitionWrite, { kind: 'close' }>> = {},
): AlertTransitionWrite => ({
  kind: 'close',
  nodeId,
  ruleId,
  at,
  reason: 'recovered',
  value: 0.2,
  notify: true,
  silenced: false,
  flapping: false,
  ...over,
});

describe.each(ENGINES)('alerts repo on $name', ({ open: openStore }) => {
  let store: EngineStore;
  let n1: number;
  let n2: number;
  beforeEach(async () => {
    store = await openStore();
    const ids: number[] = [];
    for (const [i, name] of ['web-01', 'db-01'].entries()) {
      const r = await store.nodes.create({ name, secretHash: `h${i}`, secretEnc: `e${i}` }, 1);
      if (!r.ok) throw new Error('node create failed');
      ids.push(r.id);
    }
    [n1, n2] = ids as [number, number];
  });
  afterEach(async () => store.close());

  /** Transitions as the outbox holds them, oldest first. */
  const outbox = async () =>
    (
      await readRows<{ event_id: number; transition: string; seq: number }>(
        store,
        'SELECT event_id, transition, seq FROM alert_transitions ORDER BY id',
      )
    ).map((t) => `${t.event_id}:${t.transition}:${t.seq}`);

  it('creates, lists newest first, updates with generations and soft-deletes rules', async () => {
    const a = await store.alerts.createRule(RULE, 10);
    const b = await store.alerts.createRule(
      { ...RULE, name: 'Mem', enabled: false, clearThreshold: 0.5, repeatMax: 2 },
      20,
    );
    const rules = await store.alerts.rules();
    expect(rules.map((r) => r.id)).toEqual([b, a]);
    expect(rules[1]).toEqual({
      id: a,
      ...RULE,
      generation: 1,
      generationAt: 10,
      createdAt: 10,
      updatedAt: 10,
    });
    expect(rules[0]).toMatchObject({ enabled: false, clearThreshold: 0.5, repeatMax: 2 });

    expect(await store.alerts.updateRule(a, { threshold: 0.9, enabled: false }, true, 30)).toBe(
      true,
    );
    expect(await store.alerts.updateRule(a, { name: 'renamed' }, false, 40)).toBe(true);
    expect((await store.alerts.rules())[1]).toMatchObject({
      name: 'renamed',
      threshold: 0.9,
      enabled: false,
      generation: 2,
      generationAt: 30,
      updatedAt: 40,
    });
    expect(await store.alerts.updateRule(999, { name: 'x' }, false, 50)).toBe(false);

    await store.alerts.setMounts([a, b], [n1], true);
    expect(await store.alerts.deleteRule(a, 60)).toBe(true);
    expect(await store.alerts.deleteRule(a, 61)).toBe(false);
    expect(await store.alerts.updateRule(a, { name: 'x' }, false, 62)).toBe(false);
    expect((await store.alerts.rules()).map((r) => r.id)).toEqual([b]);
    // The deleted rule's mounts go with it.
    expect(await store.alerts.mounts()).toEqual([{ ruleId: b, nodeId: n1, mounted: true }]);
  });

  it('mounts every rule × node pair and overwrites an existing mount', async () => {
    const a = await store.alerts.createRule(RULE, 1);
    const b = await store.alerts.createRule(RULE, 1);
    await store.alerts.setMounts([a, b], [n1, n2], true);
    await store.alerts.setMounts([b], [n2], false);
    await store.alerts.setMounts([], [n1], false);
    const sorted = (await store.alerts.mounts()).sort(
      (x, y) => x.ruleId - y.ruleId || x.nodeId - y.nodeId,
    );
    expect(sorted).toEqual([
      { ruleId: a, nodeId: n1, mounted: true },
      { ruleId: a, nodeId: n2, mounted: true },
      { ruleId: b, nodeId: n1, mounted: true },
      { ruleId: b, nodeId: n2, mounted: false },
    ]);
  });

  it('keeps one settings row; created_at stays, the rest is replaced', async () => {
    expect(await store.alerts.settings()).toBeUndefined();
    const w = {
      enabled: true,
      channelIds: [3, 1],
      repeatMax: 3,
      flapThreshold: 0,
      flapWindowMin: 60,
    };
    await store.alerts.putSettings(w, 10);
    await store.alerts.putSettings({ ...w, enabled: false, channelIds: [], flapThreshold: 4 }, 20);
    expect(await store.alerts.settings()).toEqual({
      enabled: false,
      channelIds: [],
      repeatMax: 3,
      flapThreshold: 4,
      flapWindowMin: 60,
      createdAt: 10,
      updatedAt: 20,
    });
  });

  it('lists live nodes with their live groups, and live groups', async () => {
    const g1 = await store.groups.create('prod', '', 1);
    const g2 = await store.groups.create('eu', '', 1);
    const g3 = await store.groups.create('old', '', 1);
    await store.nodes.update(n1, { groupIds: [g2, g1, g3] }, 2);
    await store.groups.softDelete(g3, 3);
    const n3 = await store.nodes.create({ name: 'gone', secretHash: 'h9', secretEnc: 'e9' }, 1);
    if (!n3.ok) throw new Error('node create failed');
    await store.nodes.softDelete(n3.id, 4);
    expect(await store.alerts.nodes()).toEqual([
      { id: n1, name: 'web-01', hostname: 'web-01', ip: null, groupIds: [g1, g2] },
      { id: n2, name: 'db-01', hostname: 'db-01', ip: null, groupIds: [] },
    ]);
    expect(await store.alerts.groups()).toEqual([
      { id: g1, name: 'prod' },
      { id: g2, name: 'eu' },
    ]);
  });

  it('opens, refreshes and closes events with their outbox rows in one batch', async () => {
    const r = await store.alerts.createRule(RULE, 1);
    await store.alerts.applyTransitions([]);
    await store.alerts.applyTransitions([
      open(n1, r, 1000),
      open(n2, r, 1100, { notify: false, silenced: true }),
      { kind: 'refresh', nodeId: n1, ruleId: r, at: 2000, value: 0.97 },
    ]);
    const keys = await store.alerts.openEvents();
    expect(keys.sort((a, b) => a.nodeId - b.nodeId)).toEqual([
      {
        nodeId: n1,
        ruleId: r,
        generation: 1,
        firstTriggerAt: 1000,
        lastTriggerAt: 2000,
        notified: true,
        silenced: false,
        flapping: false,
        ackedAt: null,
        repeatCount: 0,
        lastNotifiedAt: 1000,
      },
      {
        nodeId: n2,
        ruleId: r,
        generation: 1,
        firstTriggerAt: 1100,
        lastTriggerAt: 1100,
        notified: false,
        silenced: true,
        flapping: false,
        ackedAt: null,
        repeatCount: 0,
        lastNotifiedAt: null,
      },
    ]);
    const rows = await store.alerts.openEventRows();
    expect(rows.map((e) => e.nodeId)).toEqual([n1, n2]);
    expect(rows[0]).toEqual({
      id: 1,
      ruleId: r,
      ruleGeneration: 1,
      ruleName: 'CPU high',
      nodeId: n1,
      nodeName: 'web-01',
      nodeHostname: 'web-01',
      nodeIp: null,
      status: 'open',
      metric: 'cpu.usage_ratio',
      firstTriggerAt: 1000,
      lastTriggerAt: 2000,
      closedAt: null,
      currentValue: 0.97,
      effectiveThreshold: 0.8,
      closeReason: null,
      title: 'CPU high',
      message: 'cpu at 1000',
      why: WHY,
      ackedAt: null,
      silenced: false,
      flapping: false,
      repeatCount: 0,
    });

    // The silenced opening goes out later; repeats count up and never go back.
    await store.alerts.applyTransitions([
      { kind: 'notify_open', nodeId: n2, ruleId: r, at: 3000 },
      { kind: 'repeat', nodeId: n1, ruleId: r, at: 3000, seq: 2 },
      // The same repeat again adds no outbox row (its key is taken).
      { kind: 'repeat', nodeId: n1, ruleId: r, at: 3100, seq: 2 },
      { kind: 'repeat', nodeId: n1, ruleId: r, at: 3200, seq: 1 },
    ]);
    const n1Key = (await store.alerts.openEvents()).find((k) => k.nodeId === n1);
    expect(n1Key).toMatchObject({ repeatCount: 2, lastNotifiedAt: 3200 });
    expect((await store.alerts.openEvents()).find((k) => k.nodeId === n2)).toMatchObject({
      notified: true,
      lastNotifiedAt: 3000,
    });

    await store.alerts.applyTransitions([
      close(n1, r, 4000, { silenced: true, flapping: true }),
      close(n2, r, 4100, { notify: false, value: undefined }),
      // Nothing open any more: no row and no outbox entry.
      close(n1, r, 4200),
      { kind: 'refresh', nodeId: n1, ruleId: r, at: 4300, value: 1 },
      { kind: 'repeat', nodeId: n1, ruleId: r, at: 4300, seq: 3 },
    ]);
    expect(await store.alerts.openEvents()).toEqual([]);
    expect(await store.alerts.openEventRows()).toEqual([]);
    const closed = await store.alerts.events({ status: 'closed', limit: 10 });
    expect(closed.map((e) => [e.nodeId, e.closedAt, e.closeReason, e.currentValue])).toEqual([
      [n1, 4000, 'recovered', 0.2],
      [n2, 4100, 'recovered', 0.95],
    ]);
    expect(closed[0]).toMatchObject({ silenced: true, flapping: true, repeatCount: 2 });
    expect(closed[1]).toMatchObject({ silenced: true, flapping: false });
    expect(await outbox()).toEqual([
      '1:opened:0',
      '2:opened:0',
      '1:repeat:2',
      '1:repeat:1',
      '1:closed:0',
    ]);

    // A new event for the same pair after the close.
    await store.alerts.applyTransitions([open(n1, r, 5000)]);
    expect((await store.alerts.openEventRows()).map((e) => e.id)).toEqual([3]);
  });

  it('rolls the whole batch back when a second open of the same pair fails', async () => {
    const r = await store.alerts.createRule(RULE, 1);
    await store.alerts.applyTransitions([open(n1, r, 1000)]);
    await expect(
      store.alerts.applyTransitions([open(n2, r, 2000), open(n1, r, 2000)]),
    ).rejects.toThrow();
    expect((await store.alerts.openEvents()).map((k) => k.nodeId)).toEqual([n1]);
    expect(await outbox()).toEqual(['1:opened:0']);
  });

  it('pages events newest first with filters and an after-position', async () => {
    const r = await store.alerts.createRule(RULE, 1);
    const m = await store.alerts.createRule({ ...RULE, metric: 'mem.used_ratio' }, 1);
    await store.alerts.applyTransitions([open(n1, r, 1000), close(n1, r, 1500)]);
    await store.alerts.applyTransitions([open(n1, r, 2000), open(n2, r, 2000)]);
    await store.alerts.applyTransitions([open(n2, m, 3000, { metric: 'mem.used_ratio' })]);
    const ids = async (q: Partial<Parameters<typeof store.alerts.events>[0]>) =>
      (await store.alerts.events({ status: 'all', limit: 50, ...q })).map((e) => e.id);
    expect(await ids({})).toEqual([4, 3, 2, 1]);
    expect(await ids({ status: 'open' })).toEqual([4, 3, 2]);
    expect(await ids({ status: 'closed' })).toEqual([1]);
    expect(await ids({ nodeId: n1 })).toEqual([2, 1]);
    expect(await ids({ metric: 'mem.used_ratio' })).toEqual([4]);
    expect(await ids({ from: 1500, to: 2000 })).toEqual([3, 2]);
    expect(await ids({ limit: 2 })).toEqual([4, 3]);
    expect(await ids({ after: { lastTriggerAt: 2000, id: 3 } })).toEqual([2, 1]);
    expect(await ids({ after: { lastTriggerAt: 2000, id: 3 }, limit: 1 })).toEqual([2]);
    // Events of a deleted node are gone from every list.
    await store.nodes.softDelete(n2, 5000);
    expect(await ids({})).toEqual([2, 1]);
    expect((await store.alerts.openEventRows()).map((e) => e.id)).toEqual([2]);
  });

  it('acknowledges an open event once; a closed or unknown one is only reported', async () => {
    const r = await store.alerts.createRule(RULE, 1);
    await store.alerts.applyTransitions([open(n1, r, 1000), open(n2, r, 1000)]);
    expect(await store.alerts.ackEvent(1, 2000)).toEqual({ nodeId: n1, ruleId: r, status: 'open' });
    expect(await store.alerts.ackEvent(1, 3000)).toEqual({ nodeId: n1, ruleId: r, status: 'open' });
    expect((await store.alerts.openEventRows()).find((e) => e.id === 1)?.ackedAt).toBe(2000);
    await store.alerts.applyTransitions([close(n1, r, 4000)]);
    expect(await store.alerts.ackEvent(1, 5000)).toEqual({
      nodeId: n1,
      ruleId: r,
      status: 'closed',
    });
    expect((await store.alerts.events({ status: 'closed', limit: 5 }))[0]?.ackedAt).toBe(2000);
    expect(await store.alerts.ackEvent(99, 5000)).toBeUndefined();
    await store.nodes.softDelete(n2, 5000);
    expect(await store.alerts.ackEvent(2, 6000)).toBeUndefined();
  });

  it('creates, lists (latest end first) and deletes silences', async () => {
    expect(await store.alerts.silences()).toEqual([]);
    const a = await store.alerts.createSilence(
      { scope: 'node', targetId: n1, endsAt: 5000, note: 'x' },
      10,
    );
    const b = await store.alerts.createSilence(
      { scope: 'group', targetId: 7, endsAt: 9000, note: '' },
      20,
    );
    const c = await store.alerts.createSilence(
      { scope: 'rule', targetId: 3, endsAt: 5000, note: '' },
      30,
    );
    expect(await store.alerts.silences()).toEqual([
      { id: b, scope: 'group', targetId: 7, endsAt: 9000, note: '', createdAt: 20 },
      { id: c, scope: 'rule', targetId: 3, endsAt: 5000, note: '', createdAt: 30 },
      { id: a, scope: 'node', targetId: n1, endsAt: 5000, note: 'x', createdAt: 10 },
    ]);
    expect(await store.alerts.deleteSilence(c)).toBe(true);
    expect(await store.alerts.deleteSilence(c)).toBe(false);
    expect((await store.alerts.silences()).map((s) => s.id)).toEqual([b, a]);
  });
});
