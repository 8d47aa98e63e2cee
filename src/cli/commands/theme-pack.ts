import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isAppError } from '../../errors/app-error.js';
import { packThemeDir } from '../../themes/pack.js';

export interface ThemePackOptions {
  output?: string;
}

/**
 * `dash theme pack DIR`: checks a theme folder with the server's package rules and writes
 * `<id>-<version>.zip` (or --output) ready for the admin upload. Exit code 1 on a rule broken.
 */
export async function themePackCommand(dir: string, opts: ThemePackOptions): Promise<void> {
  let result;
  try {
    result = await packThemeDir(resolve(dir));
  } catch (err) {
    if (isAppError(err) || (err as NodeJS.ErrnoException).code === 'ENOENT') {
      process.stderr.write(`dash theme pack: ${(err as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
  const { manifest } = result.theme;
  const safeVersion = manifest.version.replace(/[^A-Za-z0-9._-]/g, '_');
  const out = resolve(opts.output ?? `${manifest.id}-${safeVersion}.zip`);
  await writeFile(out, result.zip);
  for (const name of result.skipped) {
    process.stderr.write(`dash theme pack: skipped ${name} (not part of a theme package)\n`);
  }
  process.stdout.write(`${out} (${result.zip.length} bytes, theme "${manifest.id}")\n`);
}
