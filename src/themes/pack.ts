import { lstat, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import yazl from 'yazl';
import { BUILTIN_THEME_IDS } from '../domain/themes/builtin.js';
import { ALLOWED_FILES, THEME_LIMITS } from '../domain/themes/limits.js';
import { invalidPackage } from '../domain/themes/package-error.js';
import { validateThemeFiles, type ValidTheme } from './theme-package.js';
import { readThemeZip } from './zip-reader.js';

export interface PackResult {
  theme: ValidTheme;
  zip: Buffer;
  /** Files of the folder left out of the package (not part of the format). */
  skipped: string[];
}

function zipFiles(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name, { mode: 0o100644 });
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
 * Builds an upload-ready zip from a theme folder: the package files only, checked by the same
 * rules the server applies, and the finished zip read back through the upload's own reader.
 */
export async function packThemeDir(dir: string): Promise<PackResult> {
  const files = new Map<string, Buffer>();
  const skipped: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const st = await lstat(join(dir, name));
    if (!ALLOWED_FILES.has(name)) {
      skipped.push(name);
      continue;
    }
    if (!st.isFile()) throw invalidPackage(`${name} is not a regular file`);
    if (st.size > THEME_LIMITS.fileBytes) throw invalidPackage(`${name} is larger than 20 MiB`);
    files.set(name, await readFile(join(dir, name)));
  }
  const theme = validateThemeFiles(files, BUILTIN_THEME_IDS);
  const zip = await zipFiles(files);
  if (zip.length > THEME_LIMITS.zipBytes) throw invalidPackage('the zip is larger than 20 MiB');
  validateThemeFiles(await readThemeZip(zip), BUILTIN_THEME_IDS);
  return { theme, zip, skipped };
}
