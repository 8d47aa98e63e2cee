import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { createDeps, type AppDeps } from '../../../src/deps.js';
import {
  DATA_KEY_FINGERPRINT_SETTING,
  DataKeyMismatchError,
} from '../../../src/domain/cluster/shared-data-key.js';
import { openEngineKit } from '../../../src/kits/open.js';
import { silentLogger } from '../../../src/platform/logger.js';
import { tempHome } from '../../support/build-app.js';
import { freshSchema } from '../../support/postgres.js';
import { POSTGRES_AVAILABLE } from '../engines.js';

/** createDeps as `dash serve` runs it; closes the engine itself when start fails. */
async function start(url: string, home: string): Promise<AppDeps> {
  const config = loadConfig({ DASH_HOME: home, DASH_DATABASE_URL: url, DASH_TIMEZONE: 'UTC' });
  const kit = await openEngineKit(config.database, Date.now());
  try {
    return await createDeps(config, { log: silentLogger, kit });
  } catch (err) {
    await kit.store.close();
    throw err;
  }
}

const keyFile = (home: string) => join(home, 'secrets', 'data.key');

describe.skipIf(!POSTGRES_AVAILABLE)('instances on one PostgreSQL share data.key', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  const running: AppDeps[] = [];
  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => {
    for (const d of running) await d.shutdown();
    await schema.drop();
  });

  const storedFingerprint = async (): Promise<string | undefined> => {
    const c = new pg.Client({ connectionString: schema.url });
    await c.connect();
    try {
      const r = await c.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [
        DATA_KEY_FINGERPRINT_SETTING,
      ]);
      return r.rows[0]?.value;
    } finally {
      await c.end();
    }
  };

  it('stores a fingerprint at first start, never the key, and refuses an instance with another key', async () => {
    const first = tempHome();
    running.push(await start(schema.url, first));
    const stored = await storedFingerprint();
    expect(stored).toMatch(/^"v1:[A-Za-z0-9_-]{43}"$/);
    const key = readFileSync(keyFile(first), 'utf8').trim();
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(Buffer.from(key, 'base64').toString('hex'));

    // A second instance that generated a key of its own is refused, and told what to do.
    const other = tempHome();
    const refused = await start(schema.url, other).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(DataKeyMismatchError);
    const message = (refused as Error).message;
    expect(message).toContain(keyFile(other));
    expect(message).toContain(
      'Copy secrets/data.key from an instance already serving this database',
    );
    expect(await storedFingerprint()).toBe(stored);

    // With the first instance's key copied in, it starts; so does the first one again.
    copyFileSync(keyFile(first), keyFile(other));
    running.push(await start(schema.url, other));
    running.push(await start(schema.url, first));
    expect(await storedFingerprint()).toBe(stored);
  });

  it('lets only one of two instances starting at once with different keys win', async () => {
    const fresh = await freshSchema();
    try {
      const homes = [tempHome(), tempHome()];
      for (const h of homes) mkdirSync(join(h, 'secrets'), { recursive: true });
      const results = await Promise.allSettled(homes.map((h) => start(fresh.url, h)));
      const ok = results.filter((r) => r.status === 'fulfilled');
      const failed = results.filter((r) => r.status === 'rejected');
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect((failed[0] as PromiseRejectedResult).reason).toBeInstanceOf(DataKeyMismatchError);
      for (const r of ok) await r.value.shutdown();
    } finally {
      await fresh.drop();
    }
  });
});
