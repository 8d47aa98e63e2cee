import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import { client, CPU_RULE, resetAlerts } from './support.js';

let t: TestApp;
let send: ReturnType<typeof client>;
beforeAll(async () => {
  t = await buildTestApp();
  send = client(t, await adminHeaders(t));
});
beforeEach(() => resetAlerts(t));
afterAll(async () => t.close());

const rules = async () =>
  (await send('GET', '/api/admin/alerts/rules/')).json<Array<Record<string, unknown>>>();

describe('alert rules', () => {
  it('creates a rule with defaults and lists user rules newest first', async () => {
    expect(
      (
        await send('POST', '/api/admin/alerts/rules/', {
          name: ' one ',
          metric: 'mem.used',
          operator: '>=',
          threshold: 5,
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (
        await send('POST', '/api/admin/alerts/rules', {
          ...CPU_RULE,
          enabled: false,
          cooldown_min: 5,
        })
      ).statusCode,
    ).toBe(204);
    const list = await rules();
    expect(list.map((r) => r.id)).toEqual([2, 1]);
    expect(list[1]).toEqual({
      id: 1,
      name: 'one',
      enabled: true,
      metric: 'mem.used',
      operator: '>=',
      threshold: 5,
      duration_sec: 60,
      cooldown_min: 0,
      threshold_mode: 'static',
      threshold_offset: 0,
      clear_threshold: null,
      repeat_interval_min: 0,
      repeat_max: null,
      created_at: '2026-11-21T12:00:00Z',
      updated_at: '2026-11-21T12:00:00Z',
    });
    expect(list[0]).toMatchObject({ enabled: false, cooldown_min: 5, duration_sec: 0 });
    expect((await send('GET', '/api/admin/alerts/rules')).statusCode).toBe(200);
  });

  it.each([
    ['missing name', { ...CPU_RULE, name: undefined }],
    ['blank name', { ...CPU_RULE, name: '  ' }],
    ['long name', { ...CPU_RULE, name: 'x'.repeat(129) }],
    ['control char', { ...CPU_RULE, name: 'a\u0007' }],
    ['unknown metric', { ...CPU_RULE, metric: 'cpu.psi' }],
    ['missing metric', { ...CPU_RULE, metric: undefined }],
    ['bad operator', { ...CPU_RULE, operator: '=>' }],
    ['string threshold', { ...CPU_RULE, threshold: '1' }],
    ['missing threshold', { ...CPU_RULE, threshold: undefined }],
    ['duration 30', { ...CPU_RULE, duration_sec: 30 }],
    ['negative cooldown', { ...CPU_RULE, cooldown_min: -1 }],
    ['huge cooldown', { ...CPU_RULE, cooldown_min: 525_601 }],
    ['fractional cooldown', { ...CPU_RULE, cooldown_min: 1.5 }],
    ['core_plus on cpu ratio', { ...CPU_RULE, threshold_mode: 'core_plus' }],
    ['offset with static', { ...CPU_RULE, threshold_offset: 1 }],
    ['bad mode', { ...CPU_RULE, threshold_mode: 'dynamic' }],
    ['non-boolean enabled', { ...CPU_RULE, enabled: 1 }],
    ['string clear threshold', { ...CPU_RULE, clear_threshold: '0.5' }],
    ['negative repeat interval', { ...CPU_RULE, repeat_interval_min: -1 }],
    ['huge repeat interval', { ...CPU_RULE, repeat_interval_min: 1441 }],
    ['fractional repeat max', { ...CPU_RULE, repeat_max: 0.5 }],
    ['huge repeat max', { ...CPU_RULE, repeat_max: 101 }],
  ])('rejects %s with 400 invalid_fields', async (_label, body) => {
    const res = await send('POST', '/api/admin/alerts/rules/', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_fields' });
    expect(await rules()).toEqual([]);
  });

  it('rejects a body that is not an object', async () => {
    expect((await send('POST', '/api/admin/alerts/rules/', [1])).json()).toMatchObject({
      code: 'invalid_fields',
    });
  });

  it('accepts core_plus on load metrics', async () => {
    const body = {
      ...CPU_RULE,
      metric: 'cpu.load1',
      threshold_mode: 'core_plus',
      threshold_offset: 0.5,
    };
    expect((await send('POST', '/api/admin/alerts/rules/', body)).statusCode).toBe(204);
  });

  it('patches a rule partially and validates the merged rule', async () => {
    await send('POST', '/api/admin/alerts/rules/', CPU_RULE);
    t.clock.advance(1000);
    expect(
      (await send('PATCH', '/api/admin/alerts/rules/1', { threshold: 0.9, name: 'renamed' }))
        .statusCode,
    ).toBe(204);
    expect((await rules())[0]).toMatchObject({
      name: 'renamed',
      threshold: 0.9,
      updated_at: '2026-11-21T12:00:01Z',
    });
    expect(
      (await send('PATCH', '/api/admin/alerts/rules/1', { threshold_mode: 'core_plus' })).json(),
    ).toMatchObject({ code: 'invalid_fields' });
    expect((await send('PATCH', '/api/admin/alerts/rules/1', { name: '' })).json()).toMatchObject({
      code: 'invalid_fields',
    });
    expect((await send('PATCH', '/api/admin/alerts/rules/1', { other: 1 })).json()).toMatchObject({
      code: 'no_fields',
    });
    expect((await send('PATCH', '/api/admin/alerts/rules/99', { threshold: 1 })).statusCode).toBe(
      404,
    );
    expect(
      (await send('PATCH', '/api/admin/alerts/rules/abc', { threshold: 1 })).json(),
    ).toMatchObject({ code: 'invalid_id' });
  });

  it('deletes a rule (404 afterwards)', async () => {
    await send('POST', '/api/admin/alerts/rules/', CPU_RULE);
    expect((await send('DELETE', '/api/admin/alerts/rules/1')).statusCode).toBe(204);
    expect(await rules()).toEqual([]);
    expect((await send('DELETE', '/api/admin/alerts/rules/1')).statusCode).toBe(404);
    expect((await send('DELETE', '/api/admin/alerts/rules/0')).json()).toMatchObject({
      code: 'invalid_id',
    });
  });

  it('refuses to edit or delete a built-in rule with 409; a retired id is unknown', async () => {
    const patch = await send('PATCH', '/api/admin/alerts/rules/-1', { threshold: 2 });
    expect(patch.statusCode).toBe(409);
    expect(patch.json()).toMatchObject({ code: 'builtin_rule_readonly' });
    expect((await send('DELETE', '/api/admin/alerts/rules/-3')).statusCode).toBe(409);
    expect((await send('DELETE', '/api/admin/alerts/rules/-5')).statusCode).toBe(404);
  });

  it('stores a clear threshold and repeat settings, and resets the clear threshold with null', async () => {
    const body = { ...CPU_RULE, clear_threshold: 0.6, repeat_interval_min: 30, repeat_max: 2 };
    expect((await send('POST', '/api/admin/alerts/rules/', body)).statusCode).toBe(204);
    expect((await rules())[0]).toMatchObject({
      threshold: 0.8,
      clear_threshold: 0.6,
      repeat_interval_min: 30,
      repeat_max: 2,
    });
    expect(
      (
        await send('PATCH', '/api/admin/alerts/rules/1', {
          clear_threshold: null,
          repeat_max: null,
        })
      ).statusCode,
    ).toBe(204);
    expect((await rules())[0]).toMatchObject({
      clear_threshold: null,
      repeat_interval_min: 30,
      repeat_max: null,
    });
  });

  it('a clear threshold edit is a condition change (new generation)', async () => {
    await send('POST', '/api/admin/alerts/rules/', CPU_RULE);
    await send('PATCH', '/api/admin/alerts/rules/1', { clear_threshold: 0.5 });
    expect(await t.sql.get('SELECT generation FROM alert_rules')).toEqual({
      generation: 2,
    });
  });

  it.each([
    ['above a ">" threshold', { ...CPU_RULE, clear_threshold: 0.9 }],
    ['above a ">=" threshold', { ...CPU_RULE, operator: '>=', clear_threshold: 0.81 }],
    ['below a "<" threshold', { ...CPU_RULE, operator: '<', clear_threshold: 0.7 }],
    ['below a "<=" threshold', { ...CPU_RULE, operator: '<=', clear_threshold: 0.7 }],
    ['different on "=="', { ...CPU_RULE, operator: '==', clear_threshold: 0.7 }],
    ['different on "!="', { ...CPU_RULE, operator: '!=', clear_threshold: 0.9 }],
  ])('rejects a clear threshold %s with 400 invalid_clear_threshold', async (_label, body) => {
    const res = await send('POST', '/api/admin/alerts/rules/', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_clear_threshold' });
    expect(await rules()).toEqual([]);
  });

  it('accepts a clear threshold equal to the threshold, and checks it against a patched one', async () => {
    const eq = { ...CPU_RULE, operator: '==', clear_threshold: 0.8 };
    expect((await send('POST', '/api/admin/alerts/rules/', eq)).statusCode).toBe(204);
    const body = { ...CPU_RULE, clear_threshold: 0.6 };
    expect((await send('POST', '/api/admin/alerts/rules/', body)).statusCode).toBe(204);
    // lowering the trigger threshold under the stored clear threshold is refused
    const res = await send('PATCH', '/api/admin/alerts/rules/2', { threshold: 0.5 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_clear_threshold' });
    const flip = await send('PATCH', '/api/admin/alerts/rules/2', { operator: '<' });
    expect(flip.json()).toMatchObject({ code: 'invalid_clear_threshold' });
    expect((await rules())[0]).toMatchObject({ threshold: 0.8, operator: '>' });
  });

  it('requires an admin token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/alerts/rules/' });
    expect(res.statusCode).toBe(401);
  });
});
