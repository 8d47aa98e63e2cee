import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createDeps } from '../../src/deps.js';
import { PASSWORD_COST, hashPassword, verifyPassword } from '../../src/platform/crypto.js';
import { silentLogger } from '../../src/platform/logger.js';
import { buildTestApp, tempHome } from '../support/build-app.js';
import { TEST_ADMIN_PASSWORD, TEST_PASSWORD_COST } from '../support/credentials.js';
import { FakeClock } from '../support/fake-clock.js';

const costOf = (hash: string) => hash.split('$').slice(1, 4).map(Number);

describe('password hashes', () => {
  it('are made at the production cost unless told otherwise, and record it', async () => {
    expect(PASSWORD_COST).toEqual({ N: 32768, r: 8, p: 1 });
    const hash = await hashPassword('correct horse');
    expect(costOf(hash)).toEqual([32768, 8, 1]);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
  });

  it('verify at the cost the hash records', async () => {
    const hash = await hashPassword('correct horse', TEST_PASSWORD_COST);
    expect(costOf(hash)).toEqual([1024, 8, 1]);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
  });

  it('of the admin password are at the production cost in a real Dash, the cheap one in test apps', async () => {
    const config = loadConfig({
      DASH_HOME: tempHome(),
      DASH_DATABASE_URL: 'sqlite::memory:',
      DASH_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    });
    const deps = await createDeps(config, { clock: new FakeClock(), log: silentLogger });
    try {
      await deps.adminPassword.ensure(config.adminPassword);
      const stored = JSON.parse(
        (await deps.store.settings.get('auth.admin_password_hash'))!,
      ) as string;
      expect(costOf(stored)).toEqual([32768, 8, 1]);
    } finally {
      await deps.shutdown();
    }

    const t = await buildTestApp({ DASH_DATABASE_URL: 'sqlite::memory:' });
    try {
      const stored = JSON.parse(
        (await t.deps.store.settings.get('auth.admin_password_hash'))!,
      ) as string;
      expect(costOf(stored)).toEqual([1024, 8, 1]);
      expect(await t.deps.adminPassword.verify(TEST_ADMIN_PASSWORD)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
