import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { seedNode } from '../../../support/seed-nodes.js';
import { rfc3339 } from '../../../../src/platform/time-format.js';
import { alertsOfflineJob } from '../../../../src/jobs/alerts-offline.js';
import { client, CPU_RULE, reportCpu, resetAlerts } from './support.js';

let t: TestApp;
let send: ReturnType<typeof client>;
let node: { id: number; secret: string };
let n = 0;
const MIN = 60_000;

beforeAll(async () => {
  t = await buildTestApp();
  send = client(t, await adminHeaders(t));
  t.clock.advance(60_000); // past the startup minute
});
beforeEach(async () => {
  // tests move the clock by minutes: a fresh token each time
  send = client(t, await adminHeaders(t));
  // clear silences through the API so the service's view matches the store
  const list = (await send('GET', '/api/admin/alerts/silences/')).json<{
    items: Array<{ id: number }>;
  }>();
  for (const s of list.items) await send('DELETE', `/api/admin/alerts/silences/${s.id}`);
  await send('PUT', '/api/admin/alerts/settings/', {
    enabled: true,
    channel_ids: [],
    repeat_max: 3,
    flap_threshold: 0,
    flap_window_min: 60,
  });
  await resetAlerts(t);
  // a fresh node per test: no in-memory alert state carries over
  node = await seedNode(t, { name: `web-${++n}` });
});
afterAll(async () => t.close());

async function cpuRule(extra: Record<string, unknown> = {}): Promise<void> {
  expect(
    (await send('POST', '/api/admin/alerts/rules/', { ...CPU_RULE, ...extra })).statusCode,
  ).toBe(204);
  await send('PUT', '/api/admin/alerts/mounts/', {
    rule_ids: [1],
    server_ids: [node.id],
    mounted: true,
  });
}

/** Notification hand-offs of the CPU rule (rule 1), in order. */
const transitions = () =>
  t.sql.all(
    `SELECT t.event_id, t.transition, t.seq FROM alert_transitions t
     JOIN alert_events e ON e.id = t.event_id WHERE e.rule_id = 1 ORDER BY t.id`,
  );

const events = async (status = 'all') =>
  (await send('GET', `/api/admin/alerts/events/?status=${status}&metric=cpu.usage_ratio`)).json<{
    items: Array<Record<string, unknown>>;
  }>().items;

const report = async (v: number) => {
  t.clock.advance(3000);
  await reportCpu(t, node.secret, v);
};
const tick = async () => alertsOfflineJob(t.deps.alerts).runOnce(t.clock.now());
const inMin = (m: number) => rfc3339(t.clock.now() + m * MIN);

describe('silences API', () => {
  it('creates, lists and deletes silences of a node, a group and a rule', async () => {
    await t.sql.run('INSERT INTO node_groups (node_id, group_id) VALUES (?, 1)', node.id);
    const a = await send('POST', '/api/admin/alerts/silences/', {
      scope: 'node',
      target_id: node.id,
      ends_at: inMin(30),
      note: ' maintenance ',
    });
    expect(a.statusCode).toBe(201);
    const { id } = a.json<{ id: number }>();
    expect(
      (
        await send('POST', '/api/admin/alerts/silences', {
          scope: 'group',
          target_id: 1,
          ends_at: inMin(10),
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await send('POST', '/api/admin/alerts/silences/', {
          scope: 'rule',
          target_id: -1,
          ends_at: inMin(5),
        })
      ).statusCode,
    ).toBe(201);
    const list = (await send('GET', '/api/admin/alerts/silences')).json<{
      items: Array<Record<string, unknown>>;
    }>();
    expect(list.items).toEqual([
      {
        id,
        scope: 'node',
        target_id: node.id,
        target_name: `web-${n}`,
        ends_at: inMin(30),
        note: 'maintenance',
        active: true,
        created_at: rfc3339(t.clock.now()),
      },
      expect.objectContaining({ scope: 'group', target_id: 1, note: '', active: true }),
      expect.objectContaining({ scope: 'rule', target_id: -1, target_name: 'node_offline' }),
    ]);
    t.clock.advance(5 * MIN);
    const later = (await send('GET', '/api/admin/alerts/silences/')).json<{
      items: Array<{ scope: string; active: boolean }>;
    }>();
    expect(later.items.map((s) => [s.scope, s.active])).toEqual([
      ['node', true],
      ['group', true],
      ['rule', false],
    ]);
    expect((await send('DELETE', `/api/admin/alerts/silences/${id}`)).statusCode).toBe(204);
    expect((await send('DELETE', `/api/admin/alerts/silences/${id}`)).statusCode).toBe(404);
    expect((await send('DELETE', '/api/admin/alerts/silences/x')).json()).toMatchObject({
      code: 'invalid_id',
    });
  });

  it.each([
    ['unknown scope', { scope: 'host', target_id: 1 }],
    ['missing scope', { scope: undefined }],
    ['target 0', { scope: 'node', target_id: 0 }],
    ['string target', { scope: 'node', target_id: '1' }],
    ['unknown node', { scope: 'node', target_id: 9999 }],
    ['unknown group', { scope: 'group', target_id: 9999 }],
    ['unknown rule', { scope: 'rule', target_id: 42 }],
    ['retired built-in', { scope: 'rule', target_id: -5 }],
    ['missing end', { scope: 'node', ends_at: undefined }],
    ['bad end', { scope: 'node', ends_at: 'tomorrow' }],
    ['past end', { scope: 'node', ends_at: '2020-01-01T00:00:00Z' }],
    ['end too far', { scope: 'node', ends_at: '2030-01-01T00:00:00Z' }],
    ['long note', { scope: 'node', note: 'x'.repeat(256) }],
    ['note with control char', { scope: 'node', note: 'a\u0007' }],
    ['numeric note', { scope: 'node', note: 5 }],
  ])('rejects %s with 400 invalid_silence', async (_label, patch: Record<string, unknown>) => {
    const base: Record<string, unknown> = { scope: 'node', target_id: node.id, ends_at: inMin(10) };
    const body = { ...base, ...patch };
    const res = await send('POST', '/api/admin/alerts/silences/', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_silence' });
    expect((await send('GET', '/api/admin/alerts/silences/')).json()).toEqual({ items: [] });
  });

  it('rejects a body that is not an object with 400 invalid_silence', async () => {
    const res = await send('POST', '/api/admin/alerts/silences/', [1]);
    expect(res.json()).toMatchObject({ code: 'invalid_silence' });
  });

  it('requires an admin token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/alerts/silences/' });
    expect(res.statusCode).toBe(401);
  });
});

describe('silences hold back notifications', () => {
  it('records events of a silenced node, marked silenced, with no notification', async () => {
    await cpuRule();
    await send('POST', '/api/admin/alerts/silences/', {
      scope: 'node',
      target_id: node.id,
      ends_at: inMin(10),
    });
    await report(0.95);
    expect(await events('open')).toEqual([expect.objectContaining({ silenced: true })]);
    await report(0.1);
    expect(await events('closed')).toEqual([
      expect.objectContaining({ silenced: true, close_reason: 'condition_cleared' }),
    ]);
    expect(await transitions()).toEqual([]);
  });

  it('a group silence applies to its nodes; after it ends notifications flow again', async () => {
    await cpuRule();
    await t.sql.run('INSERT INTO node_groups (node_id, group_id) VALUES (?, 1)', node.id);
    await send('POST', '/api/admin/alerts/silences/', {
      scope: 'group',
      target_id: 1,
      ends_at: inMin(1),
    });
    await report(0.95);
    await report(0.1);
    expect(await transitions()).toEqual([]);
    t.clock.advance(MIN); // the silence ended by the clock
    await report(0.95);
    await report(0.1);
    expect(await transitions()).toEqual([
      { event_id: 2, transition: 'opened', seq: 0 },
      { event_id: 2, transition: 'closed', seq: 0 },
    ]);
  });

  it('sends the opening held back by a silence once it ends and the event is still open', async () => {
    await cpuRule();
    await send('POST', '/api/admin/alerts/silences/', {
      scope: 'rule',
      target_id: 1,
      ends_at: inMin(1),
    });
    await report(0.95);
    await tick();
    expect(await transitions()).toEqual([]);
    t.clock.advance(MIN);
    await reportCpu(t, node.secret, 0.96);
    await tick();
    expect(await transitions()).toEqual([{ event_id: 1, transition: 'opened', seq: 0 }]);
    await report(0.1);
    expect(await transitions()).toHaveLength(2);
  });

  it('deleting a silence lifts it at once', async () => {
    await cpuRule();
    const { id } = (
      await send('POST', '/api/admin/alerts/silences/', {
        scope: 'node',
        target_id: node.id,
        ends_at: inMin(60),
      })
    ).json<{ id: number }>();
    await send('DELETE', `/api/admin/alerts/silences/${id}`);
    await report(0.95);
    expect(await transitions()).toEqual([{ event_id: 1, transition: 'opened', seq: 0 }]);
  });
});

describe('repeats, cap and acknowledgement', () => {
  it('repeats an open event every interval up to the cap', async () => {
    await cpuRule({ repeat_interval_min: 1, repeat_max: 2 });
    await report(0.95);
    for (let i = 0; i < 5; i++) {
      t.clock.advance(MIN);
      await reportCpu(t, node.secret, 0.95);
      await tick();
    }
    expect(await transitions()).toEqual([
      { event_id: 1, transition: 'opened', seq: 0 },
      { event_id: 1, transition: 'repeat', seq: 1 },
      { event_id: 1, transition: 'repeat', seq: 2 },
    ]);
    expect(await events('open')).toEqual([expect.objectContaining({ repeat_count: 2 })]);
  });

  it('uses the global cap when the rule has none', async () => {
    await send('PUT', '/api/admin/alerts/settings/', {
      enabled: true,
      channel_ids: [],
      repeat_max: 1,
    });
    await cpuRule({ repeat_interval_min: 1 });
    await report(0.95);
    for (let i = 0; i < 4; i++) {
      t.clock.advance(MIN);
      await reportCpu(t, node.secret, 0.95);
      await tick();
    }
    expect(
      (await transitions()).filter((r) => (r as { transition: string }).transition === 'repeat'),
    ).toHaveLength(1);
  });

  it('acknowledging keeps the event open and stops repeats', async () => {
    await cpuRule({ repeat_interval_min: 1, repeat_max: 10 });
    await report(0.95);
    t.clock.advance(MIN);
    await tick();
    const ack = await send('POST', '/api/admin/alerts/events/1/ack');
    expect(ack.statusCode, ack.body).toBe(204);
    const ackedAt = rfc3339(t.clock.now());
    t.clock.advance(1000);
    expect((await send('POST', '/api/admin/alerts/events/1/ack')).statusCode).toBe(204);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(MIN);
      await reportCpu(t, node.secret, 0.95);
      await tick();
    }
    expect(await events('open')).toEqual([
      expect.objectContaining({ id: 1, status: 'open', acked_at: ackedAt, repeat_count: 1 }),
    ]);
    await report(0.1);
    expect(await transitions()).toEqual([
      { event_id: 1, transition: 'opened', seq: 0 },
      { event_id: 1, transition: 'repeat', seq: 1 },
      { event_id: 1, transition: 'closed', seq: 0 },
    ]);
  });

  it('answers 409 for a closed event, 404 for an unknown one, 400 for a bad id', async () => {
    await cpuRule();
    await report(0.95);
    await report(0.1);
    const closed = await send('POST', '/api/admin/alerts/events/1/ack');
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ code: 'alert_event_closed' });
    const missing = await send('POST', '/api/admin/alerts/events/99/ack');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found' });
    expect((await send('POST', '/api/admin/alerts/events/0/ack')).json()).toMatchObject({
      code: 'invalid_id',
    });
  });
});

describe('flap suppression', () => {
  it('notifies once when a pair starts flapping, then holds until it is stable', async () => {
    await send('PUT', '/api/admin/alerts/settings/', {
      enabled: true,
      channel_ids: [],
      flap_threshold: 2,
      flap_window_min: 10,
    });
    await cpuRule();
    for (let i = 0; i < 5; i++) {
      await report(0.95);
      await report(0.1);
    }
    expect(await transitions()).toEqual([
      { event_id: 1, transition: 'opened', seq: 0 },
      { event_id: 1, transition: 'closed', seq: 0 },
      { event_id: 2, transition: 'opened', seq: 0 },
      { event_id: 2, transition: 'closed', seq: 0 },
      { event_id: 3, transition: 'opened', seq: 0 },
    ]);
    const flags = (await events()).map((e) => [e.id, e.flapping]);
    expect(flags).toEqual([
      [5, true],
      [4, true],
      [3, true],
      [2, false],
      [1, false],
    ]);
    t.clock.advance(10 * MIN);
    await report(0.95);
    expect(await transitions()).toHaveLength(6);
  });
});
