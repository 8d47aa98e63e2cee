import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ThemeListItem } from '../../src/protocol/theme.js';
import type { TestApp } from './build-app.js';
import { multipartBody } from './theme-zip.js';

export const THEMES_BASE = '/api/admin/system/themes';

/** POST a zip to the upload endpoint as the browser's FormData would. */
export function uploadTheme(t: TestApp, auth: Record<string, string>, zip: Buffer, field = 'file') {
  const { payload, headers } = multipartBody(zip, field);
  return t.app.inject({
    method: 'POST',
    url: `${THEMES_BASE}/upload`,
    headers: { ...auth, ...headers },
    payload,
  });
}

export async function listThemes(
  t: TestApp,
  auth: Record<string, string>,
): Promise<ThemeListItem[]> {
  const res = await t.app.inject({ method: 'GET', url: `${THEMES_BASE}/`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<ThemeListItem[]>();
}

/** Everything stored, staged or installed under $DASH_HOME/themes (files and folders). */
export function storedThemeFiles(t: TestApp): string[] {
  return ['installed', 'store', 'tmp'].flatMap((sub) => {
    try {
      return readdirSync(join(t.config.home, 'themes', sub), { recursive: true }).map((f) =>
        join(sub, String(f)),
      );
    } catch {
      return [];
    }
  });
}

/** Puts the theme state back to a fresh install's (default look, no uploaded themes). */
export async function resetThemes(t: TestApp): Promise<void> {
  await t.deps.themes.apply('default');
  for (const item of (await t.deps.themes.list()).items) {
    if (!item.built_in) await t.deps.themes.remove(item.id).catch(() => undefined);
  }
}
