import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { resetFleet } from '../../../support/fleet.js';
import type { NodeEvent } from '../../../../src/domain/nodes/node-events.js';
import { nodeApi, type ListedNode } from './helpers.js';

let t: TestApp;
let admin: Record<string, string>;
const events: NodeEvent[] = [];
let node: ListedNode;
let other: ListedNode;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
  t.deps.nodeEvents.on((e) => void events.push(e));
});
beforeEach(async () => {
  await resetFleet(t);
  node = await api().create();
  other = await api().create();
  events.length = 0;
});
afterAll(async () => t.close());
const api = () => nodeApi(t, () => admin);
const patch = (body: unknown, id: number | string = node.id, slash = '') =>
  api().send('PATCH', `/api/admin/nodes/${id}${slash}`, body);

describe('PATCH /api/admin/nodes/{id}', () => {
  it('changes every writable field in one patch', async () => {
    const g = await api().send('POST', '/api/admin/groups/', { name: 'web' });
    expect(g.statusCode).toBe(204);
    const res = await patch({
      name: '  web-1  ',
      is_guest_visible: true,
      traffic_p95_enabled: true,
      traffic_cycle_mode: 'clamp_to_month_end',
      traffic_billing_start_day: 31,
      traffic_billing_timezone: 'Asia/Shanghai',
      traffic_direction_mode: 'both',
      display_order: 7,
      tags: [' prod ', 'eu', 'prod', ''],
      secret: '  new-secret-123  ',
      group_ids: [2, 1, 2],
    });
    expect(res.statusCode).toBe(204);
    expect(await api().node(node.id)).toMatchObject({
      name: 'web-1',
      is_guest_visible: true,
      traffic_p95_enabled: true,
      traffic_cycle_mode: 'clamp_to_month_end',
      traffic_billing_start_day: 31,
      traffic_billing_anchor_date: '',
      traffic_billing_timezone: 'Asia/Shanghai',
      traffic_direction_mode: 'both',
      display_order: 7,
      tags: ['prod', 'eu'],
      secret: 'new-secret-123',
      group_ids: [1, 2],
    });
    expect(events).toEqual([{ type: 'updated', nodeId: node.id }]);
  });

  it('answers with a trailing slash too', async () => {
    expect((await patch({ name: 'slash' }, node.id, '/')).statusCode).toBe(204);
    expect((await api().node(node.id))?.name).toBe('slash');
  });

  it('stores whmcs anchors as dates, and the legacy default mode as a calendar month', async () => {
    await patch({
      traffic_cycle_mode: 'whmcs_compatible',
      traffic_billing_anchor_date: '2026-01-31T23:30:00Z',
      traffic_billing_timezone: 'Asia/Tokyo',
    });
    expect(await api().node(node.id)).toMatchObject({
      traffic_cycle_mode: 'whmcs_compatible',
      traffic_billing_anchor_date: '2026-02-01',
      traffic_billing_start_day: 1,
    });
    expect((await patch({ traffic_cycle_mode: 'default' })).statusCode).toBe(204);
    expect(await api().node(node.id)).toMatchObject({
      traffic_cycle_mode: 'calendar_month',
      traffic_billing_start_day: 1,
      traffic_billing_anchor_date: '',
      traffic_billing_timezone: '',
    });
  });

  it.each([
    ['calendar_month', { traffic_billing_start_day: 1, traffic_billing_anchor_date: '' }, 1, ''],
    [
      'clamp_to_month_end',
      { traffic_billing_start_day: 30, traffic_billing_anchor_date: '' },
      30,
      '',
    ],
    [
      'whmcs_compatible',
      { traffic_billing_start_day: 1, traffic_billing_anchor_date: '2026-01-29' },
      29,
      '2026-01-29',
    ],
  ])(
    'accepts all four cycle fields from older clients for %s',
    async (mode, extra, day, anchor) => {
      const res = await patch({
        traffic_cycle_mode: mode,
        traffic_billing_timezone: '',
        ...extra,
      });
      expect(res.statusCode).toBe(204);
      expect(await api().node(node.id)).toMatchObject({
        traffic_cycle_mode: mode,
        traffic_billing_start_day: day,
        traffic_billing_anchor_date: anchor,
        traffic_billing_timezone: '',
      });
    },
  );

  it('clears tags with [] and memberships with []', async () => {
    await patch({ tags: ['a'], group_ids: [1] });
    expect((await patch({ tags: [], group_ids: [] })).statusCode).toBe(204);
    expect(await api().node(node.id)).toMatchObject({ tags: [], group_ids: [] });
  });

  it.each([
    ['no field', {}, 'no_fields'],
    ['only unknown fields', { colour: 'red' }, 'no_fields'],
    ['an empty name', { name: '  ' }, 'invalid_name'],
    ['a 65-character name', { name: 'n'.repeat(65) }, 'invalid_name'],
    ['a control character in the name', { name: 'a\tb' }, 'invalid_name'],
    ['a name of the wrong type', { name: 5 }, 'invalid_request'],
    ['null tags', { tags: null }, 'invalid_tags'],
    ['33 tags', { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }, 'invalid_tags'],
    ['a 65-character tag', { tags: ['t'.repeat(65)] }, 'invalid_tags'],
    ['a short secret', { secret: '  1234567 ' }, 'invalid_secret'],
    ['a long secret', { secret: 's'.repeat(129) }, 'invalid_secret'],
    ['a direction mode', { traffic_direction_mode: 'in' }, 'invalid_traffic_direction_mode'],
    ['a zero display order', { display_order: 0 }, 'invalid_display_order'],
    ['a negative display order', { display_order: -3 }, 'invalid_display_order'],
    ['a group id of 0', { group_ids: [0] }, 'invalid_group_ids'],
    ['an unknown group', { group_ids: [1, 99] }, 'invalid_group_ids'],
    ['group ids of the wrong type', { group_ids: ['1'] }, 'invalid_request'],
    [
      'a cycle mode',
      { traffic_cycle_mode: 'weekly', traffic_billing_timezone: '' },
      'invalid_traffic_cycle_mode',
    ],
    [
      'a cycle field without mode',
      { traffic_billing_timezone: 'UTC' },
      'invalid_traffic_cycle_settings',
    ],
    [
      'default with another field',
      { traffic_cycle_mode: 'default', traffic_billing_timezone: '' },
      'invalid_traffic_cycle_settings',
    ],
    [
      'calendar_month without zone',
      { traffic_cycle_mode: 'calendar_month' },
      'invalid_traffic_cycle_settings',
    ],
    [
      'a start day',
      {
        traffic_cycle_mode: 'clamp_to_month_end',
        traffic_billing_start_day: 32,
        traffic_billing_timezone: '',
      },
      'invalid_traffic_billing_start_day',
    ],
    [
      'an anchor date',
      {
        traffic_cycle_mode: 'whmcs_compatible',
        traffic_billing_anchor_date: '2026-13-01',
        traffic_billing_timezone: '',
      },
      'invalid_traffic_billing_anchor_date',
    ],
    [
      'a time zone',
      { traffic_cycle_mode: 'calendar_month', traffic_billing_timezone: 'Nowhere/City' },
      'invalid_traffic_billing_timezone',
    ],
    ['an out-of-range integer', { display_order: 9223372036854775808 }, 'invalid_request'],
  ])('rejects %s with 400 and changes nothing', async (_name, body, code) => {
    const before = await api().list();
    const res = await patch({
      ...body,
      ...(code === 'no_fields' ? {} : { is_guest_visible: true }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code });
    expect(await api().list()).toEqual(before);
    expect(events).toEqual([]);
  });

  it.each([
    ['abc', 400, 'invalid_id'],
    ['0', 400, 'invalid_id'],
    ['-1', 400, 'invalid_id'],
    ['1.5', 400, 'invalid_id'],
    ['99999', 404, 'not_found'],
  ])('answers id %s with %i %s', async (id, status, code) => {
    const res = await patch({ name: 'x' }, id);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code });
  });

  it('rotates the secret for ingest at once, and refuses one another node owns', async () => {
    const dup = await patch({ secret: ` ${other.secret} `, name: 'changed' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'duplicate_secret' });
    expect((await api().node(node.id))?.name).toBe('Untitled');

    expect((await patch({ secret: node.secret })).statusCode).toBe(204);
    expect((await patch({ secret: 'rotated-secret' })).statusCode).toBe(204);
    expect(t.deps.nodeSecrets.lookup(node.secret)).toBeUndefined();
    expect(t.deps.nodeSecrets.lookup('rotated-secret')).toBe(node.id);
    expect(t.deps.nodeSecrets.lookup(other.secret)).toBe(other.id);
  });

  it('lets a deleted node’s secret be used again', async () => {
    expect((await api().send('DELETE', `/api/admin/nodes/${other.id}`)).statusCode).toBe(204);
    expect((await patch({ secret: other.secret })).statusCode).toBe(204);
    expect(t.deps.nodeSecrets.lookup(other.secret)).toBe(node.id);
  });
});
