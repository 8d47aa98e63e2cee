import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createDeps } from '../../src/deps.js';
import { sqliteKit } from '../../src/kits/sqlite.js';
import { silentLogger } from '../../src/platform/logger.js';
import { openSqliteStore } from '../../src/store/sqlite/open.js';
import { tempHome } from '../support/build-app.js';
import { TEST_ADMIN_PASSWORD, TEST_PASSWORD_COST } from '../support/credentials.js';
import { FakeClock } from '../support/fake-clock.js';

describe('the start of dash serve', () => {
  it('starts the ingest threads before loading uptime and the front state', async () => {
    // Each ingest thread needs about a second before it takes reports: started first, that
    // second overlaps the HTTP thread's own loading (docs/ingest-performance.md, "Startup").
    const clock = new FakeClock();
    const config = loadConfig({
      DASH_HOME: tempHome(),
      DASH_DATABASE_URL: 'sqlite::memory:',
      DASH_TIMEZONE: 'UTC',
      DASH_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    });
    const kit = sqliteKit(openSqliteStore(':memory:', clock.now()), ':memory:');
    const order: string[] = [];
    const backend = kit.ingestBackend.bind(kit);
    kit.ingestBackend = (o) => {
      order.push('ingest threads');
      return backend(o);
    };
    const { uptime, front } = kit.store;
    const receipts = uptime.recentReceipts.bind(uptime);
    uptime.recentReceipts = (since) => {
      order.push('uptime');
      return receipts(since);
    };
    const currents = front.currentRows.bind(front);
    front.currentRows = (ids) => {
      order.push('front state');
      return currents(ids);
    };
    const deps = await createDeps(config, {
      clock,
      log: silentLogger,
      passwordCost: TEST_PASSWORD_COST,
      kit,
    });
    expect(order.slice(0, 3)).toEqual(['ingest threads', 'uptime', 'front state']);
    await deps.shutdown();
  });
});
