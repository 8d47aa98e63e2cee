import type { AuthMode } from '../../src/http/route-def.js';
import type { TestApp } from './build-app.js';
import { seedNode } from './seed-nodes.js';

export const TEST_ADMIN_PASSWORD = 'test-admin-password';

/**
 * scrypt cost of test apps' admin password hashes: the same code path as PASSWORD_COST at 1/32
 * of its work. Each test app hashes the password once and most log in (verify) at least once;
 * at the production cost that was a large share of the suite's CPU time.
 */
export const TEST_PASSWORD_COST = { N: 1 << 10, r: 8, p: 1 } as const;

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
      return { 'x-node-secret': (await seedNode(t)).secret };
    default:
      return undefined;
  }
}

/**
 * Credentials for sweeps over the route table, made once and reused: logging in per route
 * (scrypt) is what made such sweeps time out on a loaded machine. A swept route that ends
 * sessions or deletes nodes is reported with `after`, and the next request gets fresh ones.
 */
export function sharedCredentials(t: TestApp) {
  let admin: Promise<Record<string, string>> | undefined;
  let node: Record<string, string> | undefined;
  return {
    async for(mode: AuthMode): Promise<Record<string, string> | undefined> {
      if (mode === 'admin') return (admin ??= adminHeaders(t));
      if (mode === 'node') return (node ??= { 'x-node-secret': (await seedNode(t)).secret });
      return credentialsFor(t, mode);
    },
    after(method: string, url: string): void {
      if (method !== 'DELETE') return;
      if (url.startsWith('/api/auth/sessions')) admin = undefined;
      if (url.startsWith('/api/admin/nodes/')) node = undefined;
    },
  };
}
