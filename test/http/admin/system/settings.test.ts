import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { itSqliteOnly } from '../../../support/sqlite-only.js';
import { adminHeaders } from '../../../support/credentials.js';
import { DEFAULT_SETTINGS } from '../../../../src/domain/settings/system-settings.js';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await adminHeaders(t);
});
afterAll(async () => t.close());

const URLS = ['/api/admin/system/settings/', '/api/admin/system/settings'];
const get = async () =>
  (await t.app.inject({ method: 'GET', url: URLS[0], headers: admin })).json<
    Record<string, unknown>
  >();
const send = (method: 'PUT' | 'PATCH', payload: unknown, url = URLS[0]) =>
  t.app.inject({
    method,
    url,
    headers: { ...admin, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
const FULL = {
  history_guest_access_mode: 'by_node',
  dash_update_channel: 'prerelease',
  dash_update_mode: 'notify',
  logo_url: '/logo.png',
  page_title: 'My Fleet',
  topbar_text: 'Ops',
};

describe('system settings', () => {
  beforeEach(async () => {
    await send('PUT', { ...FULL, ...DEFAULT_SETTINGS });
  });

  it.each(URLS)('GET %s returns every field with defaults', async (url) => {
    const res = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_SETTINGS);
  });

  it('requires an admin token', async () => {
    for (const url of URLS) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('PATCH updates only the sent fields, on both paths', async () => {
    expect((await send('PATCH', { page_title: '  Fleet  ' }, URLS[1])).statusCode).toBe(204);
    expect(
      (await send('PATCH', { uptime_warning_sla: 99.95, uptime_error_sla: 98.5 })).statusCode,
    ).toBe(204);
    const s = await get();
    expect(s.page_title).toBe('Fleet');
    expect(s.uptime_warning_sla).toBe(99.95);
    expect(s.uptime_error_sla).toBe(98.5);
    expect(s.topbar_text).toBe(DEFAULT_SETTINGS.topbar_text);
  });

  it('PATCH without a recognised field is 400 no_fields', async () => {
    const res = await send('PATCH', { unknown: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'no_fields' });
  });

  it('PUT requires the first six fields', async () => {
    for (const field of Object.keys(FULL)) {
      const body: Record<string, unknown> = { ...FULL };
      delete body[field];
      const res = await send('PUT', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_fields' });
    }
    expect((await send('PUT', FULL)).statusCode).toBe(204);
    expect(await get()).toMatchObject(FULL);
  });

  it('omitted or null uptime fields keep their value in PUT and PATCH', async () => {
    await send('PATCH', {
      uptime_guest_visible: false,
      uptime_warning_sla: 98,
      uptime_error_sla: 90,
    });
    await send('PUT', { ...FULL, uptime_warning_sla: null });
    await send('PATCH', { uptime_error_sla: null, page_title: 'x' });
    expect(await get()).toMatchObject({
      uptime_guest_visible: false,
      uptime_warning_sla: 98,
      uptime_error_sla: 90,
    });
  });

  it.each([
    [{ uptime_error_sla: 99 }, 'error equal to warning'],
    [{ uptime_error_sla: 99.5 }, 'error above warning'],
    [{ uptime_warning_sla: 100.01 }, 'warning above 100'],
    [{ uptime_error_sla: -1 }, 'negative'],
    [{ uptime_warning_sla: '99' }, 'a string'],
    [
      { uptime_warning_sla: 94, page_title: 'changed' },
      'warning below stored error, with another field',
    ],
    [{ history_guest_access_mode: 'everyone' }, 'an unknown guest mode'],
    [{ dash_update_channel: 'nightly' }, 'an unknown channel'],
    [{ dash_update_mode: 'sometimes' }, 'an unknown update mode'],
    [{ page_title: 'x'.repeat(121) }, 'a long title'],
    [{ topbar_text: 'y'.repeat(65) }, 'a long top bar'],
    [{ page_title: 'bad\u0007title' }, 'a control character'],
    [{ uptime_guest_visible: 'yes' }, 'a non-boolean visibility'],
    [{ logo_url: 'http://insecure.example/logo.png' }, 'an http logo'],
    [{ logo_url: '//evil.example/logo.png' }, 'a protocol-relative logo'],
    [{ logo_url: '/a\\b.png' }, 'a backslash path'],
    [{ logo_url: 'data:text/html;base64,PGI+' }, 'a non-image data URL'],
    [{ logo_url: 'data:image/png;base64,@@@' }, 'invalid base64'],
    [{ logo_url: 'https://user:pw@example.com/l.png' }, 'user info'],
    [{ logo_url: 'javascript:alert(1)' }, 'a script URL'],
  ])(
    'rejects %o (%s) with 400 invalid_fields and changes nothing',
    async (patch: object, _why: string) => {
      const before = await get();
      const res = await send('PATCH', patch);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_fields' });
      expect(await get()).toEqual(before);
    },
  );

  it.each([
    '/custom/logo.svg',
    'https://cdn.example.com/logo.png',
    'data:image/png;base64,iVBORw0KGgo=',
    'data:image/svg+xml;base64,PHN2Zy8+',
  ])('accepts logo %s', async (logo) => {
    expect((await send('PATCH', { logo_url: logo })).statusCode).toBe(204);
    expect((await get()).logo_url).toBe(logo);
  });

  it('resets blank brand fields to their defaults', async () => {
    await send('PATCH', { page_title: 'X', topbar_text: 'Y', logo_url: '/x.svg' });
    await send('PATCH', { page_title: '  ', topbar_text: '', logo_url: ' ' });
    expect(await get()).toMatchObject({
      page_title: DEFAULT_SETTINGS.page_title,
      topbar_text: DEFAULT_SETTINGS.topbar_text,
      logo_url: DEFAULT_SETTINGS.logo_url,
    });
  });

  it('keeps a stored legacy http logo readable and does not revalidate it on other patches', async () => {
    await t.deps.store.settings.setMany(
      [['system.logo_url', JSON.stringify('http://legacy.example/l.png')]],
      0,
    );
    const fresh = await buildTestApp();
    await fresh.deps.store.settings.setMany(
      [['system.logo_url', JSON.stringify('http://legacy.example/l.png')]],
      0,
    );
    const h = await adminHeaders(fresh);
    const res = await fresh.app.inject({
      method: 'PATCH',
      url: URLS[0],
      headers: { ...h, 'content-type': 'application/json' },
      payload: JSON.stringify({ page_title: 'Other' }),
    });
    expect(res.statusCode).toBe(204);
    const brand = await fresh.app.inject({ method: 'GET', url: '/api/front/brand' });
    expect(brand.json()).toMatchObject({
      logo_url: 'http://legacy.example/l.png',
      page_title: 'Other',
    });
    await fresh.close();
  });

  it('rejects a non-object body with 400', async () => {
    const res = await send('PATCH', [1]);
    expect(res.statusCode).toBe(400);
  });
});

describe('public reads of settings', () => {
  it('GET /api/front/brand shows brand changes at once, to guests', async () => {
    await send('PATCH', { page_title: 'Brand Now', topbar_text: 'Top', logo_url: '/b.svg' });
    const res = await t.app.inject({ method: 'GET', url: '/api/front/brand' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      logo_url: '/b.svg',
      page_title: 'Brand Now',
      topbar_text: 'Top',
      local_agent: false,
    });
  });

  it('GET /api/front/brand tells whether this Dash runs an agent for its own host', async () => {
    const local = await buildTestApp({ DASH_LOCAL_AGENT: 'true' });
    try {
      const res = await local.app.inject({ method: 'GET', url: '/api/front/brand' });
      expect(res.statusCode).toBe(200);
      expect(res.json<{ local_agent: boolean }>().local_agent).toBe(true);
    } finally {
      await local.close();
    }
  });

  it('GET /api/statistics/access reports guest access modes', async () => {
    await send('PATCH', { history_guest_access_mode: 'by_node' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/statistics/access',
      headers: { authorization: 'Bearer junk' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      history_guest_access_mode: 'by_node',
      traffic_guest_access_mode: 'disabled',
    });
  });
});

describe('storage failure', () => {
  async function patchBroken(breakIt: (broken: TestApp) => Promise<unknown>) {
    const broken = await buildTestApp();
    const h = await adminHeaders(broken);
    await breakIt(broken);
    const res = await broken.app.inject({
      method: 'PATCH',
      url: URLS[0],
      headers: { ...h, 'content-type': 'application/json' },
      payload: JSON.stringify({ page_title: 'x' }),
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'db_error' });
    await broken.app.close();
  }

  // Closes SQLite's own connection under the app; PostgreSQL's pool is the kit's.
  itSqliteOnly('answers 503 db_error, not 500, when the database is closed', () =>
    patchBroken(async (broken) => broken.raw.close()),
  );

  it('answers 503 db_error, not 500, when the database is missing its table', () =>
    patchBroken((broken) => broken.sql.exec('DROP TABLE settings')));
});
