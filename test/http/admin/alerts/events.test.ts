import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet } from '../../../support/fleet.js';
import { seedNode } from '../../../support/seed-nodes.js';
import { alertsOfflineJob } from '../../../../src/jobs/alerts-offline.js';
import { client, CPU_RULE, reportCpu, resetAlerts } from './support.js';

let t: TestApp;
let send: ReturnType<typeof client>;
let node: { id: number; secret: string };
beforeAll(async () => {
  t = await buildTestApp();
  send = client(t, await adminHeaders(t));
  t.clock.advance(60_000); // past the startup minute
});
beforeEach(async () => {
  await resetAlerts(t);
  await resetFleet(t);
  node = await seedNode(t, { name: 'web-01' });
  await send('POST', '/api/admin/alerts/rules/', CPU_RULE);
  await send('PUT', '/api/admin/alerts/mounts/', {
    rule_ids: [1],
    server_ids: [node.id],
    mounted: true,
  });
});
afterAll(async () => t.close());

type Page = {
  items: Array<Record<string, unknown>>;
  next_cursor: string | null;
  has_more: boolean;
};
const events = async (query = '') => {
  const res = await send('GET', `/api/admin/alerts/events/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
};
const transitions = () =>
  t.sql.all('SELECT event_id, transition, close_reason FROM alert_transitions ORDER BY id');

describe('alert evaluation through the API', () => {
  it('opens an event on a report over the threshold, and closes it when it clears', async () => {
    await reportCpu(t, node.secret, 0.5);
    expect((await events()).items).toEqual([]);
    t.clock.advance(3000);
    await reportCpu(t, node.secret, 0.95);
    const open = await events();
    expect(open).toEqual({
      items: [
        {
          id: 1,
          rule_id: 1,
          rule_generation: 1,
          server_id: node.id,
          server_name: 'web-01',
          server_hostname: 'Untitled',
          server_ip: '127.0.0.1',
          status: 'open',
          metric: 'cpu.usage_ratio',
          rule_name: 'CPU high',
          first_trigger_at: '2026-11-21T12:01:03Z',
          last_trigger_at: '2026-11-21T12:01:03Z',
          current_value: 0.95,
          effective_threshold: 0.8,
          title: 'CPU high',
          message: 'cpu.usage_ratio = 0.95 > 0.8 at 2026-11-21T12:01:03Z',
          why: {
            from: '2026-11-21T12:01:03Z',
            to: '2026-11-21T12:01:03Z',
            duration_sec: 0,
            operator: '>',
            threshold: 0.8,
            values: [0.95],
            samples: 1,
            min: 0.95,
            max: 0.95,
          },
          silenced: false,
          flapping: false,
          repeat_count: 0,
        },
      ],
      next_cursor: null,
      has_more: false,
    });
    const summary = await send('GET', '/api/admin/alerts/events/summary');
    expect(summary.json()).toEqual({
      items: [
        {
          server_id: node.id,
          open_count: 1,
          last_trigger_at: '2026-11-21T12:01:03Z',
          metric: 'cpu.usage_ratio',
          rule_name: 'CPU high',
          metrics: ['cpu.usage_ratio'],
        },
      ],
    });
    t.clock.advance(3000);
    await reportCpu(t, node.secret, 0.96); // still firing: no duplicate
    t.clock.advance(3000);
    await reportCpu(t, node.secret, 0.1);
    expect((await events()).items).toEqual([]);
    const closed = await events('?status=closed');
    expect(closed.items).toHaveLength(1);
    expect(closed.items[0]).toMatchObject({
      status: 'closed',
      closed_at: '2026-11-21T12:01:09Z',
      close_reason: 'condition_cleared',
      current_value: 0.1,
    });
    expect(await transitions()).toEqual([
      { event_id: 1, transition: 'opened', close_reason: null },
      { event_id: 1, transition: 'closed', close_reason: 'condition_cleared' },
    ]);
    expect((await send('GET', '/api/admin/alerts/events/summary')).json()).toEqual({ items: [] });
  });

  it('opens node_offline from the clock job once the node is silent past the threshold', async () => {
    await reportCpu(t, node.secret, 0.1);
    const job = alertsOfflineJob(t.deps.alerts);
    t.clock.advance(t.config.nodeOfflineThresholdMs);
    await job.runOnce(t.clock.now());
    expect((await events()).items).toEqual([]);
    t.clock.advance(1000);
    await job.runOnce(t.clock.now());
    expect((await events()).items).toEqual([
      expect.objectContaining({ rule_id: -1, rule_name: 'node_offline', metric: 'node.offline' }),
    ]);
    await reportCpu(t, node.secret, 0.1);
    expect((await events('?status=closed')).items[0]).toMatchObject({
      rule_id: -1,
      close_reason: 'condition_cleared',
    });
  });

  it('closes open events when the rule is edited, disabled, unmounted or deleted; none notify', async () => {
    const steps: Array<[() => Promise<unknown>, string]> = [
      [() => send('PATCH', '/api/admin/alerts/rules/1', { threshold: 0.7 }), 'rule_changed'],
      [() => send('PATCH', '/api/admin/alerts/rules/1', { enabled: false }), 'rule_disabled'],
      [
        () =>
          send('PUT', '/api/admin/alerts/mounts/', {
            rule_ids: [1],
            server_ids: [node.id],
            mounted: false,
          }),
        'rule_unmounted',
      ],
      [() => send('DELETE', '/api/admin/alerts/rules/1'), 'rule_deleted'],
    ];
    for (const [act, reason] of steps) {
      await send('PATCH', '/api/admin/alerts/rules/1', { enabled: true });
      await send('PUT', '/api/admin/alerts/mounts/', {
        rule_ids: [1],
        server_ids: [node.id],
        mounted: true,
      });
      t.clock.advance(3000);
      await reportCpu(t, node.secret, 0.95);
      expect((await events()).items, reason).toHaveLength(1);
      await act();
      expect((await events()).items, reason).toEqual([]);
      expect((await events('?status=closed')).items[0]).toMatchObject({ close_reason: reason });
    }
    const kinds = (await transitions()).map((r) => (r as { transition: string }).transition);
    expect(kinds).toEqual(['opened', 'opened', 'opened', 'opened']);
  });

  it('closes a deleted node’s events and hides them', async () => {
    await reportCpu(t, node.secret, 0.95);
    expect((await send('DELETE', `/api/admin/nodes/${node.id}`)).statusCode).toBe(204);
    await t.deps.alerts.flush();
    expect(await t.sql.all('SELECT status, close_reason FROM alert_events')).toEqual([
      { status: 'closed', close_reason: 'node_deleted' },
    ]);
    expect((await events('?status=all')).items).toEqual([]);
    expect((await send('GET', '/api/admin/alerts/events/servers')).json()).toEqual({ items: [] });
  });

  it('records events but queues no notification while alerts are disabled', async () => {
    expect(
      (await send('PUT', '/api/admin/alerts/settings/', { enabled: false, channel_ids: [] }))
        .statusCode,
    ).toBe(204);
    await reportCpu(t, node.secret, 0.95);
    expect((await events()).items).toHaveLength(1);
    expect(await transitions()).toEqual([]);
    await send('PUT', '/api/admin/alerts/settings/', { enabled: true, channel_ids: [] });
  });
});

describe('GET /api/admin/alerts/events/ paging and filters', () => {
  /** Inserts closed events directly, one per second of last_trigger_at from `start`. */
  const WHY = {
    from: 0,
    to: 0,
    durationSec: 0,
    operator: '>',
    threshold: 0.8,
    values: [1],
    samples: 1,
    min: 1,
    max: 1,
  };
  async function insertEvents(
    n: number,
    start: number,
    nodeId = node.id,
    metric = 'cpu.usage_ratio',
  ) {
    for (let i = 0; i < n; i++) {
      const at = start + i * 1000;
      await t.deps.store.alerts.applyTransitions([
        {
          kind: 'open',
          nodeId,
          ruleId: 1,
          ruleGeneration: 1,
          ruleName: 'r',
          metric,
          at,
          value: 1,
          threshold: 0.8,
          title: 'r',
          message: 'm',
          why: WHY,
          notify: false,
          silenced: false,
          flapping: false,
        },
        {
          kind: 'close',
          nodeId,
          ruleId: 1,
          at,
          reason: 'condition_cleared',
          notify: false,
          silenced: false,
          flapping: false,
        },
      ]);
    }
  }

  it('pages by cursor without repeats or gaps while new events arrive', async () => {
    const base = Date.UTC(2026, 10, 20, 0, 0, 0);
    await insertEvents(7, base);
    const first = await events('?status=all&limit=3');
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe('2026-11-20T00:00:04.000000000Z,5');
    await insertEvents(3, base + 100_000); // newer events land before the cursor
    const second = await events(
      `?status=all&limit=3&cursor=${encodeURIComponent(first.next_cursor!)}`,
    );
    const third = await events(
      `?status=all&limit=3&cursor=${encodeURIComponent(second.next_cursor!)}`,
    );
    expect(third).toMatchObject({ has_more: false, next_cursor: null });
    const ids = [...first.items, ...second.items, ...third.items].map((e) => e.id);
    expect(ids).toEqual([7, 6, 5, 4, 3, 2, 1]);
  });

  it('orders equal trigger times by id and filters by node, metric and time', async () => {
    const other = await seedNode(t, { name: 'db-01' });
    const at = Date.UTC(2026, 10, 20, 0, 0, 0);
    await insertEvents(2, at);
    await insertEvents(1, at, other.id, 'mem.used');
    expect((await events('?status=all')).items.map((e) => e.id)).toEqual([2, 3, 1]);
    expect((await events(`?status=all&server_id=${other.id}`)).items.map((e) => e.id)).toEqual([3]);
    expect((await events('?status=all&metric=mem.used')).items.map((e) => e.id)).toEqual([3]);
    const range = '&from=2026-11-20T00:00:00.500Z&to=2026-11-20T01:00:01%2B01:00';
    expect((await events(`?status=all${range}`)).items.map((e) => e.id)).toEqual([2]);
    expect((await events('?status=closed&limit=500')).items).toHaveLength(3);
    expect((await events('?status=all&limit=100000')).items).toHaveLength(3); // clamps to 500
    const servers = await send('GET', '/api/admin/alerts/events/servers');
    expect(servers.json()).toEqual({
      items: [
        { id: node.id, name: 'web-01' },
        { id: other.id, name: 'db-01' },
      ],
    });
  });

  it('clamps limit to 500 and defaults to 200', async () => {
    await insertEvents(501, Date.UTC(2026, 10, 19));
    const def = await events('?status=all');
    expect(def.items).toHaveLength(200);
    expect(def.has_more).toBe(true);
    const max = await events('?status=all&limit=501');
    expect(max.items).toHaveLength(500);
    expect(max.has_more).toBe(true);
    const rest = await events(
      `?status=all&limit=500&cursor=${encodeURIComponent(max.next_cursor!)}`,
    );
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    expect(rest.items).toHaveLength(1);
  });

  it.each([
    ['limit=0'],
    ['limit=-1'],
    ['limit=abc'],
    ['limit=1.5'],
    ['status=firing'],
    ['server_id=0'],
    ['server_id=x'],
    ['from=yesterday'],
    ['to=2026-13-01T00:00:00Z'],
    ['from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z'],
    ['cursor=abc'],
    ['cursor=2026-11-20T00:00:00Z,0'],
    ['cursor=2026-11-20T00:00:00Z'],
    ['cursor=,5'],
  ])('answers 400 invalid_request for %s', async (query) => {
    const res = await send('GET', `/api/admin/alerts/events/?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request' });
  });
});
