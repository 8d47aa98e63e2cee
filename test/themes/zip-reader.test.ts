import { describe, expect, it } from 'vitest';
import { THEME_LIMITS } from '../../src/domain/themes/limits.js';
import { parseManifest } from '../../src/domain/themes/manifest.js';
import { readThemeZip } from '../../src/themes/zip-reader.js';
import { buildZip, themeManifest, validThemeEntries } from '../support/theme-zip.js';

describe('readThemeZip', () => {
  it('extracts a valid package entry by entry', async () => {
    const files = await readThemeZip(await buildZip(validThemeEntries()));
    expect([...files.keys()].sort()).toEqual(
      ['README.md', 'preview.png', 'recipes.css', 'theme.json', 'tokens.css'].sort(),
    );
  });

  it('refuses files that together pass the total limit', async () => {
    const entries = validThemeEntries().map((e) =>
      e.name === 'README.md' ? { ...e, data: 'r'.repeat(600), compress: false } : e,
    );
    const zip = await buildZip(entries);
    const limits = { ...THEME_LIMITS, totalBytes: 500 };
    await expect(readThemeZip(zip, limits)).rejects.toMatchObject({
      code: 'invalid_theme_package',
      message: expect.stringMatching(/total limit/) as string,
    });
  });

  it('refuses a zip larger than the upload limit without opening it', async () => {
    const zip = await buildZip(validThemeEntries());
    await expect(readThemeZip(zip, { ...THEME_LIMITS, zipBytes: 100 })).rejects.toMatchObject({
      message: expect.stringMatching(/larger than 20 MiB/) as string,
    });
  });
});

describe('parseManifest', () => {
  const parse = (json: string) => parseManifest(Buffer.from(json), ['operator']);

  it('fills optional author and description with empty strings', () => {
    const raw = JSON.parse(themeManifest('ocean')) as Record<string, unknown>;
    delete raw.author;
    delete raw.description;
    expect(parse(JSON.stringify(raw))).toMatchObject({ author: '', description: '' });
  });

  it.each([
    ['default id', themeManifest('default'), /reserved/],
    ['control characters', themeManifest('ocean', { name: 'a\u0007b' }), /control/],
    ['long name', themeManifest('ocean', { name: 'n'.repeat(129) }), /longer than 128/],
    ['long version', themeManifest('ocean', { version: 'v'.repeat(65) }), /longer than 64/],
    ['blank name', themeManifest('ocean', { name: '  ' }), /required/],
    ['array', '[]', /object/],
    ['unknown skin field', themeManifest('ocean', { skin: { admin: {}, x: 1 } }), /unknown field/],
  ])('refuses %s', (_label, json, reason) => {
    expect(() => parse(json)).toThrow(
      expect.objectContaining({ message: expect.stringMatching(reason) as string }),
    );
  });
});
