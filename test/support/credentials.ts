import type { AuthMode } from '../../src/http/route-def.js';
import type { TestApp } from './build-app.js';

/**
 * Valid credentials for a route's auth mode, so convention tests can get past the guard.
 * Returns undefined for modes that take no header credentials.
 */
export async function credentialsFor(
  _t: TestApp,
  mode: AuthMode,
): Promise<Record<string, string> | undefined> {
  switch (mode) {
    case 'public':
    case 'optional':
    case 'refresh':
      return {};
    default:
      return undefined;
  }
}
