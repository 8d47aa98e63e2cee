import { readFileSync } from 'node:fs';

/** Dash's own version, from package.json (one source for the CLI and /api/version/). */
export const DASH_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0-dev';
  } catch {
    return '0.0.0-dev';
  }
})();
