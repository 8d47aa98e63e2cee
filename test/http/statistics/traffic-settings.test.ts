import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-app.js';
import { adminHeaders } from '../../support/credentials.js';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
});
afterAll(async () => t.close());

const URL = '/api/statistics/traffic/settings';
const patch = (payload: unknown, headers = admin) =>
  t.app.inject({
    method: 'PATCH',
    url: URL,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

describe('traffic settings', () => {
  it('GET answers defaults to anyone, with the per-node cycle compatibility fields', async () => {
    const res = await t.app.inject({ method: 'GET', url: URL });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      guest_access_mode: 'disabled',
      usage_mode: 'lite',
      cycle_mode: 'calendar_month',
      billing_start_day: 1,
      billing_anchor_date: '',
      billing_timezone: 'UTC',
      direction_mode: 'out',
    });
  });

  it('PATCH changes the sent fields (204) and the access endpoint follows', async () => {
    expect((await patch({ guest_access_mode: 'by_node', direction_mode: 'max' })).statusCode).toBe(
      204,
    );
    expect((await t.app.inject({ method: 'GET', url: URL })).json()).toMatchObject({
      guest_access_mode: 'by_node',
      usage_mode: 'lite',
      direction_mode: 'max',
    });
    const access = await t.app.inject({ method: 'GET', url: '/api/statistics/access' });
    expect(access.json()).toMatchObject({ traffic_guest_access_mode: 'by_node' });
  });

  it('PATCH needs an admin token', async () => {
    expect((await patch({ usage_mode: 'billing' }, {})).statusCode).toBe(401);
  });

  it.each([
    [{}, 'no_fields'],
    [{ unknown: 1 }, 'no_fields'],
    [{ billing_start_day: 5 }, 'billing_cycle_is_per_node'],
    [{ cycle_mode: 'calendar_month', usage_mode: 'billing' }, 'billing_cycle_is_per_node'],
    [{ usage_mode: 'pro' }, 'invalid_fields'],
    [{ direction_mode: '' }, 'invalid_fields'],
    [{ guest_access_mode: 1 }, 'invalid_fields'],
  ])('PATCH %o answers 400 %s and changes nothing', async (body: object, code: string) => {
    const before = (await t.app.inject({ method: 'GET', url: URL })).json<unknown>();
    const res = await patch(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code });
    expect((await t.app.inject({ method: 'GET', url: URL })).json()).toEqual(before);
  });
});
