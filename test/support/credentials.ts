import type { AuthMode } from '../../src/http/route-def.js';
import type { TestApp } from './build-app.js';
import { seedNode } from './seed-nodes.js';

export const TEST_ADMIN_PASSWORD = 'test-admin-password';

/** Logs in with the test admin password (buildTestApp sets it) and returns Bearer headers. */
export async function adminHeaders(t: TestApp): Promise<Record<string, string>> {
  const issued = await t.deps.auth.login(TEST_ADMIN_PASSWORD, 'session');
  return { authorization: `Bearer ${issued.accessToken}` };
}

/**
 * Valid credentials for a route's auth mode, so convention tests can get past the guard.
 * Returns undefined for modes whose credentials a generic test cannot make.
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
    case 'admin':
      return adminHeaders(t);
    case 'node':
      return { 'x-node-secret': seedNode(t.deps).secret };
    default:
      return undefined;
  }
}
