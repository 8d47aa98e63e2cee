import { readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../support/build-app.js';
import { adminHeaders } from '../../../support/credentials.js';
import {
  buildZip,
  makePng,
  multipartBody,
  themeManifest,
  validThemeEntries,
} from '../../../support/theme-zip.js';
import type { ThemeListItem } from '../../../../src/protocol/theme.js';
import {
  THEMES_BASE,
  listThemes,
  resetThemes,
  storedThemeFiles,
  uploadTheme,
} from '../../../support/themes-app.js';

let t: TestApp;
let auth: Record<string, string>;

// One app for the file: each test leaves the theme state as a fresh install had it.
beforeAll(async () => {
  t = await buildTestApp();
  auth = await adminHeaders(t);
});
afterAll(async () => t.close());
afterEach(async () => resetThemes(t));

const BASE = THEMES_BASE;
const upload = (zip: Buffer, field = 'file') => uploadTheme(t, auth, zip, field);
const list = () => listThemes(t, auth);
const themeFiles = () => storedThemeFiles(t);

describe('GET /api/admin/system/themes/', () => {
  it('lists the built-in theme on a fresh install, with and without the slash', async () => {
    for (const url of [`${BASE}/`, BASE]) {
      const res = await t.app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const items = res.json<ThemeListItem[]>();
      expect(items).toEqual([
        expect.objectContaining({
          id: 'operator',
          built_in: true,
          active: false,
          deletable: false,
          format_version: 1,
          created_at: null,
          updated_at: null,
          skin: {
            admin: { shell: 'topbar', frame: 'flat' },
            dashboard: { summary: 'strip', density: 'compact' },
          },
        }),
      ]);
    }
  });

  it('requires an admin', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/` });
    expect(res.statusCode).toBe(401);
  });
});

describe('upload, apply, delete', () => {
  it('stores a valid theme (201 + list item), lists it after the built-ins, sorted by name', async () => {
    t.clock.set(Date.UTC(2026, 0, 2, 3, 4, 5));
    const res = await upload(await buildZip(validThemeEntries('ocean')));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      id: 'ocean',
      name: 'Theme ocean',
      version: '1.0.0',
      built_in: false,
      active: false,
      deletable: true,
      has_preview: true,
      missing: false,
      broken: false,
      created_at: '2026-01-02T03:04:05Z',
      updated_at: '2026-01-02T03:04:05Z',
    });
    const other = validThemeEntries('aardvark');
    other[0] = { name: 'theme.json', data: themeManifest('aardvark', { name: 'Zebra' }) };
    expect((await upload(await buildZip(other))).statusCode).toBe(201);
    expect((await list()).map((i) => i.id)).toEqual(['operator', 'ocean', 'aardvark']);
  });

  it('applies a theme: active.css serves its canonical CSS, active.json its manifest', async () => {
    await upload(await buildZip(validThemeEntries('ocean', '#abcdef')));
    const res = await t.app.inject({ method: 'POST', url: `${BASE}/ocean/apply`, headers: auth });
    expect(res.statusCode).toBe(204);
    const css = await t.app.inject({ method: 'GET', url: '/theme/active.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('no-store');
    expect(css.body).toBe(
      ':root{--dash-bg:#abcdef;--dash-accent:#ff6600;--dash-surface:#fafafa}\n' +
        ':root.dark{--dash-bg:#010203}\n',
    );
    const manifest = await t.app.inject({ method: 'GET', url: '/theme/active.json' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-store');
    expect(manifest.json()).toMatchObject({ id: 'ocean', skin: { admin: { shell: 'topbar' } } });
    const items = await list();
    expect(items.find((i) => i.id === 'ocean')).toMatchObject({ active: true, deletable: false });
  });

  it('replaces a same-id theme in place (created_at kept) and the active CSS follows', async () => {
    t.clock.set(Date.UTC(2026, 0, 1));
    await upload(await buildZip(validThemeEntries('ocean', '#111111')));
    await t.app.inject({ method: 'POST', url: `${BASE}/ocean/apply`, headers: auth });
    t.clock.set(Date.UTC(2026, 0, 5));
    const res = await upload(await buildZip(validThemeEntries('ocean', '#222222')));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      active: true,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-05T00:00:00Z',
    });
    const css = await t.app.inject({ method: 'GET', url: '/theme/active.css' });
    expect(css.body).toContain('--dash-bg:#222222');
    // One stored version only: the old one is gone after the swap.
    expect(readdirSync(join(t.config.home, 'themes', 'store'))).toHaveLength(1);
  });

  it('applies default and the built-in: empty CSS; active.json 404 for default only', async () => {
    await upload(await buildZip(validThemeEntries('ocean')));
    await t.app.inject({ method: 'POST', url: `${BASE}/ocean/apply`, headers: auth });
    for (const id of ['operator', 'default']) {
      const res = await t.app.inject({ method: 'POST', url: `${BASE}/${id}/apply`, headers: auth });
      expect(res.statusCode).toBe(204);
      const css = await t.app.inject({ method: 'GET', url: '/theme/active.css' });
      expect(css.statusCode).toBe(200);
      expect(css.body).toBe('');
      const json = await t.app.inject({ method: 'GET', url: '/theme/active.json' });
      expect(json.statusCode).toBe(id === 'default' ? 404 : 200);
    }
  });

  it('answers apply errors: invalid_theme_id 400, not_found 404', async () => {
    const bad = await t.app.inject({ method: 'POST', url: `${BASE}/Bad!/apply`, headers: auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'invalid_theme_id' });
    const missing = await t.app.inject({
      method: 'POST',
      url: `${BASE}/nope/apply`,
      headers: auth,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'not_found' });
  });

  it('deletes an inactive theme; refuses built-in, active, unknown and malformed ids', async () => {
    await upload(await buildZip(validThemeEntries('ocean')));
    await upload(await buildZip(validThemeEntries('sunset')));
    await t.app.inject({ method: 'POST', url: `${BASE}/sunset/apply`, headers: auth });
    const cases: Array<[string, number, string]> = [
      ['operator', 409, 'builtin_theme_not_deletable'],
      ['default', 409, 'builtin_theme_not_deletable'],
      ['sunset', 409, 'active_theme_not_deletable'],
      ['nope', 404, 'not_found'],
      ['-bad', 400, 'invalid_theme_id'],
      ['UPPER', 400, 'invalid_theme_id'],
    ];
    for (const [id, status, code] of cases) {
      const res = await t.app.inject({ method: 'DELETE', url: `${BASE}/${id}`, headers: auth });
      expect(res.statusCode, id).toBe(status);
      expect(res.json()).toMatchObject({ code });
    }
    const del = await t.app.inject({ method: 'DELETE', url: `${BASE}/ocean`, headers: auth });
    expect(del.statusCode).toBe(204);
    expect((await list()).map((i) => i.id)).toEqual(['operator', 'sunset']);
    expect(themeFiles().some((f) => f.includes('ocean'))).toBe(false);
  });

  it('serves previews as PNG and 404s a theme without one', async () => {
    await upload(await buildZip(validThemeEntries('ocean')));
    const res = await t.app.inject({ method: 'GET', url: '/theme/preview/ocean.png' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(makePng(8, 4))).toBe(true);
    const again = await t.app.inject({
      method: 'GET',
      url: '/theme/preview/ocean.png',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const noPreview = validThemeEntries('plain').filter((e) => e.name !== 'preview.png');
    await upload(await buildZip(noPreview));
    for (const url of [
      '/theme/preview/plain.png',
      '/theme/preview/nope.png',
      '/theme/preview/..%2Focean.png',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('lists a missing active theme with X-Dash-Warning and serves empty CSS', async () => {
    await upload(await buildZip(validThemeEntries('ocean')));
    await t.app.inject({ method: 'POST', url: `${BASE}/ocean/apply`, headers: auth });
    rmSync(join(t.config.home, 'themes', 'installed', 'ocean'));
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/`, headers: auth });
    expect(res.headers['x-dash-warning']).toBe('theme_active_missing');
    expect(res.json<ThemeListItem[]>().find((i) => i.id === 'ocean')).toMatchObject({
      missing: true,
      active: true,
    });
    const css = await t.app.inject({ method: 'GET', url: '/theme/active.css' });
    expect(css.statusCode).toBe(200);
    expect(css.body).toBe('');
  });

  it('lists a broken active theme with X-Dash-Warning and refuses to apply it (503)', async () => {
    await upload(await buildZip(validThemeEntries('ocean')));
    await t.app.inject({ method: 'POST', url: `${BASE}/ocean/apply`, headers: auth });
    const dir = realpathSync(join(t.config.home, 'themes', 'installed', 'ocean'));
    writeFileSync(join(dir, 'tokens.css'), 'body { color: red }');
    // A restarted Dash reads the files afresh.
    const res2 = await t.app.inject({ method: 'GET', url: `${BASE}/`, headers: auth });
    expect(res2.statusCode).toBe(200);
    const { ThemesService } = await import('../../../../src/themes/themes-service.js');
    const { ThemeStore } = await import('../../../../src/themes/theme-store.js');
    const fresh = new ThemesService(new ThemeStore(join(t.config.home, 'themes')), t.clock);
    const listed = await fresh.list();
    expect(listed.warning).toBe('theme_active_broken');
    expect(listed.items.find((i) => i.id === 'ocean')).toMatchObject({ broken: true });
    expect((await fresh.current()).css).toBe('');
    await fresh.apply('default');
    await expect(fresh.apply('ocean')).rejects.toMatchObject({ code: 'theme_unavailable' });
  });
});

describe('upload form errors', () => {
  it('refuses a non-multipart body with 415 and a form without "file" with invalid_theme_package', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: `${BASE}/upload`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ code: 'unsupported_media_type' });
    const wrongField = await upload(await buildZip(validThemeEntries()), 'other');
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json()).toMatchObject({ code: 'invalid_theme_package' });
    const empty = await t.app.inject({ method: 'POST', url: `${BASE}/upload`, headers: auth });
    expect(empty.statusCode).toBe(400);
    expect(themeFiles()).toEqual([]);
  });

  it('refuses a zip over 20 MiB with 413 body_too_large', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1);
    const res = await upload(big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'body_too_large' });
    expect(themeFiles()).toEqual([]);
  });

  it('refuses a request announcing more than 21 MiB before reading it', async () => {
    const { payload, headers } = multipartBody(Buffer.from('x'));
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/upload`,
      headers: { ...auth, ...headers, 'content-length': String(22 * 1024 * 1024) },
      payload,
    });
    expect(res.statusCode).toBe(413);
  });

  it('refuses a chunked upload without Content-Length (its size could not be bounded)', async () => {
    const { Readable } = await import('node:stream');
    const { payload, headers } = multipartBody(await buildZip(validThemeEntries()));
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/upload`,
      headers: { ...auth, ...headers, 'transfer-encoding': 'chunked' },
      payload: Readable.from([payload]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/Content-Length/) as string,
    });
    expect(themeFiles()).toEqual([]);
  });
});
