import type { AuthMode } from '../../src/http/route-def.js';
import type { TestApp } from './build-app.js';
import { seedNode } from './seed-nodes.js';

/**
 * Valid credentials for a route's auth mode, so convention tests can get past the guard.
 * Returns undefined for modes that take no header credentials.
 */
export async function credentialsFor(
  t: TestApp,
  mode: AuthMode,
): Promise<Record<string, string> | undefined> {
  switch (mode) {
    case 'public':
    case 'optional':
    case 'refresh':
      return {};
    case 'node':
      return { 'x-node-secret': seedNode(t.deps).secret };
    default:
      return undefined;
  }
}
