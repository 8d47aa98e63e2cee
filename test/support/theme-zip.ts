import { PNG } from 'pngjs';
import yazl from 'yazl';

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** Unix mode, e.g. 0o120777 for a symlink. */
  mode?: number;
  compress?: boolean;
}

/** A PNG of the given size filled with one colour. */
export function makePng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(0x80);
  return PNG.sync.write(png);
}

export function themeManifest(id: string, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id,
    name: `Theme ${id}`,
    version: '1.0.0',
    author: 'Tests',
    description: 'a test theme',
    skin: {
      admin: { shell: 'topbar', frame: 'flat' },
      dashboard: { summary: 'cards', density: 'comfortable' },
    },
    ...overrides,
  });
}

/** The files of a valid theme that sets the page background (light and dark). */
export function validThemeEntries(id = 'ocean', bg = '#123456'): ZipEntry[] {
  return [
    { name: 'theme.json', data: themeManifest(id) },
    {
      name: 'tokens.css',
      data: `:root { --dash-bg: ${bg}; --dash-accent: #ff6600; }\n:root.dark { --dash-bg: #010203; }\n`,
    },
    { name: 'recipes.css', data: `:root[data-theme='${id}'] { --dash-surface: #fafafa; }` },
    { name: 'preview.png', data: makePng(8, 4) },
    { name: 'README.md', data: '# Ocean\n' },
  ];
}

export function buildZip(entries: readonly ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    zip.addBuffer(data, e.name, {
      ...(e.mode !== undefined ? { mode: e.mode } : {}),
      compress: e.compress ?? true,
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

/**
 * Rewrites every occurrence of an entry name (local header and central directory) with a name
 * of the same length: how the tests make entries yazl itself refuses to write (`../x`, `/x`).
 */
export function renameEntries(zip: Buffer, from: string, to: string): Buffer {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('lengths differ');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  let at = out.indexOf(needle);
  while (at !== -1) {
    Buffer.from(to).copy(out, at);
    at = out.indexOf(needle, at + needle.length);
  }
  return out;
}

/** A multipart/form-data body with one file part (the browser's FormData shape). */
export function multipartBody(
  file: Buffer,
  field = 'file',
  filename = 'theme.zip',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----dashtest7c1f';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
