import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet } from '../../../support/fleet.js';
import { seedNode } from '../../../support/seed-nodes.js';
import { client, CPU_RULE, resetAlerts } from './support.js';

let t: TestApp;
let send: ReturnType<typeof client>;
let a: { id: number };
let b: { id: number };
beforeAll(async () => {
  t = await buildTestApp();
  send = client(t, await adminHeaders(t));
});
beforeEach(async () => {
  await resetAlerts(t);
  await resetFleet(t);
  a = await seedNode(t, { name: 'a' });
  b = await seedNode(t, { name: 'b' });
  await t.sql.run('INSERT INTO node_groups (node_id, group_id) VALUES (?, 1)', a.id);
  await send('POST', '/api/admin/alerts/rules/', CPU_RULE);
});
afterAll(async () => t.close());

const mounts = async () =>
  (await send('GET', '/api/admin/alerts/mounts/')).json<{
    rules: Array<Record<string, unknown>>;
    nodes: Array<{
      id: number;
      group_ids: number[];
      mounts: Array<{ rule_id: number; mounted: boolean }>;
    }>;
  }>();

describe('alert mounts', () => {
  it('lists built-ins first (mounted by default) then user rules (unmounted by default)', async () => {
    const m = await mounts();
    expect(m.rules).toEqual([
      {
        id: -1,
        name: 'node_offline',
        metric: 'node.offline',
        builtin: true,
        enabled: true,
        default_mounted: true,
      },
      {
        id: -2,
        name: 'raid_failed',
        metric: 'raid.failed',
        builtin: true,
        enabled: true,
        default_mounted: true,
      },
      {
        id: -3,
        name: 'smart_failed',
        metric: 'disk.smart.failed',
        builtin: true,
        enabled: true,
        default_mounted: true,
      },
      {
        id: -4,
        name: 'smart_nvme_critical_warning',
        metric: 'disk.smart.nvme.critical_warning',
        builtin: true,
        enabled: true,
        default_mounted: true,
      },
      {
        id: 1,
        name: 'CPU high',
        metric: 'cpu.usage_ratio',
        builtin: false,
        enabled: true,
        default_mounted: false,
      },
    ]);
    expect(m.nodes).toEqual([
      {
        id: a.id,
        name: 'a',
        hostname: 'Untitled',
        group_ids: [1],
        mounts: [-1, -2, -3, -4, 1].map((rule_id) => ({ rule_id, mounted: rule_id < 0 })),
      },
      expect.objectContaining({ id: b.id, group_ids: [] }) as object,
    ]);
    expect((await send('GET', '/api/admin/alerts/mounts')).statusCode).toBe(200);
  });

  it('mounts and unmounts rules on nodes, built-ins included, coalescing duplicates', async () => {
    const put = await send('PUT', '/api/admin/alerts/mounts/', {
      rule_ids: [1, 1, -1],
      server_ids: [a.id, a.id],
      mounted: true,
    });
    expect(put.statusCode).toBe(204);
    await send('PUT', '/api/admin/alerts/mounts', {
      rule_ids: [-1],
      server_ids: [a.id],
      mounted: false,
    });
    const m = await mounts();
    const of = (id: number) =>
      Object.fromEntries(
        m.nodes.find((n) => n.id === id)!.mounts.map((x) => [x.rule_id, x.mounted]),
      );
    expect(of(a.id)).toMatchObject({ '-1': false, '-2': true, '1': true });
    expect(of(b.id)).toMatchObject({ '-1': true, '1': false });
  });

  it.each([
    [{ rule_ids: [], server_ids: [1], mounted: true }],
    [{ rule_ids: [1], server_ids: [], mounted: true }],
    [{ rule_ids: [0], server_ids: [1], mounted: true }],
    [{ rule_ids: [1], server_ids: [-1], mounted: true }],
    [{ rule_ids: [1], server_ids: [1] }],
    [{ rule_ids: [99], server_ids: [1], mounted: true }],
    [{ rule_ids: [-5], server_ids: [1], mounted: true }],
    [{ rule_ids: [1], server_ids: [999], mounted: true }],
    [{ rule_ids: ['1'], server_ids: [1], mounted: true }],
  ])('rejects %j with 400 invalid_fields', async (body) => {
    const res = await send('PUT', '/api/admin/alerts/mounts/', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_fields' });
  });
});

describe('alert settings', () => {
  it('reads defaults, then what was put', async () => {
    expect((await send('GET', '/api/admin/alerts/settings/')).json()).toEqual({
      enabled: true,
      channel_ids: [],
      repeat_max: 3,
      flap_threshold: 0,
      flap_window_min: 60,
      created_at: '2026-11-21T12:00:00Z',
      updated_at: '2026-11-21T12:00:00Z',
    });
    t.clock.advance(5000);
    expect(
      (
        await send('PUT', '/api/admin/alerts/settings', {
          enabled: false,
          channel_ids: [],
          repeat_max: 5,
          flap_threshold: 4,
          flap_window_min: 30,
        })
      ).statusCode,
    ).toBe(204);
    expect((await send('GET', '/api/admin/alerts/settings')).json()).toEqual({
      enabled: false,
      channel_ids: [],
      repeat_max: 5,
      flap_threshold: 4,
      flap_window_min: 30,
      created_at: '2026-11-21T12:00:00Z',
      updated_at: '2026-11-21T12:00:05Z',
    });
    // the optional fields keep their value when absent
    await send('PUT', '/api/admin/alerts/settings', { enabled: true, channel_ids: [] });
    expect((await send('GET', '/api/admin/alerts/settings')).json()).toMatchObject({
      enabled: true,
      repeat_max: 5,
      flap_threshold: 4,
      flap_window_min: 30,
    });
    await send('PUT', '/api/admin/alerts/settings', {
      enabled: true,
      channel_ids: [],
      repeat_max: 3,
      flap_threshold: 0,
      flap_window_min: 60,
    });
  });

  it.each([
    [{ enabled: true }],
    [{ channel_ids: [] }],
    [{ enabled: 'yes', channel_ids: [] }],
    [{ enabled: true, channel_ids: [0] }],
    [{ enabled: true, channel_ids: [2, 2] }],
    [{ enabled: true, channel_ids: [1] }],
    [{ enabled: true, channel_ids: Array.from({ length: 101 }, (_, i) => i + 1) }],
    [{ enabled: true, channel_ids: [], repeat_max: -1 }],
    [{ enabled: true, channel_ids: [], repeat_max: 101 }],
    [{ enabled: true, channel_ids: [], repeat_max: 1.5 }],
    [{ enabled: true, channel_ids: [], flap_threshold: 1 }],
    [{ enabled: true, channel_ids: [], flap_threshold: 101 }],
    [{ enabled: true, channel_ids: [], flap_window_min: 0 }],
    [{ enabled: true, channel_ids: [], flap_window_min: 1441 }],
  ])('rejects %j with 400 invalid_fields', async (body) => {
    const res = await send('PUT', '/api/admin/alerts/settings/', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_fields' });
  });
});
